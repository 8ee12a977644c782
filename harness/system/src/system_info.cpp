#include "perfgauge/harness/system_info.hpp"

#include "perfgauge/pmu/arm_cpu.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace perfgauge::harness {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_line(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    return line;
}

std::optional<int> read_int(const fs::path& path) {
    const auto line = read_line(path);
    if (!line)
        return std::nullopt;
    try {
        return std::stoi(*line);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// sysfs writes cache sizes as "32K", "512K", "32768K".
std::uint64_t parse_cache_size(const std::string& text) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    switch (end ? *end : '\0') {
        case 'K':
            return value << 10;
        case 'M':
            return value << 20;
        case 'G':
            return value << 30;
        default:
            return value;
    }
}

unsigned count_cpus_in_list(const std::string& list) {
    // "0-1,4" -> 3
    unsigned count = 0;
    std::size_t pos = 0;
    while (pos < list.size()) {
        const std::size_t comma = list.find(',', pos);
        const std::string part =
            list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const std::size_t dash = part.find('-');
        if (dash == std::string::npos) {
            ++count;
        } else {
            count += static_cast<unsigned>(std::stoul(part.substr(dash + 1)) -
                                           std::stoul(part.substr(0, dash)) + 1);
        }
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return count;
}

// Online physical cores: the distinct sets of hardware threads sharing a core (offline CPUs
// have no topology directory). 0 when sysfs shows none.
unsigned count_cores() {
    std::set<std::string> cores;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 3 && name.starts_with("cpu") &&
            std::isdigit(static_cast<unsigned char>(name[3]))) {
            if (const auto siblings = read_line(entry.path() / "topology/thread_siblings_list"))
                cores.insert(*siblings);
        }
    }
    return static_cast<unsigned>(cores.size());
}

// What CPUID's hypervisor leaf names (x86: "KVMKVMKVM", "Microsoft Hv", "VMwareVMware"),
// "none" when the hypervisor bit is clear; elsewhere /sys/hypervisor/type (Xen), else unknown.
std::string detect_hypervisor() {
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid(1, eax, ebx, ecx, edx);
    if (((ecx >> 31) & 1) == 0)
        return "none";
    __cpuid(0x40000000, eax, ebx, ecx, edx);
    char name[13] = {};
    std::memcpy(name + 0, &ebx, 4);
    std::memcpy(name + 4, &ecx, 4);
    std::memcpy(name + 8, &edx, 4);
    std::string text(name);
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    return text.empty() ? "unnamed" : text;
#else
    return read_line("/sys/hypervisor/type").value_or("");
#endif
}

// The kernel's status per CPU vulnerability, sorted by name, without the "Not affected" ones
// (a newer kernel lists more of those, which changes nothing about the machine).
std::vector<std::pair<std::string, std::string>> read_mitigations() {
    std::vector<std::pair<std::string, std::string>> out;
    std::error_code ec;
    for (const auto& entry :
         fs::directory_iterator("/sys/devices/system/cpu/vulnerabilities", ec)) {
        const auto status = read_line(entry.path());
        if (status && *status != "Not affected")
            out.emplace_back(entry.path().filename().string(), *status);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

CpuInfo detect_cpu() {
    CpuInfo cpu;
#if defined(__aarch64__)
    // No CPUID: the Main ID Register names the core (its fields are "family" and "model"
    // here: implementer and part). The generic timer runs at a constant rate by definition.
    if (const auto midr = pmu::read_midr()) {
        const auto f = pmu::decode_midr(*midr);
        cpu.vendor = pmu::arm_implementer_name(f.implementer);
        cpu.model_name = pmu::describe_midr(*midr);
        cpu.family = f.implementer;
        cpu.model = f.part;
    }
    cpu.invariant_tsc = true;
    std::uint64_t hz = 0;
    asm volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    cpu.generic_timer_hz = hz;
#else
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid(0, eax, ebx, ecx, edx);
    const unsigned max_leaf = eax;
    char vendor[13] = {};
    std::memcpy(vendor + 0, &ebx, 4);
    std::memcpy(vendor + 4, &edx, 4);
    std::memcpy(vendor + 8, &ecx, 4);
    cpu.vendor = vendor;

    __cpuid(1, eax, ebx, ecx, edx);
    cpu.stepping = eax & 0xf;
    const unsigned base_family = (eax >> 8) & 0xf;
    const unsigned base_model = (eax >> 4) & 0xf;
    cpu.family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
    cpu.model = (base_family == 0x6 || base_family == 0xf) ? base_model + (((eax >> 16) & 0xf) << 4)
                                                           : base_model;
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        cpu.bmi2 = (ebx >> 8) & 1;
    }
    // Unlike the CPUID bits alone, these also check (XGETBV) that the OS saves the registers.
    cpu.avx2 = __builtin_cpu_supports("avx2");
    cpu.avx512_vbmi2 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512vbmi") &&
                       __builtin_cpu_supports("avx512vbmi2");
    __cpuid(0x80000000, eax, ebx, ecx, edx);
    const unsigned max_ext = eax;
    if (max_ext >= 0x80000001) {
        __cpuid(0x80000001, eax, ebx, ecx, edx);
        cpu.rdtscp = (edx >> 27) & 1;
    }
    if (max_ext >= 0x80000007) {
        __cpuid(0x80000007, eax, ebx, ecx, edx);
        cpu.invariant_tsc = (edx >> 8) & 1;
    }
#endif
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.empty())
            break;  // the end of CPU 0's block: enough
        const auto colon = line.find(": ");
        if (colon == std::string::npos)
            continue;
        if (cpu.model_name.empty() && line.rfind("model name", 0) == 0)
            cpu.model_name = line.substr(colon + 2);
        else if (cpu.microcode.empty() && line.rfind("microcode", 0) == 0)
            cpu.microcode = line.substr(colon + 2);
    }
    cpu.logical_cpus = static_cast<unsigned>(::sysconf(_SC_NPROCESSORS_ONLN));
    cpu.cores = count_cores();
    return cpu;
}

