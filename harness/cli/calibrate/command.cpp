// perfgauge calibrate [--format table|json] [-o FILE] [--samples N] [--events LIST] [--quick]
// Measures (measure's calibrate and check_correction), renders (results' calibration_report)
// and writes.
#include <fmt/format.h>

#include "calibrate/options.hpp"
#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "perfgauge/harness/calibration.hpp"
#include "perfgauge/harness/calibration_report.hpp"
#include "perfgauge/harness/correction_check.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

using harness::CorrectionCheck;

int calibrate_command(const std::vector<std::string>& args) {
    const auto request = parse_calibrate_request(args);
    if (!request)
        return kExitOk;
    harness::CorrectionCheckOptions sweep;
    if (request->quick) {
        sweep.repetitions = 5;
        sweep.precision = 0;
        sweep.warmup_time_s = 0.005;
    }

    // Progress on a terminal: the clocks, then each sweep's rows (13 steps, unequal: the
    // estimate is the rate so far).
    harness::TerminalProgress progress(harness::progress_wanted(request->quiet),
                                       "perfgauge calibrate", say_text);
    const std::size_t steps = 1 + 2 * sweep.ks.size();
    std::size_t done = 0;
    progress.update("clocks and snapshots");
    const auto c = harness::calibrate(request->samples);
    const auto sweep_with = [&](const std::string& events, std::size_t which) {
        harness::CorrectionCheckOptions options = sweep;
        options.on_row = [&, which](std::size_t row) {
            done = 1 + (which - 1) * sweep.ks.size() + row;
            progress.update(harness::with_time_left(
                fmt::format("seed experiment {}/2, k={}", which, sweep.ks[row]), progress.elapsed(),
                done, steps));
        };
        return harness::check_correction(events, options);
    };
    const std::vector<CorrectionCheck> checks = {sweep_with("", 1), sweep_with(request->events, 2)};
    progress.clear();
    write_output(harness::render_calibration(c, checks, request->format), request->output);
    return kExitOk;
}

}  // namespace perfgauge::cli
