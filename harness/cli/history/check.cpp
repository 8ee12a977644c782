// perfgauge history check: the gate a CI job runs after `history add`; exit 3 while a
// regression stands in a checked series. The judging is harness/history's (check_series),
// the lines the writers' (history_check_text).
#include "history/check.hpp"

#include "common/cli_common.hpp"
#include "history/common.hpp"
#include "perfgauge/harness/history_text.hpp"

namespace perfgauge::cli {

int history_check(const std::vector<std::string>& args) {
    const auto request = parse_history_check(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const auto pattern = history_pattern(request->patterns);
    const auto outcome = harness::check_series(
        *store, name_pattern(pattern),
        {request->metrics, request->min_change, request->since, request->expected_false_alarms},
        stored_pattern_match());
    write_output(harness::history_check_text(outcome), "");
    return outcome.regressions ? kExitRegression : kExitOk;
}

}  // namespace perfgauge::cli
