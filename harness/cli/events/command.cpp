// perfgauge events [FILTER] | perfgauge events --resolve LIST
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "events/options.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "perfgauge/pmu/event_catalog.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "perfgauge/pmu/perf_event.hpp"
#include "perfgauge/pmu/tracefs.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

namespace {

using harness::TextTable;

std::string type_text(const perf_event_attr& attr) {
    switch (attr.type) {
        case PERF_TYPE_HARDWARE:
            return "0 (hardware)";
        case PERF_TYPE_SOFTWARE:
            return "1 (software)";
        case PERF_TYPE_TRACEPOINT:
            return "2 (tracepoint)";
        case PERF_TYPE_HW_CACHE:
            return "3 (hw-cache)";
        case PERF_TYPE_RAW:
            return "4 (raw)";
        default:
            return fmt::format("{} (dynamic PMU)", attr.type);
    }
}

std::string here_text(int open_error, pmu::EventKind kind, const perf_event_attr& attr,
                      const pmu::PmuEnvironment& env) {
    if (open_error == 0)
        return "yes";
    return pmu::diagnose_open_error(open_error, kind, attr, env).status;
}

int resolve_list(const std::string& list, bool verbose) {
    const pmu::EventResolver resolver;
    const auto groups = resolver.resolve(list);
    const auto env = pmu::detect_pmu_environment();
    std::optional<pmu::OpenDiagnosis> hardware_problem;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto& group = groups[g];
        fmt::print("group {}{}: {} event{}\n", g + 1, group.explicit_group ? " {...}" : "",
                   group.events.size(), group.events.size() == 1 ? "" : "s");
        TextTable table({"  EVENT", "KIND", "TYPE", "CONFIG", "COUNTS", "OPENS HERE", "ENCODING"});
        for (std::size_t i = 0; i < group.events.size(); ++i) {
            const auto& e = group.events[i];
            const int error = pmu::probe_open(e.attr);
            if (error != 0 && pmu::needs_hardware_pmu(e.kind) && !hardware_problem) {
                hardware_problem = pmu::diagnose_open_error(error, e.kind, e.attr, env);
            }
            table.add_row({fmt::format("  {}{}", e.name,
                                       i == 0 && group.events.size() > 1 ? " (leader)" : ""),
                           std::string(pmu::kind_name(e.kind)), type_text(e.attr),
                           fmt::format("{:#x}", static_cast<unsigned long long>(e.attr.config)),
                           pmu::privilege_text(e.attr), here_text(error, e.kind, e.attr, env),
                           e.encoding});
        }
        fmt::print("{}", table.render());
        // Below the table, not in it: one long attr line would widen every row's first column.
        for (std::size_t i = 0; verbose && i < group.events.size(); ++i) {
            fmt::print("  attr of {}: {}\n", group.events[i].name,
                       pmu::dump_attr(group.events[i].attr));
        }
    }
    if (hardware_problem) {
        fmt::print("\nhardware events cannot be opened here: {}\n  fix: {}\n",
                   hardware_problem->reason, hardware_problem->fix);
    }
    return kExitOk;
}

// "\rprobing tracepoints: 812/2307" on a terminal, so minutes of probing are not silent; the
// caller clears it. Redrawn every 16 tracepoints: a line per probe would cost more than it shows.
void show_tracepoint_progress(std::size_t done, std::size_t total) {
    if (done % 16 == 0 || done == total) {
        say("\rprobing tracepoints: {}/{}", done, total);
    }
}

void clear_progress_line() {
    say("\r{:40}\r", "");
}

// Whether counting tracepoints works for this process, from one open: the answer depends on
// privileges and tracefs, not on which tracepoint, so one stands for all when they were not
// opened one by one.
void report_sample_tracepoint(const std::vector<pmu::CatalogEntry>& entries,
                              const pmu::PmuEnvironment& env) {
    const auto it = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
        return e.kind == pmu::EventKind::tracepoint && e.encode_error.empty();
    });
    if (it == entries.end())
        return;
    const pmu::EventResolver resolver;
    pmu::EventTerm term;
    term.name = it->name;
    const auto spec = resolver.resolve(term);
    const int error = pmu::probe_open(spec.attr);
    fmt::print(
        "Tracepoints were not opened one by one (--probe-tracepoints does, at ~25 ms each); {} "
        "{}.\n",
        it->name,
        error == 0 ? "opened, so this process can count tracepoints"
                   : "cannot be opened here: " +
                         pmu::diagnose_open_error(error, spec.kind, spec.attr, env).reason);
}

int list_catalog(pmu::CatalogOptions options, bool verbose) {
    if (options.tracepoints && !pmu::Tracefs::locate()) {
        say("perfgauge events: note: no tracefs found (neither mounted at "
            "/sys/kernel/tracing nor at /sys/kernel/debug/tracing, per /proc/mounts), so "
            "no tracepoints are listed; as root: mount -t tracefs nodev "
            "/sys/kernel/tracing\n");
    }
    const bool show_progress = options.tracepoints && options.probe_each_tracepoint &&
                               options.try_open && ::isatty(STDERR_FILENO) == 1;
    if (show_progress)
        options.tracepoint_progress = show_tracepoint_progress;
    const auto entries = pmu::list_events(options);
    if (show_progress)
        clear_progress_line();
    if (entries.empty()) {
        say("perfgauge events: no event matches '{}'\n", options.filter);
        return kExitUsage;
    }
    const auto env = pmu::detect_pmu_environment();
    TextTable table({"EVENT", "PMU", "KIND", "OPENS HERE", "DESCRIPTION"});
    std::size_t openable = 0, probed = 0;
    std::optional<pmu::OpenDiagnosis> hardware_problem;
    for (const auto& e : entries) {
        std::string here = "-";
        if (!e.encode_error.empty()) {
            here = "needs attributes";
        } else if (e.probed) {
            perf_event_attr attr{};
            attr.exclude_kernel = 1;
            here = here_text(e.open_error, e.kind, attr, env);
            openable += e.open_error == 0;
            ++probed;
            if (e.open_error != 0 && pmu::needs_hardware_pmu(e.kind) && !hardware_problem) {
                hardware_problem = pmu::diagnose_open_error(e.open_error, e.kind, attr, env);
            }
        }
        table.add_row({e.name, e.pmu, std::string(pmu::kind_name(e.kind)), here,
                       verbose ? e.description : harness::truncate(e.description, 60)});
    }
    fmt::print("{}", table.render());
    fmt::print("\n{} events", entries.size());
    if (options.try_open) {
        if (probed == entries.size())
            fmt::print(", {} can be opened here", openable);
        else
            fmt::print(", {} of the {} tried can be opened here", openable, probed);
    }
    fmt::print(".\n");
    if (hardware_problem) {
        fmt::print("Hardware events cannot be opened here: {}\n  fix: {}\n",
                   hardware_problem->reason, hardware_problem->fix);
    }
    if (options.tracepoints && options.try_open && !options.probe_each_tracepoint)
        report_sample_tracepoint(entries, env);
    return kExitOk;
}

}  // namespace

int events_command(const std::vector<std::string>& args) {
    const auto request = parse_events_request(args);
    if (!request)
        return kExitOk;
    if (request->resolve)
        return resolve_list(*request->resolve, request->verbose);
    return list_catalog(request->catalog, request->verbose);
}

}  // namespace perfgauge::cli
