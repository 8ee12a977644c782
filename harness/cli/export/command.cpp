// perfgauge export: re-renders a stored result, optionally only some benchmarks.
#include <algorithm>
#include <iostream>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common/cli_common.hpp"
#include "common/result_input.hpp"
#include "common/user_pattern.hpp"
#include "export/options.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

namespace {

// An entry's run_name, "" when it has none (or not as a string: an entry the reader skipped,
// run_type "other", may hold anything; nlohmann's value() would throw its own message).
std::string run_name(const nlohmann::json& entry) {
    if (!entry.is_object())
        return "";
    const auto it = entry.find("run_name");
    return it != entry.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

int export_command(const std::vector<std::string>& args) {
    const auto parsed = parse_export_request(args);
    if (!parsed)
        return kExitOk;
    const ExportRequest& request = *parsed;
    const std::string& path = request.path;
    const std::string& output = request.output;
    const auto& filter = request.filter;
    const harness::OutputFormat format = request.format;
    const auto keep = [&](const std::string& name) { return !filter || filter->found_in(name); };
    auto result = read_any_result_file(path);  // validates the file in every format
    // An empty table would look like a result without entries: say the pattern is the cause.
    if (filter && !result.benchmarks.empty() &&
        std::none_of(result.benchmarks.begin(), result.benchmarks.end(),
                     [&](const harness::BenchmarkResult& b) { return keep(b.name); })) {
        // A few names, to see what the pattern missed; each cut short (a Google Benchmark name
        // can be 50k characters long).
        constexpr std::size_t kShown = 3, kWidth = 60;
        std::vector<std::string> some;
        for (std::size_t b = 0; b < result.benchmarks.size() && b < kShown; ++b)
            some.push_back(harness::truncate(result.benchmarks[b].name, kWidth));
        throw UsageError(fmt::format("--filter '{}' matches none of the {} benchmarks in {} ({}{})",
                                     filter->pattern(), result.benchmarks.size(), path,
                                     fmt::join(some, ", "),
                                     result.benchmarks.size() > some.size() ? ", ..." : ""));
    }
    // bmf is an export of its own, from a result of any kind.
    if (format == harness::OutputFormat::bmf) {
        std::erase_if(result.benchmarks,
                      [&](const harness::BenchmarkResult& b) { return !keep(b.name); });
        const auto bmf_text = harness::render_run(result, format);
        const harness::InterruptHandling interrupts;  // as below
        write_output(bmf_text, output);
        return kExitOk;
    }
    if (result.kind != harness::ResultKind::run) {
        throw UsageError(fmt::format(
            "{} is {}: --format {} re-renders perfgauge run results; --format bmf takes this one",
            path, harness::kind_description(result.kind), request.format_name));
    }
    std::string rendered;
    if (format == harness::OutputFormat::json) {
        // The stored JSON minus the filtered-out entries: nothing is recomputed or lost.
        // Parsed by the bounded reader as read_any_result_file did (a pipe's text comes from its
        // one reading): nothing deeper than it accepts reaches the recursive dump below.
        auto j = harness::parse_json_bounded(read_input_file(path), path);
        j.emplace(harness::kSchemaVersionKey, harness::kUnversionedSchemaVersion);  // as read
        auto& entries = j["benchmarks"];
        entries.erase(std::remove_if(entries.begin(), entries.end(),
                                     [&](const nlohmann::json& e) { return !keep(run_name(e)); }),
                      entries.end());
        rendered = harness::json_text(j);
    } else {
        std::erase_if(result.benchmarks,
                      [&](const harness::BenchmarkResult& b) { return !keep(b.name); });
        rendered = harness::render_run(result, format);
    }
    // A FIFO nobody reads blocks the write: an interrupt ends the wait and says so.
    const harness::InterruptHandling interrupts;
    write_output(rendered, output);
    return kExitOk;
}

}  // namespace perfgauge::cli
