// Runs a program (no shell) and captures its exit status, stdout and stderr, for CLI tests.
#pragma once

#include <string>
#include <vector>

namespace perfgauge::test {

struct ProcessResult {
    int exit_code = -1;  ///< exit status, or 128 + signal
    std::string out;
    std::string err;
};

ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace perfgauge::test
