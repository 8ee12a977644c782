// The config bits a kernel PMU declares in sysfs, and the raw configs that set others.
//
// Every PMU lists the fields of its perf_event_attr config words in
// /sys/bus/event_source/devices/<pmu>/format/: one file per field, named after it and holding
// the word and its bits ("event" holds "config:0-15", "rdpmc" "config1:1", AMD's "event"
// "config:0-7,32-35"). What a kernel does with a bit no field declares differs: x86 refuses
// some with EINVAL, arm64's armv8 driver drops them and counts the event the remaining bits
// name. perfgauge refuses them itself, so that a raw event means the same everywhere.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::pmu {

/// One field of a PMU's format: the bits it occupies in one config word.
struct FormatField {
    std::string name;        ///< the file's name: "event", "umask", "rdpmc"
    unsigned word = 0;       ///< 0 for attr.config, N for attr.configN
    std::uint64_t mask = 0;  ///< the bits it declares in that word
};

struct FormatFieldParse {
    std::optional<FormatField> field;  ///< set when the text parsed
    std::string error;                 ///< otherwise, what is wrong with it
};

/// Pure. One format file's contents: "config:0-15", "config1:1", "config:0-7,32-35", with or
/// without the trailing newline sysfs writes. The word is "config" or "config" and a number;
/// the bits are single bits or ranges "LOW-HIGH" in 0..63, separated by commas.
FormatFieldParse parse_format_field(std::string name, std::string_view text);

/// A PMU's format as read from sysfs.
struct PmuFormat {
    std::string pmu;                  ///< "armv8_pmuv3", "cpu"
    std::filesystem::path directory;  ///< its format directory, for messages
    std::vector<FormatField> fields;  ///< sorted by word, then by lowest bit

    /// The bits of `word` some field declares.
    std::uint64_t allowed(unsigned word) const;
};

/// Pure. The set bits of `mask` as ranges: "0-15", "1,5-7,32-35"; "none" for 0.
std::string bit_ranges_text(std::uint64_t mask);

/// Pure. Why `attr` (the event `event_text`, as the user wrote it) sets config, config1 or
/// config2 bits that none of `formats` declares, in one actionable message; nullopt when every
/// set bit is declared by at least one of them (the kernel picks which PMU counts a raw event
/// where there are several core PMUs) or when `formats` is empty (nothing is known).
std::optional<std::string> undeclared_config_bits(const std::string& event_text,
                                                  const perf_event_attr& attr,
                                                  const std::vector<PmuFormat>& formats);

/// Where the kernel lists its PMUs.
inline constexpr const char* kPmuDevicesDirectory = "/sys/bus/event_source/devices";

/// The format of the PMU whose sysfs directory is `pmu_directory`; nullopt when it has no
/// format directory, or when a file in it cannot be read or parsed (the PMU's accepted bits
/// are then unknown, and nothing may be refused for them).
std::optional<PmuFormat> read_pmu_format(const std::filesystem::path& pmu_directory);

/// The formats of the PMUs a PERF_TYPE_RAW event goes to, under `devices` (normally
/// kPmuDevicesDirectory): the PMU registered as type 4 (PERF_TYPE_RAW: x86's `cpu`, hybrid
/// Intel's `cpu_core`), else every PMU that lists its `cpus` (arm64's core PMUs, one per core
/// type). Empty when there is none, or when one of them has no readable format: then raw
/// configs are left to the kernel, as before.
std::vector<PmuFormat> raw_event_formats(const std::filesystem::path& devices);

}  // namespace perfgauge::pmu
