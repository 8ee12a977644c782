#include "perfgauge/pmu/pmu_format.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "../support/temp_dir.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::pmu {
namespace {

FormatField parsed_field(const std::string& name, const std::string& text) {
    auto parsed = parse_format_field(name, text);
    EXPECT_TRUE(parsed.field.has_value()) << text << ": " << parsed.error;
    return parsed.field.value_or(FormatField{});
}

TEST(PmuFormat, ParsesARangeAsSysfsWritesIt) {
    const auto f = parsed_field("event", "config:0-15\n");
    EXPECT_EQ(f.name, "event");
    EXPECT_EQ(f.word, 0u);
    EXPECT_EQ(f.mask, 0xffffull);
}

TEST(PmuFormat, ParsesSingleBitsAndEveryConfigWord) {
    EXPECT_EQ(parsed_field("rdpmc", "config1:1\n").word, 1u);
    EXPECT_EQ(parsed_field("rdpmc", "config1:1\n").mask, 0x2ull);
    EXPECT_EQ(parsed_field("any", "config:21").mask, 1ull << 21);
    EXPECT_EQ(parsed_field("offcore_rsp", "config1:0-63").mask, ~0ull);
    EXPECT_EQ(parsed_field("last", "config:63").mask, 1ull << 63);
    EXPECT_EQ(parsed_field("ldlat", "config2:0-15").word, 2u);
    // A word perf_event_attr grew later (config3, Linux 6.3) parses; perfgauge never sets it.
    EXPECT_EQ(parsed_field("threshold", "config3:0-7").word, 3u);
}

TEST(PmuFormat, ParsesSeveralRangesInOneField) {
    EXPECT_EQ(parsed_field("event", "config:0-7,32-35\n").mask, 0xf000000ffull);
    EXPECT_EQ(parsed_field("mixed", "config:0,2,4-5").mask, 0x35ull);
}

TEST(PmuFormat, MalformedTextIsRefusedWithWhatIsWrong) {
    for (const char* text :
         {"", "\n", "config", "config:", "cfg:0-7", "config0:1", "configx:1", "config:7-0",
          "config:64", "config:0-64", "config:0-7,", "config:a", "config:1--2", "config:-1",
          " config:1", "config: 1", "config:0-7;8", "config:99999999999999999999"}) {
        const auto parsed = parse_format_field("event", text);
        EXPECT_FALSE(parsed.field.has_value()) << "'" << text << "' parsed";
        EXPECT_NE(parsed.error.find("format 'event'"), std::string::npos) << parsed.error;
    }
    EXPECT_NE(parse_format_field("event", "config:7-0").error.find("ends below its start"),
              std::string::npos);
    EXPECT_NE(parse_format_field("event", "config:64").error.find("not a bit 0-63"),
              std::string::npos);
}

TEST(PmuFormat, BitRangesReadLikeTheFormatFiles) {
    EXPECT_EQ(bit_ranges_text(0), "none");
    EXPECT_EQ(bit_ranges_text(0xffff), "0-15");
    EXPECT_EQ(bit_ranges_text(0xf000000ffull), "0-7,32-35");
    EXPECT_EQ(bit_ranges_text(~0ull), "0-63");
    EXPECT_EQ(bit_ranges_text(1ull << 63), "63");
    EXPECT_EQ(bit_ranges_text(0x35), "0,2,4-5");
    EXPECT_EQ(bit_ranges_text(~0xffffull), "16-63");
}

// QEMU's PMUv3 under Debian 12's kernel (6.1.0-57), as its sysfs format says.
PmuFormat armv8_format() {
    return {"armv8_pmuv3",
            "/sys/bus/event_source/devices/armv8_pmuv3/format",
            {{"event", 0, 0xffff}, {"long", 1, 0x1}, {"rdpmc", 1, 0x2}}};
}

perf_event_attr raw_attr(std::uint64_t config, std::uint64_t config1 = 0) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_RAW;
    attr.config = config;
    attr.config1 = config1;
    return attr;
}

TEST(PmuFormat, UndeclaredBitsAreNamedWithThePmuAndWhatItDeclares) {
    const auto message =
        undeclared_config_bits("raw event 'rffffffffffffffff'", raw_attr(~0ull), {armv8_format()});
    ASSERT_TRUE(message.has_value());
    EXPECT_EQ(*message,
              "raw event 'rffffffffffffffff' sets config bits 16-63, which the PMU "
              "armv8_pmuv3 does not declare: its format "
              "(/sys/bus/event_source/devices/armv8_pmuv3/format) is event = config:0-15, "
              "long = config1:0, rdpmc = config1:1. A kernel may drop undeclared bits without an "
              "error and count what the others encode (config 0xffff), so perfgauge refuses it: "
              "set only the declared bits");
    const auto config1 = undeclared_config_bits("e", raw_attr(0x8, 0x20), {armv8_format()});
    ASSERT_TRUE(config1.has_value());
    EXPECT_NE(config1->find("sets config1 bit 5, which"), std::string::npos) << *config1;
    const auto both = undeclared_config_bits("e", raw_attr(1ull << 40, 0x4), {armv8_format()});
    ASSERT_TRUE(both.has_value());
    EXPECT_NE(both->find("sets config bit 40 and config1 bit 2, which"), std::string::npos)
        << *both;
}

