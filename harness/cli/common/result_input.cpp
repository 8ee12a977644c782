#include "common/result_input.hpp"

#include <stdexcept>

#include "common/cli_common.hpp"
#include "perfgauge/harness/input_file.hpp"
#include "perfgauge/harness/result_file.hpp"

namespace perfgauge::cli {

std::string read_input_file(const std::string& path) {
    try {
        return harness::read_input_file(path);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

harness::RunResult read_any_result_file(const std::string& path) {
    try {
        return harness::parse_result_json(read_input_file(path), path);
    } catch (const harness::ResultFileError& e) {
        throw UsageError(e.what());
    }
}

}  // namespace perfgauge::cli
