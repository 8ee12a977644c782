// The event columns of natively opened counters: each event's name, kind, source and, for the
// ones the kernel refused, the diagnosis why.
#pragma once

#include <vector>

#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

/// One column per event of `counters`, in their order. The PMU environment is detected only
/// when an event was refused.
std::vector<EventColumn> native_columns(const pmu::CounterSet& counters);

}  // namespace perfgauge::harness
