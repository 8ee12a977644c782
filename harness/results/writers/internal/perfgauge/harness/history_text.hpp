// Every text `perfgauge history` prints or writes for a machine, from plain data
// (history_records.hpp): the runs and acceptances (list), series run by run (show), the gate's
// lines (check), machine classes side by side (compare --by machine), the store's measurements
// (export: CSV, JSON), the series the plotting script draws (plot: JSON), and the lines of
// add, accept and forget. Also how a stored metric's value reads in its unit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perfgauge/harness/history_records.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// A value in its unit with an SI prefix: 6.91757e+07 ns/run of task-clock -> "69.18 ms/run",
/// 517860 branch-misses/item -> "517.9k/item".
std::string format_metric_value(double value, const MetricPolicy& policy);

/// How a plot's axis reads a series in plain numbers: values times `scale`, in `label`
/// ("ms per run", "thousands per item", "millions per second").
struct AxisScale {
    double scale = 1;
    std::string label;
};

/// The axis for values of about `typical` (e.g. the largest median's magnitude): the prefix
/// format_metric_value would give `typical`, so the axis's numbers fall in [1, 1000).
AxisScale axis_scale(double typical, const MetricPolicy& policy);

/// A commit's first 10 characters, "-" when unknown.
std::string short_commit(const std::string& commit);

/// `history add`'s line for a stored run (`source` and `commit` as stored: escaped).
std::string history_added_line(std::int64_t run, const std::string& source, std::size_t benchmarks,
                               const std::string& commit);
/// `history add`'s note that a text of run `run` was stored escaped (`what` names it).
std::string history_escaped_note(std::int64_t run, const std::string& what);

/// `history list`: the runs, then the acceptances (when there are any).
std::string history_list_text(const std::vector<StoredRun>& runs,
                              const std::vector<Acceptance>& acceptances);

/// `history show`: each series run by run in its unit, its change points marked.
std::string history_show_text(const std::vector<ShownSeries>& series);

/// `history check`: the series with nothing to judge, a verdict line per judged series, the
/// note on a --min-change below what series resolve, the summary line.
std::string history_check_text(const CheckOutcome& outcome);

/// `history compare --by machine`: the classes, a row per benchmark (and per instruction where
/// counted), the geometric means, how many benchmarks were compared and left out.
std::string history_compare_text(const MachineComparison& comparison);

/// `history export`: one CSV row, or one JSON object, per measurement with its samples.
std::string history_export_csv(const std::vector<StoredMeasurement>& measurements);
std::string history_export_json(const std::vector<StoredMeasurement>& measurements);
/// Export's text in `format`: csv or json (no_writer's error for another format).
std::string history_export_text(const std::vector<StoredMeasurement>& measurements,
                                OutputFormat format);

/// `history plot`: the series as scripts/history_plot.py reads them (raw values, the scale and
/// unit label of the axis, change points, accepted baselines).
std::string history_plot_json(const std::vector<PlottedSeries>& series);

/// `history accept`: a line per acceptance recorded (`pattern` as given, "": every benchmark).
std::string history_accepted_text(const std::vector<Acceptance>& recorded);

/// `history forget`: how many of the runs named existed (and are gone).
std::string history_forgot_text(std::size_t existed);

}  // namespace perfgauge::harness
