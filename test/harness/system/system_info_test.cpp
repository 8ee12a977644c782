#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/harness/text_table.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace perfgauge::harness {
namespace {

TEST(SystemInfo, FormatsBytesInBinaryUnits) {
    EXPECT_EQ(format_bytes(512), "512 B");
    EXPECT_EQ(format_bytes(32 << 10), "32 KiB");
    EXPECT_EQ(format_bytes(512 << 10), "512 KiB");
    EXPECT_EQ(format_bytes(32ull << 20), "32 MiB");
    EXPECT_EQ(format_bytes(2ull << 30), "2 GiB");
    EXPECT_EQ(format_bytes(1536), "1536 B");  // not a whole KiB: exact bytes
}

TEST(SystemInfo, CollectsThisMachine) {
    const auto info = collect_system_info();
    EXPECT_FALSE(info.cpu.vendor.empty());
    EXPECT_GE(info.cpu.logical_cpus, 1u);
    EXPECT_FALSE(info.kernel.empty());
    EXPECT_FALSE(info.clocksource.empty());
    if (info.caches.empty())
        GTEST_SKIP() << "sysfs reports no caches for cpu0 here";
    for (const auto& c : info.caches) {
        EXPECT_GE(c.level, 1);
        EXPECT_GT(c.size_bytes, 0u);
    }
}

TEST(AvailableMemory, ParsesMemAvailable) {
    const char* meminfo =
        "MemTotal:       65849492 kB\nMemFree:        40000000 kB\n"
        "MemAvailable:   61234567 kB\nBuffers:          123456 kB\n";
    EXPECT_EQ(parse_mem_available(meminfo), std::uint64_t{61234567} * 1024);
    EXPECT_EQ(parse_mem_available("MemTotal: 1 kB\n"), std::nullopt);  // kernels before 3.14
    EXPECT_EQ(parse_mem_available("MemAvailable: lots\n"), std::nullopt);
    EXPECT_EQ(parse_mem_available("MemAvailable: 99999999999999999999 kB\n"), std::nullopt);
    const auto here = available_memory_bytes();
    ASSERT_TRUE(here.has_value());
    EXPECT_GT(*here, 0u);
}

TEST(AvailableMemory, FitsLeavesATenthFree) {
    EXPECT_TRUE(fits_in_memory(0, 0));
    EXPECT_TRUE(fits_in_memory(900, 1000));
    EXPECT_FALSE(fits_in_memory(901, 1000));
    EXPECT_FALSE(fits_in_memory(std::numeric_limits<std::uint64_t>::max(), 64ull << 30));
    EXPECT_TRUE(fits_in_memory(1ull << 30, std::numeric_limits<std::uint64_t>::max()));
}

TEST(TextTable, AlignsColumnsAndTrimsTrailingSpace) {
    TextTable table({"NAME", "VALUE"}, {TextTable::Align::left, TextTable::Align::right});
    table.add_row({"cycles", "12"});
    table.add_row({"ipc", "1234"});
    EXPECT_EQ(table.render(), "NAME    VALUE\ncycles     12\nipc      1234\n");
}

TEST(TextTable, MissingCellsPrintEmpty) {
    TextTable table({"A", "B"});
    table.add_row({"x"});
    EXPECT_EQ(table.render(), "A  B\nx\n");
}

TEST(TextTable, Truncate) {
    EXPECT_EQ(truncate("abcdef", 10), "abcdef");
    EXPECT_EQ(truncate("abcdefghij", 6), "abc...");
}

}  // namespace
}  // namespace perfgauge::harness
