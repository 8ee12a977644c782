// What stat_result.hpp promises beyond plain data: the side-by-side labels and rounds, and how
// a command line is named.
#include "perfgauge/harness/stat_result.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>

#include "perfgauge/harness/command_text.hpp"

namespace perfgauge::harness {

std::string detail::command_text(const std::vector<std::string>& command) {
    return fmt::format("{}", fmt::join(command, " "));
}

std::vector<std::string> side_by_side_labels(
    const std::vector<std::vector<std::string>>& commands) {
    std::vector<std::string> labels;
    std::map<std::string, int> seen;
    std::set<std::string> taken;
    for (const auto& c : commands) {
        const std::string text = detail::command_text(c);
        int& n = seen[text];
        std::string label = ++n == 1 ? text : fmt::format("{} #{}", text, n);
        // "x", "x", "x #2" must not give two "x #2": number on until the name is free.
        while (taken.count(label))
            label = fmt::format("{} #{}", text, ++n);
        taken.insert(label);
        labels.push_back(label);
    }
    return labels;
}

std::size_t SideBySideResult::complete_rounds() const {
    std::size_t rounds = commands.empty() ? 0 : SIZE_MAX;
    for (const auto& c : commands)
        rounds = std::min(rounds, c.elapsed_seconds.size());
    return rounds;
}

int SideBySideResult::exit_status() const {
    if (failed_prepare)
        return failed_prepare->shell_status();
    if (failed_command)
        return commands[*failed_command].exit.shell_status();
    return 0;
}

}  // namespace perfgauge::harness
