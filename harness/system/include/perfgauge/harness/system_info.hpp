// Collecting the facts about the machine that change what a measurement means.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness {

SystemInfo collect_system_info();

/// Now, as ISO 8601 local time to the millisecond with its UTC offset
/// ("2026-11-25T07:08:24.120+0000"): the date a result records, by which compare orders and
/// pairs joined runs (runs of a short command taken in turn start within one second).
std::string local_iso_date();
/// Now, local time, formatted by strftime(3)'s `format` (empty if longer than 127 bytes).
std::string format_local_now(const char* format);
CpuInfo detect_cpu();

/// The data and unified caches glibc reports (sysconf, from CPUID), for machines whose sysfs
/// has no cache directory (some hypervisors); levels it does not know are left out. Less
/// trustworthy than sysfs (a hypervisor may pass the host's CPUID through), so only used to
/// check a selection, never to size one.
std::vector<CacheLevel> cpuid_cache_levels();

/// MemAvailable in /proc/meminfo's text, in bytes: the kernel's estimate of what can be
/// allocated without swapping (free memory alone understates it: caches can be dropped).
/// nullopt when the line is missing or malformed.
std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo);

/// MemAvailable now; sysinfo's free + buffer RAM on kernels before 3.14; nullopt if neither.
std::optional<std::uint64_t> available_memory_bytes();

/// Whether `needed` bytes may be allocated when `available` are: at most 90% of them, leaving
/// room for the samples, the libraries and the rest of the system. A run that swaps measures
/// the disk, so this is checked before the data is allocated.
bool fits_in_memory(std::uint64_t needed, std::uint64_t available);

}  // namespace perfgauge::harness
