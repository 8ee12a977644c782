// history compare --by machine's query: the machine classes that measured the matching
// benchmarks, each benchmark's value per class (the median of its runs' medians), the ratios'
// geometric means.
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgauge/harness/history_queries.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

// The value of a benchmark's metric on one machine class: the median of its runs' medians.
using ClassValues = std::map<std::string, double>;  // by machine class

std::map<std::string, ClassValues> values_by_benchmark(HistoryStore& store,
                                                       const NamePattern& pattern,
                                                       const std::string& metric,
                                                       const std::string& commit) {
    std::map<std::string, ClassValues> out;
    for (const auto& key : selected_series(store, pattern, metric)) {
        std::vector<double> medians;
        for (const auto& e : store.series_runs(key))
            if (commit.empty() || e.commit.starts_with(commit))
                medians.push_back(e.point.value);
        if (!medians.empty())
            out[key.benchmark][key.machine_class] = median(medians);
    }
    return out;
}

// The machine class `wanted` names: a prefix of its id, or a piece of its summary or of a
// host name among its runs; exactly one.
std::string class_named(HistoryStore& store, const std::set<std::string>& classes,
                        const std::string& wanted) {
    std::set<std::string> found;
    for (const auto& r : store.runs()) {
        if (classes.count(r.machine_class) &&
            (r.machine_class.starts_with(wanted) ||
             r.machine_summary.find(wanted) != std::string::npos || r.machine_id == wanted))
            found.insert(r.machine_class);
    }
    if (found.size() == 1)
        return *found.begin();
    throw HistoryInputError(fmt::format(
        "--reference {}: {} of the compared machine classes ({}) match; give more of a class id "
        "(history compare lists them)",
        wanted, found.empty() ? "none" : std::to_string(found.size()), fmt::join(classes, ", ")));
}

// The machine classes that measured the matching benchmarks; refused unless two or more.
std::set<std::string> compared_classes(const std::map<std::string, ClassValues>& values,
                                       const std::string& commit) {
    std::set<std::string> classes;
    for (const auto& [benchmark, by_class] : values)
        for (const auto& [machine_class, value] : by_class)
            classes.insert(machine_class);
    if (classes.size() < 2) {
        throw HistoryInputError(fmt::format(
            "{} machine class{} measured the matching benchmarks{}: nothing to compare (compare "
            "--by machine needs runs of two or more; history list shows each run's class)",
            classes.size(), classes.size() == 1 ? "" : "es",
            commit.empty() ? "" : " at commit " + commit));
    }
    return classes;
}

// The classes in the table's order: the reference (M0: the class --reference names, else the
// earliest run's), then the others by id.
std::vector<std::string> class_order(HistoryStore& store, const std::set<std::string>& classes,
                                     const std::optional<std::string>& named) {
    std::string reference;
    if (named) {
        reference = class_named(store, classes, *named);
    } else {
        for (const auto& r : store.runs())  // in the order added
            if (reference.empty() && classes.count(r.machine_class))
                reference = r.machine_class;
    }
    std::vector<std::string> order = {reference};
    for (const auto& c : classes)
        if (c != reference)
            order.push_back(c);
    return order;
}

bool on_every_class(const ClassValues& v, const std::vector<std::string>& order) {
    for (const auto& c : order)
        if (!v.count(c))
            return false;
    return true;
}

// Per instruction: how much of the difference is the machine, not the instruction count (a
// different compiler or ISA path executes a different number of instructions).
std::vector<std::optional<double>> per_instruction(const ClassValues& by_class,
                                                   const ClassValues& counted,
                                                   const std::vector<std::string>& order) {
    std::vector<std::optional<double>> out = {by_class.at(order[0]) / counted.at(order[0])};
    for (std::size_t i = 1; i < order.size(); ++i) {
        const double n = counted.at(order[i]);
        out.push_back(n > 0 ? std::optional(by_class.at(order[i]) / n) : std::nullopt);
    }
    return out;
}

// The benchmarks measured on every class, and the ratios' geometric means over them.
void benchmark_rows(const std::map<std::string, ClassValues>& values,
                    const std::map<std::string, ClassValues>& instructions,
                    MachineComparison& out) {
    const auto& order = out.classes;
    std::vector<double> log_sums(order.size(), 0);  // per class: sum of log(value / reference's)
    for (const auto& [benchmark, by_class] : values) {
        if (!on_every_class(by_class, order)) {
            ++out.left_out;
            continue;
        }
        ComparedBenchmark row{benchmark, {}, {}};
        const double ref = by_class.at(order[0]);
        for (const auto& c : order)
            row.values.push_back(by_class.at(c));
        for (std::size_t i = 1; i < order.size(); ++i)
            if (ref > 0 && by_class.at(order[i]) > 0)
                log_sums[i] += std::log(by_class.at(order[i]) / ref);
        const auto counted = instructions.find(benchmark);
        if (out.metric != "instructions" && counted != instructions.end() &&
            on_every_class(counted->second, order) && counted->second.at(order[0]) > 0)
            row.per_instruction = per_instruction(by_class, counted->second, order);
        out.rows.push_back(std::move(row));
    }
    for (const double sum : log_sums)
        out.geometric_means.push_back(std::exp(sum / static_cast<double>(out.rows.size())));
}

}  // namespace

MachineComparison compare_machines(HistoryStore& store, const NamePattern& pattern,
                                   const CompareQuery& query) {
    require_stored_metric(store, pattern, query.metric);
    const auto values = values_by_benchmark(store, pattern, query.metric, query.commit);
    const auto instructions = values_by_benchmark(store, pattern, "instructions", query.commit);
    MachineComparison out;
    out.metric = query.metric;
    out.classes = class_order(store, compared_classes(values, query.commit), query.reference);
    benchmark_rows(values, instructions, out);
    if (out.rows.empty()) {
        throw HistoryInputError(fmt::format(
            "no matching benchmark was measured on every machine class ({} measured on some "
            "only): narrow the REGEX or --commit",
            out.left_out));
    }
    const auto summaries = class_summaries(store);
    for (const auto& c : out.classes)
        out.summaries.push_back(summaries.at(c));
    return out;
}

}  // namespace perfgauge::harness
