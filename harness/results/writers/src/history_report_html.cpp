#include "perfgauge/harness/history_report_html.hpp"

#include <map>

#include <fmt/format.h>

#include "perfgauge/harness/history_text.hpp"  // format_metric_value, short_commit

namespace perfgauge::harness {
namespace {

using Kind = GateVerdict::Kind;

constexpr double kWidth = 680, kHeight = 160, kLeft = 120, kTop = 10, kBottom = 24;

// One colour per machine class, in the order the classes first appear: a reader tells the
// machines apart at a glance.
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                    "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

std::string signed_percent(double share) {
    return fmt::format("{:+.1f}%", 100 * share);
}

std::string value(const ReportSeries& s, double v) {
    return format_metric_value(v, s.policy);
}

std::string series_title(const ReportSeries& s) {
    return fmt::format("{} [{}] on {} ({})", s.key.benchmark, s.key.metric,
                       s.key.machine_class.substr(0, 8), s.machine_summary);
}

// The gate's verdict in a line, as `history check` words its kinds.
std::string verdict_line(const ReportSeries& s) {
    const auto& v = s.verdict;
    switch (v.kind) {
        case Kind::too_short:
            return fmt::format("too few runs to judge ({} since the baseline)", v.baseline_runs);
        case Kind::regression:
        case Kind::improvement:
            return fmt::format("{} {} [{}, {}] since run {} ({}): {} -> {}",
                               v.kind == Kind::regression ? "REGRESSION" : "improvement",
                               signed_percent(v.size), signed_percent(v.size_low),
                               signed_percent(v.size_high), s.runs[v.current_first].run_id,
                               short_commit(s.runs[v.current_first].commit), value(s, v.baseline),
                               value(s, v.current));
        case Kind::pending:
            return fmt::format("pending {}: the newest run is beyond the band of +-{:.1f}%",
                               signed_percent(v.newest_size), 100 * v.band);
        case Kind::inconclusive:
            return fmt::format("inconclusive {}: the newest run's interval is wider than the band",
                               signed_percent(v.newest_size));
        case Kind::unchanged:
            break;
    }
    return fmt::format("unchanged: the newest run {} within +-{:.1f}% of the baseline",
                       signed_percent(v.newest_size), 100 * v.band);
}

std::string kind_class(Kind kind) {
    switch (kind) {
        case Kind::regression:
            return "regression";
        case Kind::improvement:
            return "improvement";
        case Kind::pending:
            return "pending";
        case Kind::inconclusive:
            return "inconclusive";
        case Kind::too_short:
            return "too-short";
        case Kind::unchanged:
            break;
    }
    return "unchanged";
}

std::string svg_runs(const ReportSeries& s, const ValueRange& r, const std::string& colour) {
    std::string out;
    const std::size_t n = s.runs.size();
    for (std::size_t i = 0; i < n; ++i) {
        const auto& run = s.runs[i];
        const double x = kLeft + x_pixel(i, n, kWidth);
        const double y = kTop + y_pixel(run.point.value, r, kHeight);
        out += fmt::format(
            "<g class=\"run\"><title>run {} ({}): {} +- {}</title>"
            "<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>"
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/></g>\n",
            run.run_id, html_escape(short_commit(run.commit)), value(s, run.point.value),
            value(s, run.point.spread), x, x,
            kTop + y_pixel(run.point.value - run.point.spread, r, kHeight),
            kTop + y_pixel(run.point.value + run.point.spread, r, kHeight), colour, x, y, colour);
    }
    return out;
}

std::string svg_changes(const ReportSeries& s, const ValueRange& r) {
    std::string out;
    const std::size_t n = s.runs.size();
    for (const auto& seg : s.segments) {
        const double y = kTop + y_pixel(seg.level, r, kHeight);
        out += fmt::format(
            "<line class=\"level\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" "
            "stroke=\"#555\" stroke-width=\"2\" opacity=\"0.6\"><title>level {}</title></line>\n",
            kLeft + x_pixel(seg.first, n, kWidth), kLeft + x_pixel(seg.last, n, kWidth), y, y,
            value(s, seg.level));
    }
    for (const auto& c : s.changes) {
        if (c.index >= n)
            continue;
        // Between the last run before the change and the first after it.
        const double x =
            kLeft + (x_pixel(c.index - (c.index > 0), n, kWidth) + x_pixel(c.index, n, kWidth)) / 2;
        out += fmt::format(
            "<line class=\"change {}\" data-run=\"{}\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{}\" "
            "y2=\"{}\" stroke=\"{}\" stroke-dasharray=\"5 4\"><title>change {} [{}, {}] at run "
            "{} ({})</title></line>\n",
            c.regression ? "regression" : "improvement", s.runs[c.index].run_id, x, x, kTop,
            kTop + kHeight, c.regression ? "#c00" : "#080", signed_percent(c.size),
            signed_percent(c.size_low), signed_percent(c.size_high), s.runs[c.index].run_id,
            html_escape(short_commit(s.runs[c.index].commit)));
    }
    return out;
}

std::string svg_axes(const ReportSeries& s, const ValueRange& r) {
    const double bottom = kTop + kHeight;
    std::string out = fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#999\"/>"
        "<line x1=\"{0}\" x2=\"{3}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#999\"/>\n",
        kLeft, kTop, bottom, kLeft + kWidth);
    out += fmt::format(
        "<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2}</text>"
        "<text x=\"{0}\" y=\"{3}\" text-anchor=\"end\">{4}</text>\n",
        kLeft - 4, kTop + 10, html_escape(value(s, r.high)), bottom, html_escape(value(s, r.low)));
    if (!s.runs.empty())
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\">run {}</text>"
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">run {}</text>\n",
            kLeft, bottom + 16, s.runs.front().run_id, kLeft + kWidth, bottom + 16,
            s.runs.back().run_id);
    return out;
}

}  // namespace

