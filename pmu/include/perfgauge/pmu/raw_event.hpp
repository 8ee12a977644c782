// perf's raw event syntax, `rNNNN`: a 64-bit PMU config written in hexadecimal.
#pragma once

#include <cstdint>
#include <string>

namespace perfgauge::pmu {

struct RawEventParse {
    enum class Shape {
        not_raw,  ///< not written as a raw event: resolve it as a name
        valid,    ///< `config` holds the value
        invalid,  ///< meant as raw but malformed: `error` says what is wrong with the hex
    };
    Shape shape = Shape::not_raw;
    std::uint64_t config = 0;
    std::string error;
};

/// Pure. "r00c0" -> valid 0xc0; "rffffffffffffffff" -> valid (any 64-bit value parses; whether
/// the PMU declares its bits is EventResolver's check, pmu_format.hpp). A name counts as an
/// attempted raw event when it is "r" alone, 'r' followed only by hex digits, or 'r' and a
/// decimal digit followed by anything: "r00zz" is a broken raw event, while "ref-cycles" or a
/// misspelt "rcycles" stay names (and get "did you mean" suggestions).
RawEventParse parse_raw_event(const std::string& name);

}  // namespace perfgauge::pmu
