#include "perfgauge/pmu/core_pmus.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace perfgauge::pmu {

namespace fs = std::filesystem;

namespace {

// The kernel's extended hardware type (include/uapi/linux/perf_event.h, PERF_PMU_TYPE_SHIFT,
// which Debian 12's headers may lack).
constexpr unsigned kPmuTypeShift = 32;

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

std::optional<int> parse_int(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

std::optional<CorePmu> read_pmu(const fs::path& dir) {
    CorePmu pmu;
    pmu.name = dir.filename().string();
    if (const auto type = read_text(dir / "type"); type) {
        if (const auto value = parse_int(*type))
            pmu.type = static_cast<std::uint32_t>(*value);
    }
    if (const auto cpus = read_text(dir / "cpus")) {
        const auto list = parse_cpu_list(*cpus);
        if (!list)
            return std::nullopt;  // not a CPU list: not a PMU this can reason about
        pmu.cpus = *list;
        pmu.cpus_listed = true;
    }
    return pmu;
}

// "0-3,8" from {0,1,2,3,8}.
std::string cpu_ranges(const std::vector<int>& cpus) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        parts.push_back(j == i ? fmt::format("{}", cpus[i])
                               : fmt::format("{}-{}", cpus[i], cpus[j]));
        i = j + 1;
    }
    return fmt::format("{}", fmt::join(parts, ","));
}

}  // namespace

CorePmuNaming native_core_pmu_naming() {
#if defined(__aarch64__)
    return CorePmuNaming::arm;
#else
    return CorePmuNaming::x86;
#endif
}

std::optional<std::vector<int>> parse_cpu_list(std::string_view text) {
    std::vector<int> cpus;
    if (text.empty())
        return cpus;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        const std::size_t dash = part.find('-');
        const auto first = parse_int(part.substr(0, dash));
        const auto last = dash == std::string_view::npos ? first : parse_int(part.substr(dash + 1));
        if (!first || !last || *last < *first || *last - *first > 65536)
            return std::nullopt;
        for (int cpu = *first; cpu <= *last; ++cpu)
            cpus.push_back(cpu);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

std::vector<CorePmu> read_core_pmus(const fs::path& devices, CorePmuNaming naming) {
    std::vector<CorePmu> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(devices, ec)) {
        const std::string name = entry.path().filename().string();
        std::error_code exists_ec;
        const bool core = naming == CorePmuNaming::x86
                              ? (name == "cpu" || name == "cpu_core" || name == "cpu_atom")
                              : fs::exists(entry.path() / "cpus", exists_ec);
        if (!core)
            continue;
        if (auto pmu = read_pmu(entry.path()))
            out.push_back(std::move(*pmu));
    }
    std::sort(out.begin(), out.end(),
              [](const CorePmu& a, const CorePmu& b) { return a.name < b.name; });
    return out;
}

std::vector<CorePmu> core_pmus_for_cpus(const std::vector<CorePmu>& pmus,
                                        const std::vector<int>& allowed) {
    std::vector<CorePmu> out;
    for (const auto& pmu : pmus) {
        const bool meets = !pmu.cpus_listed || allowed.empty() ||
                           std::any_of(pmu.cpus.begin(), pmu.cpus.end(), [&](int cpu) {
                               return std::binary_search(allowed.begin(), allowed.end(), cpu);
                           });
        if (meets)
            out.push_back(pmu);
    }
    return out;
}

std::vector<int> task_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0)
        return {};
    std::vector<int> cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    }
    return cpus;
}

bool is_hybrid(const std::vector<CorePmu>& pmus) {
    return pmus.size() > 1 &&
           std::all_of(pmus.begin(), pmus.end(), [](const CorePmu& p) { return p.type; });
}

bool counts_on_core_pmu(const EventSpec& spec) {
    return spec.kind == EventKind::hardware || spec.kind == EventKind::hw_cache ||
           (spec.kind == EventKind::raw && spec.attr.type == PERF_TYPE_RAW);
}

EventSpec on_core_pmu(const EventSpec& spec, const CorePmu& pmu) {
    if (!counts_on_core_pmu(spec) || !pmu.type)
        return spec;
    EventSpec out = spec;
    out.name = fmt::format("{}/{}/", pmu.name, spec.name);
    if (spec.kind == EventKind::raw) {
        out.attr.type = *pmu.type;
    } else {
        out.attr.config = (spec.attr.config & 0xffffffffu) |
                          (static_cast<std::uint64_t>(*pmu.type) << kPmuTypeShift);
    }
    return out;
}

std::vector<GroupSpec> per_core_pmu(const std::vector<GroupSpec>& groups,
                                    const std::vector<CorePmu>& pmus) {
    if (!is_hybrid(pmus))
        return groups;
    std::vector<GroupSpec> out;
    for (const auto& group : groups) {
        const bool any = std::any_of(group.events.begin(), group.events.end(), counts_on_core_pmu);
        if (!any) {
            out.push_back(group);
            continue;
        }
        if (group.explicit_group) {
            for (const auto& pmu : pmus) {
                GroupSpec copy{{}, true};
                for (const auto& e : group.events)
                    copy.events.push_back(on_core_pmu(e, pmu));
                out.push_back(std::move(copy));
            }
            continue;
        }
        GroupSpec bare{{}, false};
        for (const auto& e : group.events) {
            if (!counts_on_core_pmu(e)) {
                bare.events.push_back(e);
                continue;
            }
            for (const auto& pmu : pmus)
                bare.events.push_back(on_core_pmu(e, pmu));
        }
        out.push_back(std::move(bare));
    }
    return out;
}

std::string describe_core_pmus(const std::vector<CorePmu>& pmus) {
    std::vector<std::string> parts;
    for (const auto& pmu : pmus) {
        parts.push_back(pmu.cpus_listed
                            ? fmt::format("{} (CPUs {})", pmu.name, cpu_ranges(pmu.cpus))
                            : fmt::format("{} (every CPU)", pmu.name));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace perfgauge::pmu