// An Intel `cpu` PMU's format (Cascade Lake, kernel 6.1): no field for the event select's
// USR, OS, INT and EN bits, which encodings from the manuals set (r5300c0).
TEST(PmuFormat, X86ControlBitsAreRefusedWithWhatToWriteInstead) {
    const PmuFormat intel{"cpu",
                          "/sys/bus/event_source/devices/cpu/format",
                          {{"event", 0, 0xff},
                           {"umask", 0, 0xff00},
                           {"edge", 0, 1ull << 18},
                           {"pc", 0, 1ull << 19},
                           {"any", 0, 1ull << 21},
                           {"inv", 0, 1ull << 23},
                           {"cmask", 0, 0xff000000}}};
    const auto message = undeclared_config_bits("raw event 'r5300c0'", raw_attr(0x5300c0), {intel});
    ASSERT_TRUE(message.has_value());
    EXPECT_NE(message->find("sets config bits 16-17,20,22, which the PMU cpu does not declare"),
              std::string::npos)
        << *message;
    EXPECT_NE(message->find("(bits 16, 17, 20 and 22 are the event select's USR, OS, INT and EN, "
                            "which the kernel sets itself from the modifiers: write rc0, and "
                            "rc0:uk to count the kernel too)"),
              std::string::npos)
        << *message;
    EXPECT_EQ(undeclared_config_bits("e", raw_attr(0x00c0), {intel}), std::nullopt);
    // Elsewhere those bits are just undeclared bits: no x86 advice on arm64.
    const auto arm = undeclared_config_bits("e", raw_attr(0x530000), {armv8_format()});
    ASSERT_TRUE(arm.has_value());
    EXPECT_EQ(arm->find("USR"), std::string::npos) << *arm;
}

TEST(PmuFormat, DeclaredBitsAndUnknownFormatsPass) {
    EXPECT_EQ(undeclared_config_bits("e", raw_attr(0x08), {armv8_format()}), std::nullopt);
    EXPECT_EQ(undeclared_config_bits("e", raw_attr(0xffff, 0x3), {armv8_format()}), std::nullopt);
    EXPECT_EQ(undeclared_config_bits("e", raw_attr(~0ull, ~0ull), {}), std::nullopt);
}

TEST(PmuFormat, SeveralCorePmusRefuseOnlyWhatNoneDeclares) {
    // The kernel picks the core PMU of a raw event; a bit one of them declares may be meant.
    PmuFormat narrow{"armv8_cortex_a53", "/a53/format", {{"event", 0, 0x3ff}}};
    PmuFormat wide{"armv8_cortex_a72", "/a72/format", {{"event", 0, 0xffff}}};
    EXPECT_EQ(undeclared_config_bits("e", raw_attr(0x8000), {narrow, wide}), std::nullopt);
    const auto message = undeclared_config_bits("e", raw_attr(0x10000), {narrow, wide});
    ASSERT_TRUE(message.has_value());
    EXPECT_NE(message->find("the PMUs armv8_cortex_a53 and armv8_cortex_a72 do not declare: "
                            "their formats (/a53/format, /a72/format) are event = config:0-9, "
                            "event = config:0-15"),
              std::string::npos)
        << *message;
}

// A PMU directory like sysfs's: `files` maps a path below it to its content.
void make_pmu(const test::TempDir& tree, const std::string& pmu,
              const std::vector<std::pair<std::string, std::string>>& files) {
    std::filesystem::create_directories(tree.path() / pmu);
    for (const auto& [path, content] : files)
        tree.write(pmu + "/" + path, content);
}

TEST(PmuFormat, ReadsAFormatDirectory) {
    test::TempDir tree;
    make_pmu(tree, "armv8_pmuv3",
             {{"format/rdpmc", "config1:1\n"},
              {"format/event", "config:0-15\n"},
              {"format/long", "config1:0\n"}});
    const auto format = read_pmu_format(tree.path() / "armv8_pmuv3");
    ASSERT_TRUE(format.has_value());
    EXPECT_EQ(format->pmu, "armv8_pmuv3");
    EXPECT_EQ(format->directory, tree.path() / "armv8_pmuv3" / "format");
    ASSERT_EQ(format->fields.size(), 3u);
    EXPECT_EQ(format->fields[0].name, "event");  // by word, then by lowest bit
    EXPECT_EQ(format->fields[1].name, "long");
    EXPECT_EQ(format->fields[2].name, "rdpmc");
    EXPECT_EQ(format->allowed(0), 0xffffull);
    EXPECT_EQ(format->allowed(1), 0x3ull);
    EXPECT_EQ(format->allowed(2), 0ull);
}

