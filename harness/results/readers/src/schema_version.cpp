#include "result_file_json.hpp"

#include <fmt/format.h>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/result_file.hpp"

namespace perfgauge::harness {

int read_schema_version(const nlohmann::json& j, const std::string& origin) {
    const auto it = j.find(kSchemaVersionKey);
    if (it == j.end())
        return kUnversionedSchemaVersion;
    // nlohmann reads 1.5 as a float and -1 as a signed integer: only a positive integer is a
    // version.
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
        throw ResultFileError(fmt::format(
            "{}: malformed perfgauge result: '{}' is {}, not a version number (a positive integer)",
            origin, kSchemaVersionKey, shown_value(*it)));
    }
    const auto version = it->get<std::int64_t>();
    if (version > kResultSchemaVersion) {
        throw ResultFileError(fmt::format(
            "{}: written for result schema version {}, newer than this perfgauge reads (versions "
            "{} to {}); read it with the perfgauge that wrote it, or a newer one",
            origin, version, kUnversionedSchemaVersion, kResultSchemaVersion));
    }
    return static_cast<int>(version);
}

}  // namespace perfgauge::harness
