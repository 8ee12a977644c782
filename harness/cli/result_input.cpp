#include "result_input.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli_common.hpp"
#include "perfgauge/harness/result_file.hpp"

namespace perfgauge::cli {

std::string read_input_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw UsageError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

harness::RunResult read_result_file(const std::string& path) {
    try {
        return harness::parse_run_json(read_input_file(path), path);
    } catch (const harness::ResultFileError& e) {
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
