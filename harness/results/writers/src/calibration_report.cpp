#include "perfgauge/harness/calibration_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

// "-" for a figure that could not be measured (no clean sample: every batch was disturbed).
std::string ns_text(double v) {
    return std::isfinite(v) ? fmt::format("{:.2f} ns", v) : "-";
}
std::string signed_ns_text(double v) {
    return std::isfinite(v) ? fmt::format("{:+.2f} ns", v) : "-";
}

std::string steps_text(const ClockSteps& steps) {
    std::vector<std::string> parts;
    for (const auto& s : steps.common)
        parts.push_back(fmt::format("{:.1f} ns {:.1f}%", s.ns, 100 * s.share));
    return fmt::format("{}; same value {:.0f}%", fmt::join(parts, ", "),
                       100 * steps.same_value_share);
}

std::string counters_label(const CorrectionCheck& check) {
    return check.events.empty() ? "no counters" : "counters " + check.events;
}

nlohmann::json check_json(const CorrectionCheck& check) {
    nlohmann::json rows = nlohmann::json::array();
    for (const CorrectionRow& r : check.rows) {
        rows.push_back({{"k", r.k},
                        {"reference_ns", number_or_null(r.reference_ns)},
                        {"raw_ns", number_or_null(r.raw_ns)},
                        {"raw_error_ns", number_or_null(r.raw_error_ns)},
                        {"corrected_ns", number_or_null(r.corrected_ns)},
                        {"error_ns", number_or_null(r.error_ns)},
                        {"error_share", number_or_null(correction_error_share(r))},
                        {"tolerance_ns", number_or_null(correction_tolerance_ns(r))},
                        {"spread_ns", r.spread_ns},
                        {"pass", correction_passes(r)},
                        {"pairs", r.pairs},
                        {"snapshot_pause_ns", number_or_null(r.snapshot_pause_ns)},
                        {"machine_drift", r.machine_drift ? nlohmann::json(*r.machine_drift)
                                                          : nlohmann::json(nullptr)}});
    }
    return {{"events", check.events},
            {"counted", check.counted},
            {"not_counted", check.not_counted},
            {"batch_overhead_ns", check.batch_overhead_ns},
            {"pause_overhead_ns", check.pause_overhead_ns},
            {"clock_pause_overhead_ns", check.clock_pause_overhead_ns},
            {"pause_overhead_spread_ns", check.pause_overhead_spread_ns},
            {"rows", rows},
            {"pass", check.passes()}};
}

// A row whose every round had a disturbed batch on one side was not checked, which is not a
// failed correction: said apart, and still not a pass.
bool unchecked(const CorrectionRow& r) {
    return r.pairs == 0;
}

std::string row_verdict(const CorrectionRow& r) {
    if (unchecked(r))
        return "no pair";
    return correction_passes(r) ? "ok" : "FAIL";
}

// The pair subtracted from the paused loop's time: reading only the clock where the check
// timed it apart from its snapshots.
double subtracted_pair_ns(const CorrectionCheck& check) {
    return check.clock_pause_overhead_ns > 0 ? check.clock_pause_overhead_ns
                                             : check.pause_overhead_ns;
}

// A failed row during which the machine ran at another speed than when the pair was
// calibrated: how much of its error a pair moving with the machine explains.
std::vector<std::string> drift_notes(const CorrectionCheck& check) {
    std::vector<std::string> notes;
    for (const CorrectionRow& r : check.rows) {
        if (unchecked(r) || correction_passes(r) || !r.machine_drift ||
            std::abs(*r.machine_drift) <= kProbeDriftNoise)
            continue;
        const double drift = *r.machine_drift;
        const double pair = subtracted_pair_ns(check);
        notes.push_back(fmt::format(
            "k={}: the machine ran {:.0f}% {} during this row than while the pair ({:.2f} ns) "
            "was calibrated; a pair moving with it explains {:+.2f} ns of its {:+.2f} ns ERROR",
            r.k, 100 * std::abs(drift), drift > 0 ? "slower" : "faster", pair, drift * pair,
            r.error_ns));
    }
    return notes;
}

