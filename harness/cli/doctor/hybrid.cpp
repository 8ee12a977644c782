#include "doctor/hybrid.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>

namespace perfgauge::cli {

namespace {

std::vector<std::string> pmu_names(const std::vector<pmu::CorePmu>& pmus) {
    std::vector<std::string> out;
    for (const auto& p : pmus)
        out.push_back(p.name);
    return out;
}

}  // namespace

std::optional<harness::DoctorCheck> core_types_check(const std::vector<pmu::CorePmu>& all,
                                                     const std::vector<pmu::CorePmu>& for_task) {
    if (all.size() < 2)
        return std::nullopt;
    const std::string topic = "core types";
    const std::string found =
        fmt::format("hybrid CPU: {} core PMUs, {}", all.size(), pmu::describe_core_pmus(all));
    for (const auto& p : all) {
        if (!p.type) {
            return harness::DoctorCheck{
                harness::CheckLevel::warn, topic,
                fmt::format("{}; {} has no readable type, so events cannot be opened on it by "
                            "name: hardware events count only on the core type the kernel picks",
                            found, p.name),
                "check /sys/bus/event_source/devices/" + p.name + "/type"};
        }
    }
    if (!pmu::is_hybrid(for_task)) {
        const std::string where = for_task.empty() ? std::string("none of them")
                                                   : fmt::format("{} alone", for_task.front().name);
        return harness::DoctorCheck{
            harness::CheckLevel::info, topic,
            fmt::format("{}; this process may run on {}'s CPUs (its affinity), so hardware "
                        "events are opened there only, as written",
                        found, where),
            ""};
    }
    const auto task_names = pmu_names(for_task);
    return harness::DoctorCheck{
        harness::CheckLevel::info, topic,
        fmt::format("{}; every hardware event is opened on each core PMU this process may run on "
                    "({}) and counted per core type ({}/instructions/, ...): the columns add up "
                    "to the task's count. Not verified on a hybrid machine (docs/arm64.md, "
                    "\"What stays unverified\")",
                    found, fmt::join(task_names, ", "), fmt::join(task_names, "/instructions/, ")),
        ""};
}

}  // namespace perfgauge::cli
