// The static report's model (`perfgauge history report`): each series with its runs, change
// points, segment levels and the gate's verdict, and the accepted changes, as plain data; and
// the pure arithmetic that places them on a graph. harness/history's query fills it
// (history_queries.hpp's report_model), history_report_html.hpp renders it: neither reads
// anything itself. (Plain data beside history_records.hpp, whose types it is made of.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfgauge/harness/history_records.hpp"

namespace perfgauge::harness {

/// One run of a series as the report shows it.
struct ReportRun {
    std::int64_t run_id = 0;
    std::string commit;
    RunPoint point;  ///< median and the half-width of its 95% interval
};

/// A stretch of runs between change points, and its level.
struct ReportSegment {
    std::size_t first = 0, last = 0;  ///< run indices, both included
    double level = 0;
};

struct ReportSeries {
    SeriesKey key;
    std::string machine_summary;  ///< the class's CPU, compiler, ...
    std::string unit;
    MetricPolicy policy;
    std::vector<ReportRun> runs;
    std::vector<ChangePoint> changes;
    std::vector<ReportSegment> segments;
    GateVerdict verdict;
    std::string accepted_reason;  ///< the latest applicable acceptance's reason; "" none
};

struct ReportModel {
    std::vector<ReportSeries> series;
    std::vector<Acceptance> acceptances;
    std::size_t runs = 0;  ///< the runs in the store
};

/// The value range a graph shows: every run's interval, with 5% room either side; a range
/// of one value is widened to +-5% of it (+-1 around 0).
struct ValueRange {
    double low = 0, high = 1;
};
ValueRange value_range(std::span<const RunPoint> series);

/// Where a value falls in a graph `height` pixels tall (0 at the top), within `range`.
double y_pixel(double value, const ValueRange& range, double height);

/// Where run `index` of `count` falls across `width` pixels (the first at 0, the last at
/// `width`; a single run in the middle).
double x_pixel(std::size_t index, std::size_t count, double width);

}  // namespace perfgauge::harness