void render_check(std::string& out, const CorrectionCheck& check) {
    fmt::format_to(
        std::back_inserter(out),
        "\nwith {}: subtracted per sample {:.2f} ns, per pause()/resume() pair {:.2f} ns{}\n",
        counters_label(check), check.batch_overhead_ns, check.pause_overhead_ns,
        check.clock_pause_overhead_ns > 0
            ? fmt::format(" with snapshots, {:.2f} ns reading only the clock (timed apart)",
                          check.clock_pause_overhead_ns)
            : "");
    fmt::format_to(std::back_inserter(out),
                   "the subtracted pair's cost moves by ±{:.2f} ns with the work around it "
                   "(calibrated between six kinds of work, their median subtracted): at small K, "
                   "ERROR is as much about which work this is as about the correction\n",
                   check.pause_overhead_spread_ns);
    for (const auto& line : check.not_counted)
        fmt::format_to(std::back_inserter(out), "not counted: {}\n", line);
    const bool apart = std::any_of(check.rows.begin(), check.rows.end(), [](const auto& r) {
        return std::isfinite(r.snapshot_pause_ns);
    });
    if (apart) {
        fmt::format_to(
            std::back_inserter(out),
            "a counter snapshot is a system call here: the paused loop is timed in batches whose "
            "pauses read only the clock, counted in batches beside them; SNAPSHOTS: what the "
            "snapshots added to its time, per pair (- where no sample was clean)\n");
    }
    std::vector<std::string> headers = {"K",     "REFERENCE", "RAW",    "RAW ERR", "CORRECTED",
                                        "ERROR", "ERROR%",    "TARGET", "PAIRS",   "DRIFT"};
    if (apart)
        headers.push_back("SNAPSHOTS");
    headers.push_back("");
    TextTable table(headers,
                    std::vector<TextTable::Align>(headers.size(), TextTable::Align::right));
    for (const CorrectionRow& r : check.rows) {
        std::vector<std::string> cells = {
            std::to_string(r.k),
            ns_text(r.reference_ns),
            ns_text(r.raw_ns),
            signed_ns_text(r.raw_error_ns),
            ns_text(r.corrected_ns),
            signed_ns_text(r.error_ns),
            std::isfinite(r.error_ns) ? fmt::format("{:+.2f}%", 100 * correction_error_share(r))
                                      : "-",
            fmt::format("±{:.2f} ns{}", correction_tolerance_ns(r),
                        held_to_spread(r) ? " (spread)" : ""),
            std::to_string(r.pairs),
            r.machine_drift ? fmt::format("{:+.1f}%", 100 * *r.machine_drift) : "-"};
        if (apart)
            cells.push_back(signed_ns_text(r.snapshot_pause_ns));
        cells.push_back(row_verdict(r));
        table.add_row(cells);
    }
    fmt::format_to(std::back_inserter(out), "{}", table.render());
    for (const auto& note : drift_notes(check))
        fmt::format_to(std::back_inserter(out), "{}\n", note);
}

struct RowCounts {
    std::size_t rows = 0, passed = 0, unchecked = 0;  ///< unchecked: no undisturbed pair
};

RowCounts count_rows(const std::vector<CorrectionCheck>& checks) {
    RowCounts counts;
    for (const auto& check : checks) {
        for (const CorrectionRow& r : check.rows) {
            ++counts.rows;
            counts.passed += correction_passes(r) ? 1 : 0;
            counts.unchecked += unchecked(r) ? 1 : 0;
        }
    }
    return counts;
}

// The calibration and both sweeps as JSON.
std::string calibration_json(const Calibration& c, const std::vector<CorrectionCheck>& checks,
                             const RowCounts& counts) {
    const auto& region = c.clocks.front();
    nlohmann::json j;
    j[kSchemaVersionKey] = kResultSchemaVersion;
    j["clock"] = region.name;
    j["clock_overhead_ns"] = region.overhead_ns;
    j["clock_granularity_ns"] = region.steps.granularity_ns;
    j["snapshot_read_ns"] = number_or_null(c.snapshot_read_ns);
    j["snapshot_rdpmc_ns"] =
        c.snapshot_rdpmc_ns ? nlohmann::json(*c.snapshot_rdpmc_ns) : nlohmann::json(nullptr);
    j["snapshot_rdpmc_group"] = c.snapshot_rdpmc_group.empty()
                                    ? nlohmann::json(nullptr)
                                    : nlohmann::json(c.snapshot_rdpmc_group);
    j["samples"] = c.samples;
    for (const auto& clock : c.clocks) {
        nlohmann::json steps = nlohmann::json::array();
        for (const auto& s : clock.steps.common)
            steps.push_back({{"ns", s.ns}, {"share", s.share}});
        j["clocks"].push_back({{"name", clock.name},
                               {"overhead_ns", clock.overhead_ns},
                               {"granularity_ns", clock.steps.granularity_ns},
                               {"granularity_is_upper_bound", !clock.steps.exact},
                               {"same_value_share", clock.steps.same_value_share},
                               {"steps", steps},
                               {"nominal_ghz", clock.nominal_ghz}});
    }
    j["correction"] = {{"experiment",
                        "Ou 2020 (Go issue 41641): k dependent atomic adds "
                        "per iteration, with and without a pause/resume pair"},
                       {"tolerance_ns", kCorrectionToleranceNs},
                       {"tolerance_share", kCorrectionToleranceShare},
                       {"rows", counts.rows},
                       {"rows_passed", counts.passed},
                       {"rows_unchecked", counts.unchecked},
                       {"pass", counts.passed == counts.rows},
                       {"checks", nlohmann::json::array()}};
    for (const auto& check : checks)
        j["correction"]["checks"].push_back(check_json(check));
    return json_text(j);
}

