// What valgrind leaves in $TMPDIR when it is killed during its start-up.
#include <algorithm>
#include <cctype>
#include <string_view>

#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/simulation.hpp"

namespace perfgauge::harness {

namespace {

bool all_of_class(std::string_view text, int (*is_class)(int)) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [is_class](char c) {
        return is_class(static_cast<unsigned char>(c)) != 0;
    });
}

}  // namespace

pid_t valgrind_temp_owner(const std::string& name) {
    // valgrind_proc_PID_cmdline_XXXXXXXX and valgrind_proc_PID_auxv_XXXXXXXX (valgrind 3.x's
    // stand-ins for /proc/self/cmdline and /proc/self/auxv, unlinked once open).
    constexpr std::string_view prefix = "valgrind_proc_";
    std::string_view rest(name);
    if (rest.substr(0, prefix.size()) != prefix)
        return 0;
    rest.remove_prefix(prefix.size());
    const auto underscore = rest.find('_');
    const std::string_view digits = rest.substr(0, underscore);
    if (underscore == std::string_view::npos || digits.size() > 9 ||
        !all_of_class(digits, ::isdigit))
        return 0;
    rest.remove_prefix(underscore + 1);
    for (const std::string_view what : {"cmdline_", "auxv_"}) {
        if (rest.substr(0, what.size()) == what) {
            const std::string_view suffix = rest.substr(what.size());
            return suffix.size() == 8 && all_of_class(suffix, ::isxdigit)
                       ? static_cast<pid_t>(std::stol(std::string(digits)))
                       : 0;
        }
    }
    return 0;
}

void remove_valgrind_leftovers(const std::filesystem::path& root) {
    remove_entries_of_gone_processes(root, false, valgrind_temp_owner);
}

}  // namespace perfgauge::harness
