#include "perfgauge/pmu/counter_math.hpp"

#include <fmt/format.h>

namespace perfgauge::pmu {

namespace {

unsigned per_value_words(std::uint64_t read_format) {
    return 1 + ((read_format & PERF_FORMAT_ID) ? 1 : 0) +
           ((read_format & PERF_FORMAT_LOST) ? 1 : 0);
}

unsigned header_time_words(std::uint64_t read_format) {
    return ((read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 1 : 0) +
           ((read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 1 : 0);
}

}  // namespace

std::size_t read_buffer_words(std::uint64_t read_format, std::size_t events) {
    if (read_format & PERF_FORMAT_GROUP) {
        return 1 + header_time_words(read_format) + events * per_value_words(read_format);
    }
    return header_time_words(read_format) + per_value_words(read_format);
}

void parse_read_buffer(std::span<const std::uint64_t> words, std::uint64_t read_format,
                       std::size_t expected_events, GroupReading& out) {
    const bool group = read_format & PERF_FORMAT_GROUP;
    if (!group && expected_events != 1) {
        throw ReadFormatError("a read() without PERF_FORMAT_GROUP holds exactly one counter");
    }
    const std::size_t needed = read_buffer_words(read_format, expected_events);
    if (words.size() < needed) {
        throw ReadFormatError(
            fmt::format("read() returned {} words, the layout needs {}", words.size(), needed));
    }
    std::size_t at = 0;
    if (group) {
        if (words[0] != expected_events) {
            throw ReadFormatError(fmt::format("the group reports {} counters, {} were opened",
                                              words[0], expected_events));
        }
        ++at;
    }
    // Without GROUP the value comes first, then the times; with GROUP the times come first.
    const std::size_t value_at = group ? 0 : at++;
    out.time_enabled = (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) ? words[at++] : 0;
    out.time_running = (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) ? words[at++] : 0;
    out.values.resize(expected_events);
    out.ids.resize((read_format & PERF_FORMAT_ID) ? expected_events : 0);
    for (std::size_t i = 0; i < expected_events; ++i) {
        out.values[i] = group ? words[at++] : words[value_at];
        if (read_format & PERF_FORMAT_ID)
            out.ids[i] = words[at++];
        if (read_format & PERF_FORMAT_LOST)
            ++at;
    }
}

ScaledCount scale_count(std::uint64_t raw_delta, std::uint64_t enabled_delta,
                        std::uint64_t running_delta) {
    ScaledCount s;
    s.raw = raw_delta;
    if (running_delta == 0)
        return s;  // never enabled, or enabled but never scheduled
    s.counted = true;
    if (running_delta >= enabled_delta) {
        s.value = static_cast<double>(raw_delta);
        s.running_fraction = 1.0;
        return s;
    }
    s.running_fraction = static_cast<double>(running_delta) / static_cast<double>(enabled_delta);
    s.value =
        static_cast<double>(static_cast<long double>(raw_delta) * enabled_delta / running_delta);
    return s;
}

}  // namespace perfgauge::pmu
