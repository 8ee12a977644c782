// --backend, shared by run's and stat's options (the measuring commands'): its value parsed.
#pragma once

#include "common/option_parsing.hpp"
#include "perfgauge/harness/event_plan.hpp"

namespace perfgauge::cli {

/// The value of --backend; UsageError for an unknown one.
harness::Backend backend_option(const po::variables_map& vm);

}  // namespace perfgauge::cli
