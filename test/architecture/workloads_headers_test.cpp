// Compiles only: every public workloads header, and nothing of perf_event's ABI comes with
// them. Workloads describe code to measure; the counters behind BatchState are the harness's.
#include "perfgauge/workloads/cache_sweep.hpp"
#include "perfgauge/workloads/datasets.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "perfgauge/workloads/variant_availability.hpp"
#include "perfgauge/workloads/varint.hpp"

#ifdef _LINUX_PERF_EVENT_H
#error "a public workloads header pulls in <linux/perf_event.h>"
#endif
