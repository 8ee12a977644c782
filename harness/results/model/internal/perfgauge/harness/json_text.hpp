// The text of every JSON document perfgauge writes (results, reports, exports).
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <string>

namespace perfgauge::harness {

/// The version of the result contract (docs/schema/, docs/result-format.md) that every JSON file
/// this binary writes follows, stated in the file's top-level "schema_version". One number for
/// every kind: a change to any kind's schema raises it. Readers accept 1 to this, and a file
/// without the field as version 1 (written before the field existed, in the same format).
inline constexpr int kResultSchemaVersion = 1;
inline constexpr const char* kSchemaVersionKey = "schema_version";
/// What a file without "schema_version" follows.
inline constexpr int kUnversionedSchemaVersion = 1;

/// `j` as text with a final newline. Strings that are not UTF-8 (a command's argument, a path
/// or a benchmark name made of arbitrary bytes) have each invalid byte replaced by U+FFFD:
/// nlohmann's default would throw in the middle of writing a finished result.
inline std::string json_text(const nlohmann::json& j, int indent = 2) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

/// `v`, or null where it is not a finite number (JSON has no NaN: a figure not measured).
inline nlohmann::json number_or_null(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

/// `*v`, or null without one.
inline nlohmann::json number_or_null(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

/// What a JSON library error says, without nlohmann's "[json.exception.parse_error.101] " tag:
/// the user reads which byte is wrong and why, not the library's internals.
inline std::string json_error_text(const nlohmann::json::exception& e) {
    std::string text = e.what();
    if (text.rfind("[json.exception.", 0) == 0) {
        if (const auto end = text.find("] "); end != std::string::npos)
            text.erase(0, end + 2);
    }
    return text;
}

}  // namespace perfgauge::harness