std::string html_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string series_svg(const ReportSeries& series, const std::string& colour) {
    std::vector<RunPoint> points;
    for (const auto& r : series.runs)
        points.push_back(r.point);
    const ValueRange range = value_range(points);
    return fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
        "font-size=\"11\" font-family=\"sans-serif\">\n{}{}{}</svg>\n",
        kLeft + kWidth + 10, kTop + kHeight + kBottom, svg_axes(series, range),
        svg_changes(series, range), svg_runs(series, range, colour));
}

namespace {

constexpr const char* kStyle = R"(<style>
body { font-family: sans-serif; margin: 1em 2em; color: #222; }
table { border-collapse: collapse; margin-bottom: 1em; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; font-size: 13px; }
tr.regression td { background: #fde8e8; }
fieldset { display: inline-block; vertical-align: top; margin-right: 1em; max-height: 12em;
           overflow: auto; font-size: 13px; }
.series { margin: 1em 0; }
.series h3 { font-size: 14px; margin: 0; }
.verdict { font-size: 13px; margin: 2px 0; }
.verdict.regression { color: #c00; font-weight: bold; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
</style>
)";

// The filters: a series shows when its benchmark, metric and machine are all ticked. A URL
// hash (#metric=time&machine=ID, a key repeated for several values) ticks only the values it
// names for its keys when the page loads: a link to a view, and the test hook the browser
// test uses.
constexpr const char* kScript = R"(<script>
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[data-filter]'));
  var wanted = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
    var kv = pair.split('=');
    if (kv.length !== 2) return;
    var key = decodeURIComponent(kv[0]);
    (wanted[key] = wanted[key] || []).push(decodeURIComponent(kv[1]));
  });
  boxes.forEach(function (b) {
    if (wanted[b.dataset.filter]) b.checked = wanted[b.dataset.filter].indexOf(b.value) >= 0;
  });
  function apply() {
    var on = {benchmark: {}, metric: {}, machine: {}};
    boxes.forEach(function (b) { if (b.checked) on[b.dataset.filter][b.value] = true; });
    var shown = 0;
    document.querySelectorAll('div.series').forEach(function (s) {
      var show = on.benchmark[s.dataset.benchmark] && on.metric[s.dataset.metric] &&
                 on.machine[s.dataset.machine];
      s.style.display = show ? '' : 'none';
      s.setAttribute('data-shown', show ? '1' : '0');
      if (show) shown++;
    });
    document.getElementById('shown').textContent = shown;
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  apply();
})();
</script>
)";

std::string series_id(std::size_t i) {
    return fmt::format("series-{}", i);
}

std::string regressions_section(const ReportModel& m) {
    std::string rows;
    for (std::size_t i = 0; i < m.series.size(); ++i) {
        const auto& s = m.series[i];
        if (s.verdict.kind != Kind::regression)
            continue;
        rows += fmt::format(
            "<tr class=\"regression\"><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>\n",
            series_id(i), html_escape(s.key.benchmark), html_escape(s.key.metric),
            html_escape(s.key.machine_class.substr(0, 8) + " (" + s.machine_summary + ")"),
            html_escape(verdict_line(s)));
    }
    if (rows.empty())
        return "<section id=\"regressions\"><h2>Open regressions</h2>\n<p>None: no series "
               "stands worse than its baseline.</p></section>\n";
    return "<section id=\"regressions\"><h2>Open regressions</h2>\n<table><tr><th>benchmark"
           "</th><th>metric</th><th>machine</th><th>verdict</th></tr>\n" +
           rows + "</table></section>\n";
}

