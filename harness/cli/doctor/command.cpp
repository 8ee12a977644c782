// perfgauge doctor
#include <fmt/format.h>

#include <iostream>

#include "common/cli_common.hpp"
#include "common/hints.hpp"
#include "doctor/hybrid.hpp"
#include "doctor/options.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/access_probe.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/core_pmus.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/libpfm_info.hpp"
#include "perfgauge/pmu/perf_event.hpp"
#include "perfgauge/pmu/tracefs.hpp"
#include "perfgauge/workloads/variant_availability.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

namespace {

int probe_event(const pmu::EventResolver& resolver, const std::string& name) {
    pmu::EventTerm term;
    term.name = name;
    return pmu::probe_open(resolver.resolve(term).attr);
}

// Every finding with its fix: what `perfgauge doctor` prints.
void print_full(const std::vector<harness::DoctorCheck>& checks) {
    fmt::print("perfgauge doctor\n\n");
    for (const auto& check : checks) {
        fmt::print("{} {}: {}\n", harness::check_label(check.level), check.topic, check.finding);
        if (const auto fix = with_hint(check.fix, check.hint); !fix.empty())
            fmt::print("       fix: {}\n", fix);
    }
}

// A line per check within kBriefWidth columns: enough to see what needs attention on a first
// screen (the quick start), with the way to the details said once.
void print_brief(const std::vector<harness::DoctorCheck>& checks) {
    fmt::print("perfgauge doctor --brief (each finding in full, with its fix: perfgauge doctor)\n");
    for (const auto& check : checks) {
        const auto lead = fmt::format("{} {}: ", harness::check_label(check.level), check.topic);
        const auto room = lead.size() < kBriefWidth ? kBriefWidth - lead.size() : 0;
        fmt::print("{}{}\n", lead, harness::finding_headline(check.finding, room));
    }
}

}  // namespace

int doctor_command(const std::vector<std::string>& args) {
    const auto request = parse_doctor_request(args);
    if (!request)
        return kExitOk;

    const pmu::EventResolver resolver;
    harness::DoctorProbes probes;
    probes.hardware_error = probe_event(resolver, "cycles");
    probes.software_error = probe_event(resolver, "task-clock");
    probes.tracefs_mounted = pmu::Tracefs::locate().has_value();
    probes.access = pmu::probe_access();
    probes.libpfm = pmu::libpfm_info();
    probes.simulation.emplace();
    if (const char* why = pmu::valgrind_incompatibility())
        probes.simulation->incompatibility = why;
    probes.simulation->valgrind = pmu::locate_valgrind();
    if (probes.simulation->valgrind.path)
        probes.simulation->version = pmu::valgrind_version(*probes.simulation->valgrind.path);
    auto system = harness::collect_system_info();
    system.cpu_gaps = harness::measure_cpu_gaps();
    auto checks = harness::build_doctor_report(pmu::detect_pmu_environment(), system, probes);
    const auto core_pmus =
        pmu::read_core_pmus(pmu::kPmuDevicesDirectory, pmu::native_core_pmu_naming());
    if (auto hybrid =
            core_types_check(core_pmus, pmu::core_pmus_for_cpus(core_pmus, pmu::task_cpus())))
        checks.insert(checks.begin() + 1, std::move(*hybrid));
    for (auto& check : workloads::isa_checks(system.cpu))
        checks.push_back(std::move(check));
    if (request->brief)
        print_brief(checks);
    else
        print_full(checks);
    return probes.software_error == 0 ? kExitOk : kExitFailure;
}

}  // namespace perfgauge::cli
