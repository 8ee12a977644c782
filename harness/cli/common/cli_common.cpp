#include "common/cli_common.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "common/console.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/own_executable.hpp"

namespace perfgauge::cli {

void check_output_path(const std::string& path) {
    // Most tools read "-" as the standard stream: a file of that name would surprise.
    if (path == "-") {
        throw UsageError(
            "'-' names no file here: give a file name ('./-' for a file called '-'), or "
            "/dev/stdout");
    }
    try {
        harness::check_writable(path);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

void refuse_outputs_over_inputs(const std::vector<harness::NamedPath>& outputs,
                                std::vector<harness::NamedPath> inputs) {
    inputs.push_back({"perfgauge itself", own_executable()});
    try {
        harness::refuse_overlapping_paths(outputs, inputs);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

void refuse_second_document_on_stdout(const char* option, const std::string& path,
                                      const char* printed) {
    struct stat out {};
    struct stat named {};
    if (path.empty() || ::fstat(STDOUT_FILENO, &out) != 0 || ::stat(path.c_str(), &named) != 0)
        return;  // no standard output, or a file that is not there yet: not the same
    if (out.st_dev != named.st_dev || out.st_ino != named.st_ino)
        return;
    if (S_ISCHR(named.st_mode) && named.st_rdev == makedev(1, 3))
        return;  // /dev/null: nothing is mixed where nothing is kept
    throw UsageError(fmt::format(
        "{} {}: that is the standard output, where {} is printed: two documents in one stream "
        "could not be read back apart; give {} a file, or print the JSON alone with --format "
        "json",
        option, path, printed, option));
}

void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs) {
    std::vector<harness::NamedPath> named;
    for (const auto& input : inputs)
        named.push_back({"the input result", input});
    refuse_outputs_over_inputs({{"-o", output}}, named);
}

std::string write_output_keeping(const std::string& path, const std::string& content,
                                 bool interrupted) {
    std::error_code error;
    if (interrupted && path != "-" && std::filesystem::is_regular_file(path, error)) {
        const std::filesystem::path given(path);
        const auto kept = harness::write_new_output_file(given.parent_path(),
                                                         given.stem().string() + ".interrupted",
                                                         given.extension().string(), content);
        say("perfgauge: interrupted: {} is kept as it was; the partial output of this run is in "
            "{}\n",
            path, kept.string());
        return kept.string();
    }
    harness::write_output_file(path, content);
    return path;
}

std::string save_result_json(const std::string& json, const std::optional<std::string>& path,
                             const std::string& stem, const std::string& output, bool interrupted) {
    if (path)
        return write_output_keeping(*path, json, interrupted);
    auto where = harness::write_new_output_file("", stem, ".json", json);
    if (!output.empty() && harness::same_output(output, where))
        where = harness::write_new_output_file("", stem, ".json", json);
    return where.string();
}

void write_output(const std::string& text, const std::string& output, bool interrupted) {
    if (output.empty())
        std::fwrite(text.data(), 1, text.size(), stdout);
    else
        write_output_keeping(output, text, interrupted);
}

std::string own_executable() {
    return harness::own_executable();
}

}  // namespace perfgauge::cli
