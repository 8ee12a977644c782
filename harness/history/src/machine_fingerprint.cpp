#include "perfgauge/harness/machine_fingerprint.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace perfgauge::harness {
namespace {

std::string joined(const std::vector<std::pair<std::string, std::string>>& facts) {
    std::string text;
    for (const auto& [name, value] : facts)
        text += name + '=' + value + '\n';
    return text;
}

void add(std::vector<std::pair<std::string, std::string>>& facts, std::string name,
         std::string value) {
    if (!value.empty())
        facts.emplace_back(std::move(name), std::move(value));
}

std::string yes_no(const std::optional<bool>& v) {
    return v ? (*v ? "on" : "off") : "";
}

}  // namespace

std::string stable_hash(const std::string& text) {
    std::uint64_t h = 14695981039346656037ULL;
    for (const unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return fmt::format("{:016x}", h);
}

bool identifies_cpu(const RunResult& result) {
    return !result.system.cpu.vendor.empty() || !result.system.cpu.model_name.empty();
}

std::string unidentified_machine(const RunResult& result, const std::string& machine_label) {
    if (identifies_cpu(result) || !machine_label.empty() || !result.system.host_name.empty())
        return {};
    return fmt::format(
        "{} records neither its CPU nor its host, so its runs cannot be kept apart from other "
        "machines' runs: name the machine with --label machine=NAME",
        kind_description(result.kind));
}

MachineFingerprint fingerprint_of(const RunResult& result, const std::string& machine_label) {
    const SystemInfo& s = result.system;
    MachineFingerprint f;
    if (!identifies_cpu(result)) {
        // Google Benchmark and perfgauge stat files: no CPU facts, so the machine (its label,
        // else the host the file names) is the class: unknown machines are never one class.
        add(f.class_facts, "machine", machine_label.empty() ? s.host_name : machine_label);
    }
    add(f.class_facts, "cpu.vendor", s.cpu.vendor);
    add(f.class_facts, "cpu.model_name", s.cpu.model_name);
    if (s.cpu.family || s.cpu.model)
        add(f.class_facts, "cpu.family_model", fmt::format("{}/{}", s.cpu.family, s.cpu.model));
    if (s.cpu.stepping)
        add(f.class_facts, "cpu.stepping", std::to_string(s.cpu.stepping));
    add(f.class_facts, "cpu.microcode", s.cpu.microcode);
    if (s.cpu.cores)
        add(f.class_facts, "cpu.cores", std::to_string(s.cpu.cores));
    if (s.cpu.logical_cpus)
        add(f.class_facts, "cpu.threads", std::to_string(s.cpu.logical_cpus));
    add(f.class_facts, "cpu.smt", yes_no(s.smt_active));
    add(f.class_facts, "hypervisor", s.hypervisor);
    // By name: the same statuses are the same class in whatever order a file lists them.
    auto sorted = s.mitigations;
    std::sort(sorted.begin(), sorted.end());
    std::string mitigations;
    for (const auto& [name, status] : sorted)
        mitigations += (mitigations.empty() ? "" : "; ") + name + ": " + status;
    add(f.class_facts, "mitigations", mitigations);
    for (const auto& c : s.caches) {
        add(f.class_facts,
            fmt::format("cache.L{}{}", c.level, c.type.empty() ? "" : c.type.substr(0, 1)),
            fmt::format("{}/{}", c.size_bytes, c.shared_by));
    }
    add(f.class_facts, "build.compiler", result.compiler);
    add(f.class_facts, "build.flags", result.compiler_flags);
    f.machine_facts = f.class_facts;
    add(f.machine_facts, "host", s.host_name);
    add(f.machine_facts, "kernel", s.kernel);
    add(f.machine_facts, "governor", s.governor.value_or(""));
    add(f.machine_facts, "boost", yes_no(s.boost));
    add(f.machine_facts, "clocksource", s.clocksource);
    add(f.machine_facts, "hardware_pmu", s.hardware_pmu ? "yes" : "no");
    f.class_id = stable_hash(joined(f.class_facts));
    f.machine_id = stable_hash(joined(f.machine_facts));
    if (identifies_cpu(result)) {
        const std::string cpu = s.cpu.model_name.empty() ? s.cpu.vendor : s.cpu.model_name;
        f.summary =
            s.cpu.logical_cpus ? fmt::format("{} ({} threads)", cpu, s.cpu.logical_cpus) : cpu;
        if (s.hypervisor != "none" && !s.hypervisor.empty())
            f.summary += ", VM " + s.hypervisor;
    } else {
        f.summary = "unknown CPU on " + (machine_label.empty() ? s.host_name : machine_label);
    }
    if (!result.compiler.empty())
        f.summary += ", " + result.compiler;
    return f;
}

}  // namespace perfgauge::harness
