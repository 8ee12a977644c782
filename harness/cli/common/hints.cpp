#include "common/hints.hpp"

namespace perfgauge::cli {

std::string hint_text(pmu::ToolHint hint) {
    switch (hint) {
        case pmu::ToolHint::none:
            return "";
        case pmu::ToolHint::list_events:
            return "run 'perfgauge events' to list the events this machine can open";
        case pmu::ToolHint::show_encoding:
            return "'perfgauge events --resolve LIST' (or -v) shows the encoding";
        case pmu::ToolHint::simulate:
            return "or simulate instructions, branches, branch-misses and cache misses with "
                   "--backend sim (valgrind's callgrind; perfgauge run and stat do it by default, "
                   "--backend auto, when valgrind is installed)";
        case pmu::ToolHint::grant_perfmon:
            return "sudo setcap cap_perfmon+ep $(which perfgauge)";
    }
    return "";
}

std::string with_hint(const std::string& fix, pmu::ToolHint hint) {
    const std::string words = hint_text(hint);
    if (words.empty())
        return fix;
    return fix.empty() ? words : fix + "; " + words;
}

}  // namespace perfgauge::cli
