#include "system_json.hpp"

namespace perfgauge::harness::detail {

// The machine the result was measured on, as far as it was recorded.
nlohmann::json system_json(const SystemInfo& sys) {
    nlohmann::json j = {
        {"cpu", sys.cpu.model_name},
        {"vendor", sys.cpu.vendor},
        {"family", sys.cpu.family},
        {"model", sys.cpu.model},
        {"stepping", sys.cpu.stepping},
        {"microcode", sys.cpu.microcode},
        {"cores", sys.cpu.cores},
        {"hypervisor", sys.hypervisor},
        {"bmi2", sys.cpu.bmi2},
        {"invariant_tsc", sys.cpu.invariant_tsc},
        {"kernel", sys.kernel},
        {"governor", sys.governor ? nlohmann::json(*sys.governor) : nlohmann::json(nullptr)},
        {"boost", sys.boost ? nlohmann::json(*sys.boost) : nlohmann::json(nullptr)},
        {"smt_active", sys.smt_active ? nlohmann::json(*sys.smt_active) : nlohmann::json(nullptr)},
        {"clocksource", sys.clocksource},
        {"aslr", sys.aslr ? nlohmann::json(*sys.aslr) : nlohmann::json(nullptr)},
        {"perf_event_paranoid", sys.perf_event_paranoid ? nlohmann::json(*sys.perf_event_paranoid)
                                                        : nlohmann::json(nullptr)},
        {"hardware_pmu", sys.hardware_pmu}};
    j["mitigations"] = nlohmann::json::object();
    for (const auto& [name, status] : sys.mitigations)
        j["mitigations"][name] = status;
    if (const auto& g = sys.cpu_gaps) {
        j["cpu_gaps"] = {{"window_ns", g->window_ns},
                         {"threshold_ns", g->threshold_ns},
                         {"count", g->count},
                         {"lost_share", g->lost_share},
                         {"typical_gap_ns", g->typical_gap_ns},
                         {"typical_period_ns", g->typical_period_ns}};
    }
    return j;
}

void add_host_json(const SystemInfo& sys, nlohmann::json& j) {
    j["host_name"] = sys.host_name;
    j["num_cpus"] = sys.cpu.logical_cpus;
    j["caches"] = nlohmann::json::array();
    for (const auto& cache : sys.caches) {
        j["caches"].push_back({{"type", cache.type},
                               {"level", cache.level},
                               {"size", cache.size_bytes},
                               {"num_sharing", cache.shared_by}});
    }
}

}  // namespace perfgauge::harness::detail