std::string accepted_section(const ReportModel& m) {
    std::string out = "<section id=\"accepted\"><h2>Accepted changes</h2>\n";
    if (m.acceptances.empty())
        return out + "<p>None.</p></section>\n";
    out +=
        "<table><tr><th>from run</th><th>commit</th><th>benchmarks (REGEX)</th><th>metric</th>"
        "<th>reason</th><th>added (UTC)</th></tr>\n";
    for (const auto& a : m.acceptances)
        out += fmt::format(
            "<tr class=\"acceptance\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>\n",
            a.run_id, html_escape(short_commit(a.commit)),
            a.pattern.empty() ? "(every)" : html_escape(a.pattern),
            a.metric.empty() ? "(every)" : html_escape(a.metric), html_escape(a.reason),
            html_escape(a.added_at));
    return out + "</table></section>\n";
}

// A fieldset of checkboxes, one per value (label: the value's text), all ticked.
std::string filter_set(const char* key, const char* legend,
                       const std::map<std::string, std::string>& values) {
    std::string out = fmt::format("<fieldset><legend>{}</legend>\n", legend);
    for (const auto& [v, label] : values)
        out += fmt::format(
            "<label><input type=\"checkbox\" data-filter=\"{}\" value=\"{}\" checked> {}</label>"
            "<br>\n",
            key, html_escape(v), label);
    return out + "</fieldset>\n";
}

std::string filters_section(const ReportModel& m,
                            const std::map<std::string, std::string>& colours) {
    std::map<std::string, std::string> benchmarks, metrics, machines;
    for (const auto& s : m.series) {
        benchmarks[s.key.benchmark] = html_escape(s.key.benchmark);
        metrics[s.key.metric] = html_escape(s.key.metric);
        machines[s.key.machine_class] = fmt::format(
            "<span class=\"swatch\" style=\"background:{}\"></span>{}",
            colours.at(s.key.machine_class),
            html_escape(s.key.machine_class.substr(0, 8) + " (" + s.machine_summary + ")"));
    }
    return "<section id=\"filters\"><h2>Filters</h2>\n" +
           filter_set("benchmark", "benchmark", benchmarks) +
           filter_set("metric", "metric", metrics) + filter_set("machine", "machine", machines) +
           "</section>\n";
}

std::string graphs_section(const ReportModel& m,
                           const std::map<std::string, std::string>& colours) {
    std::string out = fmt::format(
        "<section id=\"graphs\"><h2>Series (<span id=\"shown\">{}</span> of {} shown)</h2>\n",
        m.series.size(), m.series.size());
    for (std::size_t i = 0; i < m.series.size(); ++i) {
        const auto& s = m.series[i];
        out += fmt::format(
            "<div class=\"series\" id=\"{}\" data-benchmark=\"{}\" data-metric=\"{}\" "
            "data-machine=\"{}\" data-shown=\"1\">\n<h3>{}</h3>\n"
            "<p class=\"verdict {}\">{}{}</p>\n{}</div>\n",
            series_id(i), html_escape(s.key.benchmark), html_escape(s.key.metric),
            html_escape(s.key.machine_class), html_escape(series_title(s)),
            kind_class(s.verdict.kind), html_escape(verdict_line(s)),
            s.accepted_reason.empty()
                ? ""
                : " [baseline accepted: " + html_escape(s.accepted_reason) + "]",
            series_svg(s, colours.at(s.key.machine_class)));
    }
    return out + "</section>\n";
}

}  // namespace

std::string report_html(const ReportModel& model) {
    std::map<std::string, std::string> colours;
    for (const auto& s : model.series)
        if (!colours.count(s.key.machine_class))
            colours[s.key.machine_class] =
                kPalette[colours.size() % (sizeof kPalette / sizeof kPalette[0])];
    std::size_t regressions = 0;
    for (const auto& s : model.series)
        regressions += s.verdict.kind == Kind::regression;
    return fmt::format(
               "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<title>perfgauge history report</title>\n{}</head>\n<body>\n"
               "<h1>perfgauge history</h1>\n<p id=\"summary\">{} runs, {} series on {} machine "
               "class{}, {} open regression{}</p>\n",
               kStyle, model.runs, model.series.size(), colours.size(),
               colours.size() == 1 ? "" : "es", regressions, regressions == 1 ? "" : "s") +
           regressions_section(model) + accepted_section(model) + filters_section(model, colours) +
           graphs_section(model, colours) + kScript + "</body>\n</html>\n";
}

}  // namespace perfgauge::harness