namespace {

std::string format_local(std::time_t when, const char* format) {
    std::tm local{};
    ::localtime_r(&when, &local);
    char text[128];
    return std::strftime(text, sizeof text, format, &local) > 0 ? text : "";
}

}  // namespace

std::string format_local_now(const char* format) {
    return format_local(std::time(nullptr), format);
}

std::string local_iso_date() {
    // One reading of the clock for the seconds and their fraction.
    const auto now = std::chrono::system_clock::now();
    const auto since_epoch =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch());
    const std::time_t seconds =
        std::chrono::system_clock::to_time_t(std::chrono::system_clock::time_point(
            std::chrono::duration_cast<std::chrono::seconds>(since_epoch)));
    const long long millis = since_epoch.count() % 1000;
    return format_local(seconds, "%Y-%m-%dT%H:%M:%S") + fmt::format(".{:03}", millis) +
           format_local(seconds, "%z");
}

SystemInfo collect_system_info() {
    SystemInfo info;
    info.cpu = detect_cpu();
    const fs::path cpu0 = "/sys/devices/system/cpu/cpu0";
    for (int index = 0;; ++index) {
        const fs::path dir = cpu0 / "cache" / fmt::format("index{}", index);
        const auto level = read_int(dir / "level");
        if (!level)
            break;
        CacheLevel cache;
        cache.level = *level;
        cache.type = read_line(dir / "type").value_or("");
        cache.size_bytes = parse_cache_size(read_line(dir / "size").value_or("0"));
        cache.line_size = static_cast<unsigned>(read_int(dir / "coherency_line_size").value_or(0));
        cache.ways = static_cast<unsigned>(read_int(dir / "ways_of_associativity").value_or(0));
        cache.shared_by = count_cpus_in_list(read_line(dir / "shared_cpu_list").value_or(""));
        info.caches.push_back(cache);
    }
    utsname uts{};
    if (::uname(&uts) == 0) {
        info.kernel = uts.release;
        info.host_name = uts.nodename;
    }
    info.governor = read_line(cpu0 / "cpufreq/scaling_governor");
    if (const auto boost = read_int("/sys/devices/system/cpu/cpufreq/boost")) {
        info.boost = *boost != 0;
    } else if (const auto no_turbo = read_int("/sys/devices/system/cpu/intel_pstate/no_turbo")) {
        info.boost = *no_turbo == 0;
    }
    if (const auto smt = read_int("/sys/devices/system/cpu/smt/active"))
        info.smt_active = *smt != 0;
    info.hypervisor = detect_hypervisor();
    info.mitigations = read_mitigations();
    const auto pmu_env = pmu::detect_pmu_environment();
    info.perf_event_paranoid = pmu_env.paranoid;
    info.hardware_pmu = pmu_env.has_hardware_pmu();
    info.clocksource = read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource")
                           .value_or("unknown");
    info.aslr = read_int("/proc/sys/kernel/randomize_va_space");
    std::ifstream load("/proc/loadavg");
    load >> info.load_average[0] >> info.load_average[1] >> info.load_average[2];
    return info;
}

std::vector<CacheLevel> cpuid_cache_levels() {
    std::vector<CacheLevel> levels;
    const std::pair<int, int> names[] = {
        {1, _SC_LEVEL1_DCACHE_SIZE}, {2, _SC_LEVEL2_CACHE_SIZE}, {3, _SC_LEVEL3_CACHE_SIZE}};
    for (const auto& [level, name] : names) {
        const long size = ::sysconf(name);
        if (size > 0)
            levels.push_back({level, level == 1 ? "Data" : "Unified",
                              static_cast<std::uint64_t>(size), 0, 0, 0});
    }
    return levels;
}

std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo) {
    std::istringstream in{std::string(meminfo)};
    std::string line;
    while (std::getline(in, line)) {
        if (!line.starts_with("MemAvailable:"))
            continue;
        std::istringstream fields(line.substr(13));
        std::uint64_t kib = 0;
        std::string unit;
        if (!(fields >> kib >> unit) || unit != "kB" || kib > (UINT64_MAX >> 10))
            return std::nullopt;
        return kib << 10;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::ostringstream text;
    text << in.rdbuf();
    if (const auto available = parse_mem_available(text.str()))
        return available;
    struct sysinfo info {};
    if (::sysinfo(&info) != 0)
        return std::nullopt;
    return (static_cast<std::uint64_t>(info.freeram) + info.bufferram) * info.mem_unit;
}

bool fits_in_memory(std::uint64_t needed, std::uint64_t available) {
    return needed <= available / 10 * 9;
}

}  // namespace perfgauge::harness
