#include "perfgauge/harness/json_reader.hpp"

#include <fmt/format.h>

#include "perfgauge/harness/result_file.hpp"
#include "result_file_json.hpp"

namespace perfgauge::harness {

std::optional<std::size_t> json_too_deep_at(std::string_view text, std::size_t limit) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                ++i;  // the escaped character, a quote included, does not end the string
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '[' || ch == '{') {
            if (++depth > limit)
                return i + 1;
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            --depth;  // an unbalanced close is the parser's to report
        }
    }
    return std::nullopt;
}

std::string json_too_deep_message(const std::string& origin, std::size_t byte) {
    return fmt::format(
        "{}: JSON nested deeper than {} levels at byte {} (a result nests a few levels; give "
        "the JSON that perfgauge or Google Benchmark wrote)",
        origin, kMaxJsonDepth, byte);
}

bool is_non_finite_token(const nlohmann::json& v) {
    if (!v.is_string())
        return false;
    const auto& text = v.get_ref<const std::string&>();
    return text == "NaN" || text == "-NaN" || text == "Infinity" || text == "-Infinity";
}

std::string shown_value(const nlohmann::json& value) {
    if (is_non_finite_token(value))
        return value.get<std::string>();
    constexpr std::size_t kShown = 40;
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > kShown)
        text = text.substr(0, kShown) + "... (" + std::to_string(text.size()) + " characters)";
    return text;
}

nlohmann::json parse_json_bounded(std::string_view text, const std::string& origin) {
    if (const auto byte = json_too_deep_at(text))
        throw ResultFileError(json_too_deep_message(origin, *byte));
    return nlohmann::json::parse(text);
}

}  // namespace perfgauge::harness
