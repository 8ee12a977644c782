#include "perfgauge/harness/run_pairing.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include <fmt/format.h>

namespace perfgauge::harness {

namespace {

// The number in date[at, at + width), all of them digits; nullopt otherwise (no sign, no
// space: sscanf's %d would take both).
std::optional<int> digits(const std::string& date, std::size_t at, std::size_t width) {
    if (at + width > date.size())
        return std::nullopt;
    int value = 0;
    for (std::size_t i = at; i < at + width; ++i) {
        if (date[i] < '0' || date[i] > '9')
            return std::nullopt;
        value = value * 10 + (date[i] - '0');
    }
    return value;
}

// "Z", "+HH", "+HHMM", "+HH:MM" (or '-'), hours to 23 and minutes to 59: the offset east of
// UTC in minutes; "" (no offset) is UTC.
std::optional<int> offset_minutes(const std::string& zone) {
    if (zone.empty() || zone == "Z")
        return 0;
    const char sign = zone.front();
    if (sign != '+' && sign != '-')
        return std::nullopt;
    const auto hours = digits(zone, 1, 2);
    std::optional<int> minutes = 0;
    if (zone.size() == 5)
        minutes = digits(zone, 3, 2);
    else if (zone.size() == 6 && zone[3] == ':')
        minutes = digits(zone, 4, 2);
    else if (zone.size() != 3)
        return std::nullopt;
    if (!hours || !minutes || *hours > 23 || *minutes > 59)
        return std::nullopt;
    return (sign == '+' ? 1 : -1) * (*hours * 60 + *minutes);
}

}  // namespace

std::optional<long long> parse_iso_milliseconds(const std::string& date) {
    const auto y = digits(date, 0, 4), mo = digits(date, 5, 2), d = digits(date, 8, 2),
               h = digits(date, 11, 2), mi = digits(date, 14, 2), s = digits(date, 17, 2);
    if (!y || !mo || !d || !h || !mi || !s || date[4] != '-' || date[7] != '-' || date[10] != 'T' ||
        date[13] != ':' || date[16] != ':')
        return std::nullopt;
    const std::chrono::year_month_day day{std::chrono::year(*y),
                                          std::chrono::month(static_cast<unsigned>(*mo)),
                                          std::chrono::day(static_cast<unsigned>(*d))};
    if (!day.ok() || *h > 23 || *mi > 59 || *s > 59)
        return std::nullopt;
    // Fractions of a second: milliseconds order the runs of a short command taken in turn.
    std::size_t at = 19;
    long long millis = 0;
    if (at < date.size() && date[at] == '.') {
        const std::size_t first = ++at;
        for (; at < date.size() && date[at] >= '0' && date[at] <= '9'; ++at) {
            if (at - first < 3)
                millis = millis * 10 + (date[at] - '0');
        }
        if (at == first)
            return std::nullopt;
        for (std::size_t n = at - first; n < 3; ++n)
            millis *= 10;
    }
    const auto offset = offset_minutes(date.substr(at));
    if (!offset)
        return std::nullopt;
    const long long days = std::chrono::sys_days(day).time_since_epoch().count();
    const long long seconds = days * 86400 + *h * 3600LL + *mi * 60LL + *s - *offset * 60LL;
    return seconds * 1000 + millis;
}

std::vector<std::size_t> by_date(const std::vector<std::string>& dates) {
    std::vector<std::size_t> order(dates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto ta = parse_iso_milliseconds(dates[a]), tb = parse_iso_milliseconds(dates[b]);
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
    const auto sorted_times = [&p](const std::vector<std::string>& dates, const char* side) {
        std::vector<long long> times;
        for (const auto& d : dates) {
            const auto t = parse_iso_milliseconds(d);
            if (!t) {
                p.why_not = fmt::format("a run has no date to order it by ('{}')", d);
                return std::optional<std::vector<long long>>{};
            }
            times.push_back(*t);
        }
        std::sort(times.begin(), times.end());
        if (std::adjacent_find(times.begin(), times.end()) != times.end()) {
            p.why_not = fmt::format("two runs of the {} have the same date", side);
            return std::optional<std::vector<long long>>{};
        }
        return std::optional(times);
    };
    const auto a_times = sorted_times(baseline_dates, "baseline");
    const auto b_times = a_times ? sorted_times(contender_dates, "contender") : std::nullopt;
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
        if (i + 1 < p.pairs && std::max(a[i], b[i]) == std::min(a[i + 1], b[i + 1])) {
            p.why_not = fmt::format("a run of pair {} and a run of pair {} have the same date",
                                    i + 1, i + 2);
            return p;
        }
        if (i + 1 < p.pairs && std::max(a[i], b[i]) > std::min(a[i + 1], b[i + 1])) {
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
