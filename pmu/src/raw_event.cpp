#include "perfgauge/pmu/raw_event.hpp"

#include <cctype>

#include <fmt/format.h>

namespace perfgauge::pmu {

namespace {

constexpr std::size_t kMaxHexDigits = 16;  // perf_event_attr.config is 64 bits

bool is_hex(char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

RawEventParse invalid(std::string error) {
    return {RawEventParse::Shape::invalid, 0, std::move(error)};
}

}  // namespace

RawEventParse parse_raw_event(const std::string& name) {
    if (name.empty() || name[0] != 'r')
        return {};
    const std::string digits = name.substr(1);
    if (digits.empty()) {
        return invalid("raw event 'r': the hexadecimal config is missing after 'r' (e.g. r00c0)");
    }
    std::size_t hex_end = 0;
    while (hex_end < digits.size() && is_hex(digits[hex_end]))
        ++hex_end;
    if (hex_end < digits.size()) {
        // Only a decimal digit right after 'r' makes this unmistakably a raw event; otherwise
        // it is a name ("ref-cycles", or a typo of one) for the resolver to judge.
        if (!std::isdigit(static_cast<unsigned char>(digits[0])))
            return {};
        return invalid(
            fmt::format("raw event '{}': '{}' is not hexadecimal", name, digits.substr(hex_end)));
    }
    if (digits.size() > kMaxHexDigits) {
        return invalid(
            fmt::format("raw event '{}': {} hex digits, but a raw config has at most {} (64 bits)",
                        name, digits.size(), kMaxHexDigits));
    }
    std::uint64_t config = 0;
    for (const char c : digits) {
        const int value = std::isdigit(static_cast<unsigned char>(c))
                              ? c - '0'
                              : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
        config = config << 4 | static_cast<std::uint64_t>(value);
    }
    return {RawEventParse::Shape::valid, config, {}};
}

}  // namespace perfgauge::pmu
