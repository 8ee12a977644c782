// One of selftest --counters' checks, as data: its verdict, the figure judged against what it
// should be, and why. The selftest library judges (counter_judging.hpp), the writers say it
// (selftest_report.hpp).
#pragma once

#include <optional>
#include <string>

namespace perfgauge::harness {

enum class CheckVerdict { pass, fail, unavailable };

/// "pass", "fail", "unavailable".
const char* verdict_name(CheckVerdict verdict);

/// One check's outcome: one line of the report, one object of the JSON's `checks`.
struct CounterCheck {
    std::string name;  ///< "instructions", "cycles", ...
    CheckVerdict verdict = CheckVerdict::unavailable;
    std::optional<double> measured;  ///< the figure judged (null when unavailable)
    std::optional<double> expected;  ///< what it should be (null where a range is judged)
    std::string unit;                ///< of measured and expected ("instructions per iteration")
    /// What was found and why that verdict; for unavailable, the kernel's or machine's reason.
    std::string detail;
};

CounterCheck unavailable_check(std::string name, std::string reason);

}  // namespace perfgauge::harness
