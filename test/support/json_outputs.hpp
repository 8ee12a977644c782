// The JSON files the end-to-end tests make perfgauge write, collected so that one test
// (test/result_schema_check.py --collected) validates every one of them against docs/schema/
// after the end-to-end tests have run (issue 39: "the test suite validates every JSON file its
// end-to-end tests produce"). Collecting costs a copy per output: the tests are not slowed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgauge::test {

/// The environment variable that names the directory to collect into; unset: nothing is
/// collected (a test binary run by hand).
inline constexpr const char* kJsonOutputsDirVariable = "PERFGAUGE_TEST_JSON_DIR";

/// The JSON outputs `argv` asked for: files named by `--json`, `--against-json`, and by `-o` /
/// `--output` when `--format json` is given. Pure.
std::vector<std::string> json_output_paths(const std::vector<std::string>& argv);

/// Whether `argv` asks for JSON on stdout (`--format json` without `-o`). Pure.
bool json_on_stdout(const std::vector<std::string>& argv);

/// What the JSON outputs of a command looked like before it ran, to tell which it wrote.
class JsonOutputs {
  public:
    /// Notes each output's identity (inode, size, time) before the program runs.
    JsonOutputs(std::vector<std::string> argv, std::filesystem::path working_directory);

    /// After it ran: copies each JSON output it wrote (a new file, or another inode, size or
    /// time: a file left untouched, such as an input named as an output and refused, is not
    /// its output) and its stdout when that is where the JSON went into
    /// $PERFGAUGE_TEST_JSON_DIR, each with the command line beside it (NAME.cmd) for the
    /// validator's messages. Does nothing when the variable is unset.
    /// `stdout_file`: where the command's stdout was redirected; a --json naming that file got
    /// the command's table, not its JSON (run refuses such a --json), and is not collected.
    void collect(const std::string& out, const std::string& stdout_file = {}) const;

  private:
    struct Before {
        std::filesystem::path file;
        std::string identity;  ///< "" when it did not exist
    };
    std::vector<std::string> argv_;
    std::vector<Before> before_;
};

}  // namespace perfgauge::test
