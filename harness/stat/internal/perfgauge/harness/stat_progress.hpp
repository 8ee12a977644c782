// stat's progress line: which run of which command is under way and the time left at the rate
// so far ("run 3/10 of B, about 5 s left"). Pure: the clock and the terminal are the caller's.
#pragma once

#include <string>

#include "perfgauge/harness/stat.hpp"

namespace perfgauge::harness {

/// The line (without "\r" or a prefix) as `step`'s run starts, `elapsed_s` seconds after the
/// first run started: no estimate before a run has ended (no rate yet). Commands are named by
/// their letters (A, B, ...), as the report names them; a command alone is not named.
std::string stat_progress_text(const StatStep& step, double elapsed_s);

}  // namespace perfgauge::harness