TEST(PmuFormat, NoDirectoryAnEmptyOneOrAnUnreadableFileMeansUnknown) {
    test::TempDir tree;
    make_pmu(tree, "software", {{"type", "1\n"}});
    EXPECT_EQ(read_pmu_format(tree.path() / "software"), std::nullopt);
    std::filesystem::create_directories(tree.path() / "empty" / "format");
    EXPECT_EQ(read_pmu_format(tree.path() / "empty"), std::nullopt);
    make_pmu(tree, "future", {{"format/event", "config:0-15\n"}, {"format/new", "bits 0..3\n"}});
    EXPECT_EQ(read_pmu_format(tree.path() / "future"), std::nullopt);
    EXPECT_EQ(read_pmu_format(tree.path() / "missing"), std::nullopt);
}

TEST(PmuFormat, RawEventsGoToThePmuOfTypeFourOnX86) {
    test::TempDir tree;
    make_pmu(
        tree, "cpu",
        {{"type", "4\n"}, {"format/event", "config:0-7\n"}, {"format/umask", "config:8-15\n"}});
    make_pmu(tree, "uncore_imc_0",
             {{"type", "14\n"}, {"cpumask", "0\n"}, {"format/event", "config:0-7\n"}});
    make_pmu(tree, "software", {{"type", "1\n"}});
    const auto formats = raw_event_formats(tree.path());
    ASSERT_EQ(formats.size(), 1u);
    EXPECT_EQ(formats[0].pmu, "cpu");
    EXPECT_EQ(formats[0].allowed(0), 0xffffull);
}

TEST(PmuFormat, RawEventsGoToTheCorePmusOnArm64) {
    test::TempDir tree;
    make_pmu(tree, "armv8_pmuv3",
             {{"type", "8\n"}, {"cpus", "0\n"}, {"format/event", "config:0-15\n"}});
    make_pmu(tree, "smmuv3_pmcg_0",
             {{"type", "9\n"}, {"cpumask", "0\n"}, {"format/event", "config:0-15\n"}});
    const auto one = raw_event_formats(tree.path());
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].pmu, "armv8_pmuv3");
    make_pmu(tree, "armv8_cortex_a53",
             {{"type", "10\n"}, {"cpus", "1\n"}, {"format/event", "config:0-9\n"}});
    EXPECT_EQ(raw_event_formats(tree.path()).size(), 2u);
}

TEST(PmuFormat, NoCorePmuOrOneWithoutAFormatLeavesRawEventsToTheKernel) {
    test::TempDir tree;
    make_pmu(tree, "software", {{"type", "1\n"}});
    make_pmu(tree, "tracepoint", {{"type", "2\n"}});
    EXPECT_TRUE(raw_event_formats(tree.path()).empty());  // this x86 VM: no `cpu` at all
    make_pmu(tree, "cpu", {{"type", "4\n"}});
    EXPECT_TRUE(raw_event_formats(tree.path()).empty());
    EXPECT_TRUE(raw_event_formats(tree.path() / "missing").empty());
}

TEST(PmuFormat, TheResolverRefusesRawConfigsOutsideTheFormat) {
    test::TempDir tree;
    make_pmu(tree, "armv8_pmuv3",
             {{"type", "8\n"}, {"cpus", "0\n"}, {"format/event", "config:0-15\n"}});
    const EventResolver with_format(std::nullopt, false, tree.path());
    try {
        with_format.resolve("instructions:u,rffffffffffffffff");
        FAIL() << "rffffffffffffffff resolved";
    } catch (const InvalidEventError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("raw event 'rffffffffffffffff' sets config bits 16-63, which the "
                             "PMU armv8_pmuv3 does not declare",
                             0),
                  0u)
            << what;
        EXPECT_NE(what.find("event = config:0-15"), std::string::npos) << what;
    }
    const auto fits = with_format.resolve("r08:u,rffff").at(1).events.at(0);
    EXPECT_EQ(fits.attr.config, 0xffffull);
    EXPECT_EQ(fits.kind, EventKind::raw);
    // Without a format directory the kernel decides, as before.
    test::TempDir bare;
    make_pmu(bare, "software", {{"type", "1\n"}});
    const EventResolver without_format(std::nullopt, false, bare.path());
    EXPECT_EQ(without_format.resolve("rffffffffffffffff").at(0).events.at(0).attr.config, ~0ull);
}

// The hardware path: where this machine's core PMU has a format (the arm64 guest, any x86 with
// a PMU), a raw config beyond it is refused by name; on a machine without one it is skipped.
TEST(PmuFormat, TheCorePmuHereRefusesUndeclaredRawBits) {
    const auto formats = raw_event_formats(kPmuDevicesDirectory);
    if (formats.empty())
        GTEST_SKIP() << "no core PMU with a sysfs format here";
    const EventResolver system(std::nullopt);
    try {
        system.resolve("rffffffffffffffff");
        FAIL() << "rffffffffffffffff resolved although " << formats[0].pmu << " has a format";
    } catch (const InvalidEventError& e) {
        EXPECT_NE(std::string(e.what()).find(formats[0].pmu), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("sets config bits"), std::string::npos) << e.what();
    }
    // Every bit the format declares is accepted.
    const auto declared = fmt::format("r{:x}", formats[0].allowed(0));
    EXPECT_EQ(system.resolve(declared).at(0).events.at(0).attr.config, formats[0].allowed(0));
}

}  // namespace
}  // namespace perfgauge::pmu
