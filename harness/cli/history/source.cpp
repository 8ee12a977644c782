#include "history/source.hpp"

#include <filesystem>

#include "common/cli_common.hpp"
#include "common/result_input.hpp"
#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/result_file.hpp"

namespace perfgauge::cli {
namespace {

// The words of a command as a stat result records them ("command": [...]); empty when any
// is not text.
std::string command_words(const nlohmann::json& command) {
    if (!command.is_array())
        return {};
    std::string out;
    for (const auto& word : command) {
        if (!word.is_string())
            return {};
        out += (out.empty() ? "" : " ") + word.get<std::string>();
    }
    return out;
}

}  // namespace

std::string recorded_command(const nlohmann::json& result) {
    if (!result.is_object())
        return {};
    if (const auto it = result.find("command"); it != result.end())
        return command_words(*it);
    if (const auto it = result.find("commands"); it != result.end() && it->is_array()) {
        std::string out;  // side by side: every command, as `stat` takes them
        for (const auto& one : *it) {
            const auto words = one.is_object() && one.contains("command")
                                   ? command_words(one.at("command"))
                                   : std::string();
            if (words.empty())
                return {};
            out += (out.empty() ? "" : " ::: ") + words;
        }
        return out;
    }
    const auto context = result.find("context");
    if (context == result.end() || !context->is_object() || context->contains("perfgauge"))
        return {};  // a perfgauge run result records no command line
    const auto executable = context->find("executable");
    return executable != context->end() && executable->is_string() ? executable->get<std::string>()
                                                                   : std::string();
}

std::string absolute_source(const std::string& path) {
    if (path == "-" || path.starts_with("/dev/"))
        return path;
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

HistoryInput read_history_input(const std::string& path) {
    const std::string text = read_input_file(path);  // read once: a pipe is read once
    HistoryInput in;
    try {
        in.result = harness::parse_result_json(text, path);
    } catch (const harness::ResultFileError& e) {
        throw UsageError(e.what());
    }
    in.path = absolute_source(path);
    try {  // the text was read as a result already: what it records is a bonus, never an error
        in.command = recorded_command(harness::parse_json_bounded(text, path));
    } catch (const std::exception&) {
        in.command.clear();
    }
    return in;
}

}  // namespace perfgauge::cli
