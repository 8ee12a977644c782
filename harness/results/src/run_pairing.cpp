#include "perfgauge/harness/run_pairing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

#include <fmt/format.h>

namespace perfgauge::harness {

std::optional<long long> parse_iso_seconds(const std::string& date) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
    if (std::sscanf(date.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &used) !=
            6 ||
        used != 19)
        return std::nullopt;
    const std::chrono::year_month_day day{std::chrono::year(y),
                                          std::chrono::month(static_cast<unsigned>(mo)),
                                          std::chrono::day(static_cast<unsigned>(d))};
    if (!day.ok() || h > 23 || mi > 59 || s > 59)
        return std::nullopt;
    std::string zone = date.substr(19);
    if (!zone.empty() && zone.front() == '.') {  // fractions of a second: not needed to order
        const auto end = zone.find_first_not_of("0123456789", 1);
        zone = end == std::string::npos ? "" : zone.substr(end);
    }
    long long offset = 0;
    if (!zone.empty() && zone != "Z") {
        int oh = 0, om = 0, n = 0;
        const char sign = zone.front();
        if ((sign != '+' && sign != '-') ||
            (std::sscanf(zone.c_str() + 1, "%2d:%2d%n", &oh, &om, &n) != 2 &&
             std::sscanf(zone.c_str() + 1, "%2d%2d%n", &oh, &om, &n) != 2) ||
            static_cast<std::size_t>(n) + 1 != zone.size())
            return std::nullopt;
        offset = (sign == '+' ? 1 : -1) * (oh * 3600LL + om * 60LL);
    }
    const long long days = std::chrono::sys_days(day).time_since_epoch().count();
    return days * 86400 + h * 3600LL + mi * 60LL + s - offset;
}

std::vector<std::size_t> by_date(const std::vector<std::string>& dates) {
    std::vector<std::size_t> order(dates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto ta = parse_iso_seconds(dates[a]), tb = parse_iso_seconds(dates[b]);
        if (ta && tb)
            return *ta < *tb;
        return ta.has_value() && !tb.has_value();
    });
    return order;
}

RunPairing pair_runs(const std::vector<std::string>& baseline_dates,
                     const std::vector<std::string>& contender_dates) {
    RunPairing p;
    if (baseline_dates.size() != contender_dates.size()) {
        p.why_not = fmt::format("the sides join {} and {} runs", baseline_dates.size(),
                                contender_dates.size());
        return p;
    }
    p.pairs = baseline_dates.size();
    if (p.pairs < 2) {
        p.why_not = "one run a side";
        return p;
    }
    // Each side's times, earliest first; nullopt when a date does not parse (it names it).
    const auto sorted_times = [&p](const std::vector<std::string>& dates) {
        std::vector<long long> times;
        for (const auto& d : dates) {
            const auto t = parse_iso_seconds(d);
            if (!t) {
                p.why_not = fmt::format("a run has no date to order it by ('{}')", d);
                return std::optional<std::vector<long long>>{};
            }
            times.push_back(*t);
        }
        std::sort(times.begin(), times.end());
        return std::optional(times);
    };
    const auto a_times = sorted_times(baseline_dates);
    const auto b_times = a_times ? sorted_times(contender_dates) : std::nullopt;
    if (!b_times)
        return p;
    const auto& a = *a_times;
    const auto& b = *b_times;
    for (std::size_t i = 0; i < p.pairs; ++i) {
        if (a[i] == b[i]) {
            p.why_not = fmt::format("the runs of pair {} have the same date", i + 1);
            return p;
        }
        p.baseline_first += a[i] < b[i] ? 1 : 0;
        if (i + 1 < p.pairs && std::max(a[i], b[i]) >= std::min(a[i + 1], b[i + 1])) {
            p.why_not = fmt::format(
                "not taken in turn: a run of pair {} (by date) came after a run of pair {}", i + 1,
                i + 2);
            return p;
        }
    }
    p.in_turn = true;
    return p;
}

}  // namespace perfgauge::harness