// The calibration and both sweeps as tables, with the verdict.
std::string calibration_table(const Calibration& c, const std::vector<CorrectionCheck>& checks,
                              const RowCounts& counts) {
    std::string out;
    TextTable table({"CLOCK", "OVERHEAD", "GRANULARITY", "NOMINAL", "STEPS SEEN"},
                    {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right,
                     TextTable::Align::right, TextTable::Align::left});
    for (const auto& clock : c.clocks) {
        table.add_row(
            {clock.name, fmt::format("{:.2f} ns", clock.overhead_ns),
             fmt::format("{}{:.2f} ns", clock.steps.exact ? "" : "<= ", clock.steps.granularity_ns),
             clock.nominal_ghz > 0 ? fmt::format("{:.4f} GHz", clock.nominal_ghz) : "-",
             steps_text(clock.steps)});
    }
    fmt::format_to(std::back_inserter(out), "{}", table.render());
    fmt::format_to(
        std::back_inserter(out),
        "GRANULARITY: the smallest common non-zero difference between consecutive reads (<=: the "
        "differences are not whole multiples of it, so reads cost more than a step and the clock "
        "may step finer); NOMINAL: the {}'s frequency, whose tick is not its step\n",
        c.clocks.front().name == "cntvct" ? "generic timer (CNTFRQ_EL0)" : "TSC");
    fmt::format_to(std::back_inserter(out), "counter snapshot, read() of a 3-event group: {}\n",
                   std::isfinite(c.snapshot_read_ns) ? fmt::format("{:.0f} ns", c.snapshot_read_ns)
                                                     : "unavailable");
    // The group timed: without branch-misses (QEMU's PMU) it is two counters, not three.
    fmt::format_to(std::back_inserter(out), "counter snapshot, rdpmc of {}: {}\n",
                   c.snapshot_rdpmc_ns ? c.snapshot_rdpmc_group : "hardware counters",
                   c.snapshot_rdpmc_ns
                       ? fmt::format("{:.0f} ns", *c.snapshot_rdpmc_ns)
                       : std::string("unavailable (no hardware PMU, or user-space reads "
                                     "disabled: the PMU's rdpmc file on x86, "
                                     "/proc/sys/kernel/perf_user_access on arm64)"));
    fmt::format_to(
        std::back_inserter(out),
        "\nSeed experiment (Ou 2020): K dependent atomic adds per iteration, ns per iteration; "
        "REFERENCE never pauses, RAW and CORRECTED pause and resume once per iteration\n");
    for (const auto& check : checks)
        render_check(out, check);
    // Rows without a pair were not checked: that is a busy machine, not a correction off target.
    const char* verdict = counts.passed == counts.rows ? "correction holds"
                          : counts.passed + counts.unchecked == counts.rows
                              ? "correction not fully checked"
                              : "CORRECTION OFF TARGET";
    fmt::format_to(std::back_inserter(out),
                   "\n{}: {} of {} rows within |ERROR| <= max(1 ns, 2% of REFERENCE){}\n", verdict,
                   counts.passed, counts.rows,
                   counts.unchecked == 0
                       ? ""
                       : fmt::format("; {} not checked (no round without a disturbed batch: the "
                                     "machine was busy, run it again)",
                                     counts.unchecked));
    return out;
}

}  // namespace

std::string render_calibration(const Calibration& calibration,
                               const std::vector<CorrectionCheck>& checks, OutputFormat format) {
    const RowCounts counts = count_rows(checks);
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return calibration_table(calibration, checks, counts);
        case OutputFormat::json:
            return calibration_json(calibration, checks, counts);
        case OutputFormat::csv:
        case OutputFormat::markdown:
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer("calibrate's report", format);
}

}  // namespace perfgauge::harness
