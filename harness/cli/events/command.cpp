// perfgauge events [FILTER] | perfgauge events --resolve LIST
// Resolves and probes (pmu), renders (results' events_report) and writes.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "events/options.hpp"
#include "perfgauge/harness/events_report.hpp"
#include "perfgauge/pmu/event_catalog.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "perfgauge/pmu/perf_event.hpp"
#include "perfgauge/pmu/tracefs.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

namespace {

// Why hardware events cannot be opened here, in the writer's terms.
harness::OpenProblem problem(int open_error, pmu::EventKind kind, const perf_event_attr& attr,
                             const pmu::PmuEnvironment& env) {
    const auto diagnosis = pmu::diagnose_open_error(open_error, kind, attr, env);
    return {diagnosis.reason, diagnosis.fix};
}

std::string here_text(int open_error, pmu::EventKind kind, const perf_event_attr& attr,
                      const pmu::PmuEnvironment& env) {
    if (open_error == 0)
        return "yes";
    return pmu::diagnose_open_error(open_error, kind, attr, env).status;
}

// Each group resolved and each event opened once, for the writer.
harness::ResolvedEventList resolved_list(const std::string& list, bool verbose) {
    const pmu::EventResolver resolver;
    const auto groups = resolver.resolve(list);
    const auto env = pmu::detect_pmu_environment();
    harness::ResolvedEventList resolved;
    resolved.verbose = verbose;
    for (const auto& group : groups) {
        auto& out = resolved.groups.emplace_back();
        out.explicit_group = group.explicit_group;
        for (const auto& e : group.events) {
            const int error = pmu::probe_open(e.attr);
            if (error != 0 && pmu::needs_hardware_pmu(e.kind) && !resolved.hardware_problem)
                resolved.hardware_problem = problem(error, e.kind, e.attr, env);
            out.events.push_back({e.name, std::string(pmu::kind_name(e.kind)), e.attr.type,
                                  e.attr.config, pmu::privilege_text(e.attr),
                                  here_text(error, e.kind, e.attr, env), e.encoding,
                                  verbose ? pmu::dump_attr(e.attr) : ""});
        }
    }
    return resolved;
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
std::optional<harness::SampleTracepoint> sample_tracepoint(
    const std::vector<pmu::CatalogEntry>& entries, const pmu::PmuEnvironment& env) {
    const auto it = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
        return e.kind == pmu::EventKind::tracepoint && e.encode_error.empty();
    });
    if (it == entries.end())
        return std::nullopt;
    const pmu::EventResolver resolver;
    pmu::EventTerm term;
    term.name = it->name;
    const auto spec = resolver.resolve(term);
    const int error = pmu::probe_open(spec.attr);
    if (error == 0)
        return harness::SampleTracepoint{it->name, std::nullopt};
    return harness::SampleTracepoint{
        it->name, pmu::diagnose_open_error(error, spec.kind, spec.attr, env).reason};
}

// The catalogue's rows, each event's "opens here" from its probe, for the writer.
harness::EventCatalogListing catalog_listing(const std::vector<pmu::CatalogEntry>& entries,
                                             const pmu::CatalogOptions& options, bool verbose) {
    const auto env = pmu::detect_pmu_environment();
    harness::EventCatalogListing listing;
    listing.verbose = verbose;
    listing.tried = options.try_open;
    for (const auto& e : entries) {
        std::string here = "-";
        if (!e.encode_error.empty()) {
            here = "needs attributes";
        } else if (e.probed) {
            perf_event_attr attr{};
            attr.exclude_kernel = 1;
            here = here_text(e.open_error, e.kind, attr, env);
            listing.openable += e.open_error == 0;
            ++listing.probed;
            if (e.open_error != 0 && pmu::needs_hardware_pmu(e.kind) && !listing.hardware_problem)
                listing.hardware_problem = problem(e.open_error, e.kind, attr, env);
        }
        listing.rows.push_back(
            {e.name, e.pmu, std::string(pmu::kind_name(e.kind)), here, e.description});
    }
    if (options.tracepoints && options.try_open && !options.probe_each_tracepoint)
        listing.sample_tracepoint = sample_tracepoint(entries, env);
    return listing;
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
    write_output(harness::render_event_catalog(catalog_listing(entries, options, verbose),
                                               harness::OutputFormat::table),
                 "");
    return kExitOk;
}

}  // namespace

int events_command(const std::vector<std::string>& args) {
    const auto request = parse_events_request(args);
    if (!request)
        return kExitOk;
    if (request->resolve) {
        write_output(
            harness::render_resolved_events(resolved_list(*request->resolve, request->verbose),
                                            harness::OutputFormat::table),
            "");
        return kExitOk;
    }
    return list_catalog(request->catalog, request->verbose);
}

}  // namespace perfgauge::cli
