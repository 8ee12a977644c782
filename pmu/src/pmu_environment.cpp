#include "perfgauge/pmu/pmu_environment.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>
#include <utility>

#include "perfgauge/pmu/core_pmus.hpp"
#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::pmu {

namespace fs = std::filesystem;

namespace {

std::optional<int> read_int(const fs::path& path) {
    std::ifstream in(path);
    int value = 0;
    if (!(in >> value))
        return std::nullopt;
    return value;
}

#if defined(__x86_64__) || defined(__i386__)
std::optional<std::string> hypervisor_vendor() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid(1, eax, ebx, ecx, edx);
    if ((ecx & (1u << 31)) == 0)
        return std::nullopt;  // CPUID.1:ECX.hypervisor
    __cpuid(0x40000000, eax, ebx, ecx, edx);
    char vendor[13] = {};
    std::memcpy(vendor + 0, &ebx, 4);
    std::memcpy(vendor + 4, &ecx, 4);
    std::memcpy(vendor + 8, &edx, 4);
    // The 12-byte signatures, by the names people know them by ("bhyve bhyve " -> bhyve).
    static const std::pair<const char*, const char*> known[] = {
        {"KVMKVMKVM", "KVM"},           {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
        {"XenVMMXenVMM", "Xen"},        {"bhyve bhyve ", "bhyve"},   {"TCGTCGTCGTCG", "QEMU (TCG)"},
        {"VBoxVBoxVBox", "VirtualBox"}, {"ACRNACRNACRN", "ACRN"}};
    for (const auto& [signature, name] : known) {
        if (std::string_view(vendor) == signature)
            return std::string(name);
    }
    std::string text(vendor);
    text.erase(text.find_last_not_of(' ') + 1);
    return text.empty() ? std::string("unknown hypervisor") : text;
}
#else
std::optional<std::string> read_line(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    return line;
}

// No CPUID elsewhere: the firmware tables say it. QEMU's "virt" board names itself in the
// device tree; ACPI guests (EC2, QEMU with UEFI) in DMI.
std::optional<std::string> hypervisor_vendor() {
    std::ifstream compatible("/proc/device-tree/compatible");
    std::string text((std::istreambuf_iterator<char>(compatible)),
                     std::istreambuf_iterator<char>());
    if (text.find("linux,dummy-virt") != std::string::npos)
        return std::string("QEMU (virt board)");
    if (const auto vendor = read_line("/sys/class/dmi/id/sys_vendor")) {
        for (const char* known : {"QEMU", "Amazon EC2", "Microsoft Corporation", "VMware"}) {
            if (vendor->find(known) != std::string::npos)
                return *vendor;
        }
    }
    if (const auto xen = read_line("/sys/hypervisor/type"))
        return *xen;
    return std::nullopt;
}
#endif

bool privileged_process() {
    if (::geteuid() == 0)
        return true;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("CapEff:", 0) != 0)
            continue;
        const unsigned long long caps = std::stoull(line.substr(7), nullptr, 16);
        constexpr unsigned kCapSysAdmin = 21, kCapPerfmon = 38;
        return (caps >> kCapSysAdmin & 1) || (caps >> kCapPerfmon & 1);
    }
    return false;
}

std::optional<std::string> container_marker() {
    for (const char* marker : {"/.dockerenv", "/run/.containerenv"}) {
        std::error_code ec;
        if (fs::exists(marker, ec))
            return std::string(marker);
    }
    std::ifstream cgroup("/proc/1/cgroup");
    std::string line;
    while (std::getline(cgroup, line)) {
        for (const char* word : {"docker", "kubepods", "lxc", "containerd"}) {
            if (line.find(word) != std::string::npos)
                return "/proc/1/cgroup mentions " + std::string(word);
        }
    }
    return std::nullopt;
}

// /dev/kmsg gives the kernel log to root (or with dmesg_restrict=0) without running dmesg.
std::string read_kernel_log() {
    FileDescriptor fd(::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd)
        return {};
    std::string log;
    char record[8192];
    for (int i = 0; i < 100000; ++i) {
        const ssize_t n = ::read(fd.get(), record, sizeof record);
        if (n < 0 && errno == EPIPE)
            continue;  // record overwritten while reading: skip it
        if (n <= 0)
            break;
        log.append(record, static_cast<std::size_t>(n));
    }
    return log;
}

// arm64 core PMUs are named after the CPU (armv8_pmuv3_0, armv8_cortex_a72, one per core type
// on big.LITTLE) and list their CPUs in "cpus", where uncore PMUs have "cpumask".
std::vector<std::string> core_pmus_in(const fs::path& devices) {
    std::vector<std::string> pmus;
    for (const auto& pmu : read_core_pmus(devices, native_core_pmu_naming()))
        pmus.push_back(pmu.name);
    return pmus;
}

}  // namespace

std::optional<std::string> find_pmu_message(const std::string& kernel_log) {
    const std::size_t at = kernel_log.find("Performance Events:");
    if (at == std::string::npos)
        return std::nullopt;
    const std::size_t end = kernel_log.find('\n', at);
    return kernel_log.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string describe_paranoid(int level) {
    if (level <= -1)
        return "no restrictions: any user may count anything, including CPU-wide and kernel";
    if (level == 0)
        return "users may count per-process and CPU-wide events, kernel included, but not raw "
               "tracepoints";
    if (level == 1)
        return "users may count their own processes, kernel space included, but not CPU-wide";
    if (level == 2)
        return "users may count their own processes in user space only (:u); kernel space and "
               "CPU-wide need privileges";
    return "refused to unprivileged users on kernels patched for it (Debian, Ubuntu, Android); "
           "upstream kernels treat it like 2";
}

bool kernel_counting_allowed() {
    return privileged_process() ||
           read_int("/proc/sys/kernel/perf_event_paranoid").value_or(2) <= 1;
}

std::string user_read_control_path(const std::vector<std::string>& core_pmus) {
#if defined(__aarch64__)
    (void)core_pmus;
    return "/proc/sys/kernel/perf_user_access";
#else
    return core_pmus.empty() ? std::string()
                             : "/sys/bus/event_source/devices/" + core_pmus.front() + "/rdpmc";
#endif
}

PmuEnvironment detect_pmu_environment() {
    PmuEnvironment env;
    env.core_pmus = core_pmus_in("/sys/bus/event_source/devices");
    if (!env.core_pmus.empty()) {
        env.rdpmc_control = user_read_control_path(env.core_pmus);
        env.rdpmc = read_int(env.rdpmc_control);
    }
    env.paranoid = read_int("/proc/sys/kernel/perf_event_paranoid");
    env.nmi_watchdog = read_int("/proc/sys/kernel/nmi_watchdog");
    env.privileged = privileged_process();
    env.hypervisor = hypervisor_vendor();
    env.container = container_marker();
    env.kernel_pmu_message = find_pmu_message(read_kernel_log());
    return env;
}

}  // namespace perfgauge::pmu
