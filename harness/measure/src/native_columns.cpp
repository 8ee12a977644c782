#include "perfgauge/harness/native_columns.hpp"

#include <optional>

#include "perfgauge/pmu/open_error.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"

namespace perfgauge::harness {

std::vector<EventColumn> native_columns(const pmu::CounterSet& counters) {
    std::vector<EventColumn> out;
    std::optional<pmu::PmuEnvironment> env;
    for (const auto& slot : counters.events()) {
        EventRefusal refusal;
        if (!slot.opened) {
            if (!env)
                env = pmu::detect_pmu_environment();
            auto d = pmu::diagnose_open_error(slot.error, slot.spec.kind, slot.spec.attr, *env);
            refusal = {std::move(d.status), std::move(d.reason), std::move(d.fix), d.hint};
        }
        out.push_back(native_column(slot.spec.name, slot.spec.kind, slot.opened, refusal));
    }
    return out;
}

}  // namespace perfgauge::harness
