// Stages that failed while the rest of the work was kept: a simulation that could not run, a
// measuring process that died. The command goes on with what it has and says what was lost;
// its exit status says that something failed (1), which the CLI's main asks here once the
// command has returned, so a stage deep inside a command needs no path back to it.
#pragma once

#include <string>
#include <vector>

namespace perfgauge::harness {

/// Records that `what` failed and its work is missing from the result ("the simulation under
/// callgrind", "measuring process 2 of 3").
void record_stage_failure(std::string what);

/// Every stage recorded since the start (or the last clear_stage_failures()), in order.
std::vector<std::string> stage_failures();

/// For tests: forgets the stages recorded so far.
void clear_stage_failures();

}  // namespace perfgauge::harness
