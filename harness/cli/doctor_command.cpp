// perfgauge doctor
#include <fmt/format.h>

#include <iostream>

#include "cli_common.hpp"
#include "hints.hpp"
#include "option_parsing.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/access_probe.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/libpfm_info.hpp"
#include "perfgauge/pmu/perf_event.hpp"
#include "perfgauge/pmu/tracefs.hpp"
#include "perfgauge/workloads/variant_availability.hpp"

namespace perfgauge::cli {

namespace {

int probe_event(const pmu::EventResolver& resolver, const std::string& name) {
    pmu::EventTerm term;
    term.name = name;
    return pmu::probe_open(resolver.resolve(term).attr);
}

}  // namespace

int doctor_command(const std::vector<std::string>& args) {
    if (printed_help(
            args,
            "usage: perfgauge doctor\n\n"
            "Reports whether this machine can count hardware and software events, and why not,\n"
            "with a one-line fix where there is one: what perf_event_open allows this process\n"
            "(found by trying, not from perf_event_paranoid alone), whether libpfm4 knows this\n"
            "CPU's own events, whether simulation (valgrind) is available; then what makes\n"
            "timings unreliable here, including the gaps in a thread's time that it cannot see\n"
            "(it spins on the clock for 50 ms: 'interruptions').\n"
            "Exit status 1 when not even software events can be counted.\n\noptions"))
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
    for (auto& check : workloads::isa_checks(system.cpu))
        checks.push_back(std::move(check));
    fmt::print("perfgauge doctor\n\n");
    for (const auto& check : checks) {
        fmt::print("{} {}: {}\n", harness::check_label(check.level), check.topic, check.finding);
        if (const auto fix = with_hint(check.fix, check.hint); !fix.empty())
            fmt::print("       fix: {}\n", fix);
    }
    return probes.software_error == 0 ? kExitOk : kExitFailure;
}

}  // namespace perfgauge::cli
