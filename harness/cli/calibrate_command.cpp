// perfgauge calibrate [--format table|json] [--samples N]
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "perfgauge/harness/calibration.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::cli {

namespace {

nlohmann::json number_or_null(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

}  // namespace

int calibrate_command(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge calibrate [--format table|json] [--samples N]\n\n"
        "Measures what measuring costs here: each clock's overhead (one start/stop pair around\n"
        "nothing, median) and resolution, the cost of one counter snapshot (read() of a 3-event\n"
        "group; rdpmc where the PMU allows), and the residual of an empty region measured afresh\n"
        "and corrected by the calibrated overhead, which should be 0 within +-1 ns.\n\noptions");
    options.add_options()("help,h", "show this help")(
        "format", po::value<std::string>()->default_value("table"), "table or json")(
        "samples", po::value<std::size_t>()->default_value(20000), "samples per quantity (>= 100)");
    const auto vm = parse_options(args, options, {});
    if (vm.count("help")) {
        std::cout << options << '\n';
        return kExitOk;
    }
    const std::string format = vm["format"].as<std::string>();
    if (format != "table" && format != "json")
        throw UsageError("--format must be table or json, not '" + format + "'");
    const std::size_t samples = vm["samples"].as<std::size_t>();
    if (samples < 100 || samples > 100'000'000)
        throw UsageError("--samples must be between 100 and 100000000");

    const auto c = harness::calibrate(samples);
    const auto& region = c.clocks.front();
    if (format == "json") {
        nlohmann::json j;
        j["clock"] = region.name;
        j["clock_overhead_ns"] = region.overhead_ns;
        j["clock_resolution_ns"] = region.resolution_ns;
        j["empty_region_residual_ns"] = c.empty_region_residual_ns;
        j["snapshot_read_ns"] = number_or_null(c.snapshot_read_ns);
        j["snapshot_rdpmc_ns"] =
            c.snapshot_rdpmc_ns ? nlohmann::json(*c.snapshot_rdpmc_ns) : nlohmann::json(nullptr);
        j["samples"] = c.samples;
        for (const auto& clock : c.clocks) {
            j["clocks"].push_back({{"name", clock.name},
                                   {"overhead_ns", clock.overhead_ns},
                                   {"resolution_ns", clock.resolution_ns},
                                   {"ghz", clock.ghz}});
        }
        fmt::print("{}\n", j.dump(2));
        return kExitOk;
    }
    harness::TextTable table({"CLOCK", "OVERHEAD", "RESOLUTION", "FREQUENCY"},
                             {harness::TextTable::Align::left, harness::TextTable::Align::right,
                              harness::TextTable::Align::right, harness::TextTable::Align::right});
    for (const auto& clock : c.clocks) {
        table.add_row({clock.name, fmt::format("{:.2f} ns", clock.overhead_ns),
                       fmt::format("{:.3f} ns", clock.resolution_ns),
                       clock.ghz > 0 ? fmt::format("{:.4f} GHz", clock.ghz) : "-"});
    }
    fmt::print("{}\n", table.render());
    fmt::print("counter snapshot, read() of a 3-event group: {}\n",
               std::isfinite(c.snapshot_read_ns) ? fmt::format("{:.0f} ns", c.snapshot_read_ns)
                                                 : "unavailable");
    fmt::print("counter snapshot, rdpmc of 3 hardware counters: {}\n",
               c.snapshot_rdpmc_ns ? fmt::format("{:.0f} ns", *c.snapshot_rdpmc_ns)
                                   : "unavailable (no hardware PMU, or rdpmc disabled)");
    fmt::print(
        "empty region with {} after overhead correction: {:+.3f} ns (median of {} samples)\n",
        region.name, c.empty_region_residual_ns, c.samples);
    return kExitOk;
}

}  // namespace perfgauge::cli
