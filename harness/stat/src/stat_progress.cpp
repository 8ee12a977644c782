#include "perfgauge/harness/stat_progress.hpp"

#include <fmt/format.h>

#include <utility>

#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/terminal_progress.hpp"

namespace perfgauge::harness {

std::string stat_progress_text(const StatStep& step, double elapsed_s) {
    std::string out = fmt::format("{} {}/{}", step.warmup ? "warmup" : "run", step.run, step.runs);
    if (step.commands > 1)
        out += " of " + side_by_side_letter(step.command);  // as the report names it
    // The runs of every command take turns, so one rate over all of them: the warmups' rate is
    // the rounds' too (the same commands).
    return with_time_left(std::move(out), elapsed_s, step.done, step.total);
}

}  // namespace perfgauge::harness
