// What perf_event_open actually allows this process, found by trying: the paranoid level alone
// does not say (upstream kernels treat 3 and 4 like 2; Debian/Ubuntu-patched ones disable
// unprivileged use at 3), and a seccomp profile can refuse what the level allows.
#pragma once

#include <string>

namespace perfgauge::pmu {

/// errno of each attempt (0: the kernel opened it). Each event is opened disabled and closed.
struct AccessProbes {
    int self_user = 0;      ///< task-clock on this process, user space only (perfgauge's default)
    int self_kernel = 0;    ///< task-clock on this process, kernel space included (:uk)
    int cpu_wide = 0;       ///< cpu-clock for every task on CPU 0, user space only
    int hardware_user = 0;  ///< cycles on this process, user space only (ENOENT without a PMU)
};

/// Tries the four opens above.
AccessProbes probe_access();

/// "opened", "refused (EACCES)", "not supported (ENOENT)", ...: an attempt's outcome in words.
std::string describe_attempt(int error);

}  // namespace perfgauge::pmu
