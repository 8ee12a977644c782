#include "selftest/counters.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "common/cli_common.hpp"
#include "perfgauge/harness/counter_checks.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/output_file.hpp"

namespace perfgauge::cli {

namespace {

nlohmann::json optional_number(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

std::string render_counter_checks(const std::vector<harness::CounterCheck>& checks) {
    std::string out;
    for (const auto& c : checks)
        out += fmt::format("{:<12}{}: {}\n", harness::verdict_name(c.verdict), c.name, c.detail);
    return out;
}

nlohmann::json counter_checks_json(const std::vector<harness::CounterCheck>& checks) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : checks) {
        list.push_back({{"name", c.name},
                        {"verdict", harness::verdict_name(c.verdict)},
                        {"measured", optional_number(c.measured)},
                        {"expected", optional_number(c.expected)},
                        {"unit", c.unit},
                        {"detail", c.detail}});
    }
    return list;
}

int counter_selftest(const std::string& json_path) {
    const auto checks = harness::run_counter_checks();
    std::fputs(fmt::format("perfgauge selftest --counters (loops of known work, counted)\n\n{}",
                           render_counter_checks(checks))
                   .c_str(),
               stdout);
    if (!json_path.empty()) {
        const nlohmann::json doc = {{harness::kSchemaVersionKey, harness::kResultSchemaVersion},
                                    {"checks", counter_checks_json(checks)}};
        harness::write_output_file(json_path, harness::json_text(doc));
    }
    return kExitOk;
}

std::string counter_section(nlohmann::json& report) {
    // Cheap where nothing opens: every check stops at its first refusal.
    const auto checks = harness::run_counter_checks();
    report["counter_checks"] = counter_checks_json(checks);
    if (const auto why = harness::hardware_counting_unavailable()) {
        return fmt::format(
            "counter checks: unavailable, no hardware event opens here: {} "
            "(perfgauge selftest --counters: each check)\n",
            *why);
    }
    return "counter checks (perfgauge selftest --counters: these alone):\n" +
           render_counter_checks(checks);
}

}  // namespace perfgauge::cli
