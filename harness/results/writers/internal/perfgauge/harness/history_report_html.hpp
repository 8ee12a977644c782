// The static report as one self-contained HTML page: the open regressions, the accepted
// changes, a graph per series (inline SVG) and filters by benchmark, metric and machine (a few
// lines of inline script). Pure: text from the model (report_model.hpp, which harness/history's
// query fills), nothing fetched, so the page works from file:// without a network.
#pragma once

#include <string>

#include "perfgauge/harness/report_model.hpp"

namespace perfgauge::harness {

/// `text` safe inside HTML text and double- or single-quoted attributes.
std::string html_escape(const std::string& text);

/// One series' graph: each run's median with its interval as an error bar (run id and commit
/// in its <title>, shown on hover), the segments' levels, the change points as dashed lines.
std::string series_svg(const ReportSeries& series, const std::string& colour);

/// The whole page.
std::string report_html(const ReportModel& model);

}  // namespace perfgauge::harness
