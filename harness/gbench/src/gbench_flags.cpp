#include "gbench_flags.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace perfgauge::gbench {

namespace {

constexpr std::string_view kEvents = "--perfgauge_events=";
constexpr std::string_view kBackend = "--perfgauge_backend=";
constexpr std::string_view kSimItems = "--perfgauge_sim_items=";
constexpr std::string_view kSimChild = "--internal-sim-child=";

std::uint64_t parse_items(std::string_view text) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > 1000000000) {
        throw std::invalid_argument("--perfgauge_sim_items must be 1 to 1000000000, not '" +
                                    std::string(text) + "'");
    }
    return n;
}

// Google Benchmark flags the child must not inherit: where and how results are reported (the
// parent reports), and everything that decides how often a benchmark runs.
bool child_drops(std::string_view arg) {
    for (const std::string_view flag :
         {"--benchmark_out", "--benchmark_format", "--benchmark_min_time",
          "--benchmark_min_warmup_time", "--benchmark_repetitions",
          "--benchmark_enable_random_interleaving", "--benchmark_report_aggregates_only",
          "--benchmark_display_aggregates_only", "--benchmark_list_tests",
          "--benchmark_counters_tabular", "--benchmark_color"}) {
        if (arg.starts_with(flag))
            return true;
    }
    return false;
}

}  // namespace

GbenchFlags take_perfgauge_flags(std::vector<std::string>& args) {
    GbenchFlags flags;
    std::vector<std::string> kept;
    for (auto& arg : args) {
        const std::string_view a = arg;
        if (a.starts_with(kEvents)) {
            flags.events = std::string(a.substr(kEvents.size()));
        } else if (a.starts_with(kBackend)) {
            try {
                flags.backend = harness::parse_backend(std::string(a.substr(kBackend.size())));
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(std::string("--perfgauge_backend: ") + e.what());
            }
        } else if (a.starts_with(kSimItems)) {
            flags.sim_items = parse_items(a.substr(kSimItems.size()));
        } else if (a.starts_with(kSimChild)) {
            flags.sim_child_manifest = std::string(a.substr(kSimChild.size()));
        } else {
            kept.push_back(std::move(arg));
        }
    }
    args = std::move(kept);
    return flags;
}

std::vector<std::string> simulation_child_arguments(const std::vector<std::string>& user_args) {
    std::vector<std::string> out;
    for (const auto& a : user_args) {
        if (!child_drops(a))
            out.push_back(a);
    }
    // A minimum time no simulated run reaches: Google Benchmark then grows the iterations tenfold
    // from 1 (its rule when a run is too short to predict from), independent of any clock.
    out.push_back("--benchmark_min_time=1000000000");
    out.push_back("--benchmark_repetitions=1");
    return out;
}

bool lists_tests_only(const std::vector<std::string>& args) {
    const auto v = flag_value(args, "benchmark_list_tests");
    const bool bare = std::find(args.begin(), args.end(), "--benchmark_list_tests") != args.end();
    return bare || (v && (*v == "true" || *v == "1" || *v == "yes"));
}

std::optional<std::string> flag_value(const std::vector<std::string>& args, std::string_view name) {
    std::optional<std::string> value;
    const std::string prefix = "--" + std::string(name) + "=";
    for (const auto& a : args) {
        if (a.starts_with(prefix))
            value = a.substr(prefix.size());
    }
    return value;
}

std::string counter_name(std::string_view event, bool simulated) {
    std::string out(event);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return simulated ? out + "[sim]" : out;
}

double per_item_share(double count, double items, int threads) {
    if (items <= 0 || threads < 1)
        return 0;
    return count / (items * threads);
}

}  // namespace perfgauge::gbench
