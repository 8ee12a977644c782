#include "perfgauge/pmu/raw_event.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::pmu {
namespace {

using Shape = RawEventParse::Shape;

TEST(RawEvent, ValidHexGivesItsConfig) {
    const auto r = parse_raw_event("r00c0");
    EXPECT_EQ(r.shape, Shape::valid);
    EXPECT_EQ(r.config, 0xc0u);
    EXPECT_EQ(parse_raw_event("r1A2b").config, 0x1a2bu);
}

TEST(RawEvent, AFullSixtyFourBitConfigIsValid) {
    const auto r = parse_raw_event("rffffffffffffffff");
    EXPECT_EQ(r.shape, Shape::valid);
    EXPECT_EQ(r.config, 0xffffffffffffffffull);
}

TEST(RawEvent, NonHexDigitsAreNamed) {
    const auto r = parse_raw_event("r00zz");
    EXPECT_EQ(r.shape, Shape::invalid);
    EXPECT_EQ(r.error, "raw event 'r00zz': 'zz' is not hexadecimal");
}

TEST(RawEvent, TooManyDigitsSaySo) {
    const auto r = parse_raw_event("r1ffffffffffffffff");
    EXPECT_EQ(r.shape, Shape::invalid);
    EXPECT_NE(r.error.find("17 hex digits"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("at most 16"), std::string::npos) << r.error;
}

TEST(RawEvent, MissingDigitsSaySo) {
    const auto r = parse_raw_event("r");
    EXPECT_EQ(r.shape, Shape::invalid);
    EXPECT_NE(r.error.find("missing"), std::string::npos) << r.error;
}

TEST(RawEvent, NamesStartingWithRAreNotRaw) {
    EXPECT_EQ(parse_raw_event("ref-cycles").shape, Shape::not_raw);
    EXPECT_EQ(parse_raw_event("rcycles").shape, Shape::not_raw);
    EXPECT_EQ(parse_raw_event("RETIRED_INSTRUCTIONS").shape, Shape::not_raw);
    EXPECT_EQ(parse_raw_event("cycles").shape, Shape::not_raw);
    EXPECT_EQ(parse_raw_event("").shape, Shape::not_raw);
}

const EventResolver& resolver() {
    static const EventResolver r{std::optional<Tracefs>{}};
    return r;
}

// Where no core PMU declares a format (this x86 VM has no `cpu` PMU at all), the kernel
// judges the bits; pmu_format_test.cpp has the refusal where one does.
TEST(RawEvent, ResolverAcceptsTheFullConfigWhereNoPmuDeclaresAFormat) {
    const EventResolver no_pmus(std::nullopt, false, "/nonexistent/event_source/devices");
    const auto groups = no_pmus.resolve("rffffffffffffffff");
    const auto& spec = groups.at(0).events.at(0);
    EXPECT_EQ(spec.attr.type, static_cast<std::uint32_t>(PERF_TYPE_RAW));
    EXPECT_EQ(spec.attr.config, 0xffffffffffffffffull);
    EXPECT_EQ(spec.kind, EventKind::raw);
    EXPECT_EQ(spec.attr.exclude_kernel, 1u);  // user space only, like every PMU event
}

TEST(RawEvent, ResolverReportsWhatIsWrongWithTheHex) {
    try {
        resolver().resolve("r00zz");
        FAIL() << "r00zz resolved";
    } catch (const InvalidEventError& e) {
        EXPECT_STREQ(e.what(), "raw event 'r00zz': 'zz' is not hexadecimal");
    }
    EXPECT_THROW(resolver().resolve("r"), InvalidEventError);
    // A misspelt name that starts with 'r' still gets suggestions, not a hex lecture.
    try {
        resolver().resolve("ref-cyclez");
        FAIL() << "ref-cyclez resolved";
    } catch (const UnknownEventError& e) {
        EXPECT_NE(std::string(e.what()).find("ref-cycles"), std::string::npos) << e.what();
    }
}

struct SoftwareCase {
    const char* name;
    std::uint64_t config;
};

class ExtraSoftwareEvents : public ::testing::TestWithParam<SoftwareCase> {};

// perf stat knows these; libpfm4 4.13's perf PMU does not, so perfgauge encodes them itself.
TEST_P(ExtraSoftwareEvents, ResolveAsPerfSoftwareEvents) {
    const auto spec = resolver().resolve(GetParam().name).at(0).events.at(0);
    EXPECT_EQ(spec.attr.type, static_cast<std::uint32_t>(PERF_TYPE_SOFTWARE));
    EXPECT_EQ(spec.attr.config, GetParam().config);
    EXPECT_EQ(spec.kind, EventKind::software);
    EXPECT_EQ(spec.name, GetParam().name);
    const auto u = resolver().resolve(std::string(GetParam().name) + ":u").at(0).events.at(0);
    EXPECT_EQ(u.attr.exclude_kernel, 1u);
    EXPECT_EQ(u.attr.exclude_user, 0u);
}

TEST_P(ExtraSoftwareEvents, AreSuggestionCandidates) {
    const auto names = EventResolver::known_names();
    EXPECT_NE(std::find(names.begin(), names.end(), GetParam().name), names.end());
}

INSTANTIATE_TEST_SUITE_P(
    Resolver, ExtraSoftwareEvents,
    ::testing::Values(SoftwareCase{"alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS},
                      SoftwareCase{"emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS},
                      SoftwareCase{"bpf-output", PERF_COUNT_SW_BPF_OUTPUT},
                      SoftwareCase{"dummy", PERF_COUNT_SW_DUMMY}));

}  // namespace
}  // namespace perfgauge::pmu
