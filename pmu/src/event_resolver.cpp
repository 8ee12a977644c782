#include "perfgauge/pmu/event_resolver.hpp"

#include <perfmon/pfmlib.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "extra_software_events.hpp"
#include "libpfm.hpp"
#include "perfgauge/pmu/core_pmus.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"
#include "perfgauge/pmu/raw_event.hpp"
#include "perfgauge/pmu/suggest.hpp"

namespace perfgauge::pmu {

namespace {

void apply_privilege(perf_event_attr& attr, const PrivilegeModifiers& m) {
    attr.exclude_user = m.user ? 0 : 1;
    attr.exclude_kernel = m.kernel ? 0 : 1;
    attr.exclude_hv = 1;
}

EventKind classify(const perf_event_attr& attr, const std::string& pmu_name) {
    switch (attr.type) {
        case PERF_TYPE_HARDWARE:
            return EventKind::hardware;
        case PERF_TYPE_HW_CACHE:
            return EventKind::hw_cache;
        case PERF_TYPE_SOFTWARE:
            return EventKind::software;
        case PERF_TYPE_TRACEPOINT:
            return EventKind::tracepoint;
        default:
            return pmu_name == "perf_raw" ? EventKind::raw : EventKind::pmu;
    }
}

bool is_identifier(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
}

// "subsystem:event" with exactly one single colon.
bool tracepoint_shape(const std::string& name, std::string& subsystem, std::string& event) {
    const std::size_t colon = name.find(':');
    if (colon == std::string::npos || name.find(':', colon + 1) != std::string::npos)
        return false;
    subsystem = name.substr(0, colon);
    event = name.substr(colon + 1);
    return is_identifier(subsystem) && is_identifier(event);
}

// The event part of "pmu::EVENT:attr=1": "EVENT".
std::string base_event_name(const std::string& name) {
    const std::size_t pmu_sep = name.find("::");
    const std::size_t start = pmu_sep == std::string::npos ? 0 : pmu_sep + 2;
    const std::size_t end = name.find(':', start);
    return name.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string did_you_mean(const std::vector<std::string>& suggestions) {
    if (suggestions.empty())
        return "; no known event has a similar name";
    return fmt::format("; did you mean {}?", fmt::join(suggestions, ", "));
}

}  // namespace

std::string perf_style_name(const std::string& alias) {
    std::string out = to_lower(alias);
    for (const char* prefix : {"l1-", "llc-"}) {
        if (out.rfind(prefix, 0) == 0) {
            for (std::size_t i = 0; prefix[i] != '\0'; ++i)
                out[i] = static_cast<char>(std::toupper(out[i]));
        }
    }
    for (const char* prefix : {"dtlb-", "itlb-"}) {
        if (out.rfind(prefix, 0) == 0)
            out.replace(1, 3, "TLB");
    }
    return out;
}

EventResolver::EventResolver() : EventResolver(Tracefs::locate(), kernel_counting_allowed()) {}

EventResolver::EventResolver(std::optional<Tracefs> tracefs, bool software_counts_kernel,
                             std::filesystem::path pmu_devices)
    : tracefs_(std::move(tracefs)),
      software_counts_kernel_(software_counts_kernel),
      pmu_devices_(std::move(pmu_devices)) {
    libpfm::ensure_initialized();
}

std::vector<GroupSpec> EventResolver::resolve(const std::string& list_text) const {
    return resolve(parse_event_list(list_text));
}

std::vector<GroupSpec> EventResolver::resolve(const EventList& list) const {
    std::vector<GroupSpec> groups;
    for (const auto& group : list.groups) {
        GroupSpec spec;
        spec.explicit_group = group.explicit_group;
        for (const auto& term : group.events)
            spec.events.push_back(resolve(term));
        groups.push_back(std::move(spec));
    }
    // A hybrid CPU counts an event only on the cores of the PMU it is opened on: each core PMU
    // this task may run on gets its own (core_pmus.hpp). One core PMU: unchanged.
    const auto core_pmus = read_core_pmus(pmu_devices_, native_core_pmu_naming());
    if (core_pmus.size() < 2)
        return groups;
    return per_core_pmu(groups, core_pmus_for_cpus(core_pmus, task_cpus()));
}

EventSpec EventResolver::resolve(const EventTerm& term) const {
    if (term.name.find('/') != std::string::npos) {
        throw InvalidEventError(fmt::format(
            "'{}': perf's 'pmu/term=value/' syntax is not supported; use the libpfm4 name "
            "or a raw event rNNNN",
            term.name));
    }
    // A tracepoint wins over libpfm4 when tracefs has it: "sched:sched_switch" cannot be a
    // libpfm4 event with a unit mask, because libpfm4 event names never start in lower case
    // with a known subsystem.
    if (auto tracepoint = resolve_tracepoint(term))
        return *std::move(tracepoint);

    if (auto direct = resolve_without_libpfm(term))
        return *std::move(direct);

    const auto& m = term.modifiers;
    const auto encoding =
        libpfm::encode(term.name, m.specified() ? m.user : true, m.specified() ? m.kernel : false);
    if (encoding.status == PFM_ERR_NOTFOUND) {
        if (const auto* extra = find_extra_software_event(term.name))
            return software_spec(term, *extra);
        fail_unknown(term);
    }
    if (encoding.status != PFM_SUCCESS) {
        const auto umasks = libpfm::unit_mask_names(term.name);
        throw InvalidEventError(fmt::format(
            "'{}': {}{}", term.name, libpfm::error_text(encoding.status),
            umasks.empty()
                ? std::string()
                : fmt::format(" (unit masks of this event: {})", fmt::join(umasks, ", "))));
    }
    EventSpec spec;
    spec.name = term.name + modifier_suffix(m);
    spec.encoding = encoding.fstr;
    spec.pmu = encoding.pmu_name;
    spec.attr = encoding.attr;
    spec.kind = classify(spec.attr, spec.pmu);
    // Default privilege: user space only for the PMU's events (it works at paranoid 2 and keeps
    // the kernel's work out of a measurement of user code); software events also count the
    // kernel when allowed, because context switches and migrations only happen there.
    const bool software_default_kernel =
        spec.kind == EventKind::software && software_counts_kernel_;
    apply_privilege(spec.attr,
                    m.specified() ? m : PrivilegeModifiers{true, software_default_kernel});
    // The encoding shown must be the one opened: libpfm4 wrote it for user space only.
    if (software_default_kernel && !m.specified()) {
        const auto with_kernel = libpfm::encode(term.name, true, true);
        if (with_kernel.status == PFM_SUCCESS)
            spec.encoding = with_kernel.fstr;
    }
    // libpfm4's perf_raw encoding leaves the event out ("perf_raw:::u=1:..."): put it back.
    if (spec.encoding.rfind("perf_raw:::", 0) == 0)
        spec.encoding.insert(10, fmt::format("r{:x}", spec.attr.config));
    return spec;
}

namespace {

// An event perfgauge encodes itself (raw hex, perf's software events libpfm4 lacks): user space
// always, the kernel too when `default_kernel` and no modifier says otherwise.
EventSpec direct_spec(const EventTerm& term, const char* pmu, EventKind kind, std::uint32_t type,
                      std::uint64_t config, std::string encoding, bool default_kernel) {
    EventSpec spec;
    spec.name = term.name + modifier_suffix(term.modifiers);
    spec.encoding = std::move(encoding);
    spec.pmu = pmu;
    spec.kind = kind;
    spec.attr.size = sizeof(perf_event_attr);
    spec.attr.type = type;
    spec.attr.config = config;
    apply_privilege(spec.attr, term.modifiers.specified()
                                   ? term.modifiers
                                   : PrivilegeModifiers{true, default_kernel});
    return spec;
}

}  // namespace

// Raw events are parsed here rather than by libpfm4, whose perf_raw PMU refuses a full 64-bit
// config (rffffffffffffffff) and calls malformed hex "event not found". Their bits are checked
// against the core PMU's sysfs format, because kernels differ on the others: x86 refuses
// reserved bits, arm64 drops them and counts another event. Only here: libpfm4's own encodings
// carry bits the kernel overrides (x86's enable and interrupt bits, 22 and 20), which no
// format declares.
std::optional<EventSpec> EventResolver::resolve_without_libpfm(const EventTerm& term) const {
    const auto raw = parse_raw_event(term.name);
    if (raw.shape == RawEventParse::Shape::not_raw)
        return std::nullopt;
    if (raw.shape == RawEventParse::Shape::invalid)
        throw InvalidEventError(raw.error);
    auto spec = direct_spec(term, "perf_raw", EventKind::raw, PERF_TYPE_RAW, raw.config,
                            fmt::format("perf_raw::r{:x} (type {}, config {:#x})", raw.config,
                                        static_cast<unsigned>(PERF_TYPE_RAW), raw.config),
                            false);
    if (auto refusal = undeclared_config_bits(fmt::format("raw event '{}'", term.name), spec.attr,
                                              raw_event_formats(pmu_devices_)))
        throw InvalidEventError(*std::move(refusal));
    return spec;
}

EventSpec EventResolver::software_spec(const EventTerm& term,
                                       const ExtraSoftwareEvent& event) const {
    // Same default as libpfm4's software events in resolve().
    return direct_spec(term, "perf", EventKind::software, PERF_TYPE_SOFTWARE, event.config,
                       fmt::format("perf::{} (type {}, config {})", event.name,
                                   static_cast<unsigned>(PERF_TYPE_SOFTWARE), event.config),
                       software_counts_kernel_);
}

std::optional<EventSpec> EventResolver::resolve_tracepoint(const EventTerm& term) const {
    std::string subsystem, event;
    if (!tracefs_ || !tracepoint_shape(term.name, subsystem, event))
        return std::nullopt;
    const auto id = tracefs_->tracepoint_id(subsystem, event);
    if (!id)
        return std::nullopt;
    EventSpec spec;
    spec.name = term.name + modifier_suffix(term.modifiers);
    spec.encoding = (tracefs_->root() / "events" / subsystem / event).string();
    spec.pmu = "tracepoint";
    spec.kind = EventKind::tracepoint;
    spec.attr.size = sizeof(perf_event_attr);
    spec.attr.type = PERF_TYPE_TRACEPOINT;
    spec.attr.config = *id;
    // A tracepoint fires in the kernel on behalf of the task; the user/kernel split of the
    // interrupted context says nothing useful, so count it unless the user restricted it.
    apply_privilege(spec.attr,
                    term.modifiers.specified() ? term.modifiers : PrivilegeModifiers{true, true});
    return spec;
}

void EventResolver::fail_unknown(const EventTerm& term) const {
    std::string subsystem, event;
    if (tracepoint_shape(term.name, subsystem, event)) {
        if (!tracefs_) {
            throw UnknownEventError(
                fmt::format("unknown event '{}': not a libpfm4 event, and it cannot be looked up "
                            "as a tracepoint because {}",
                            term.name, kMountTracefsHint),
                {});
        }
        if (tracefs_->has_subsystem(subsystem)) {
            auto suggestions = closest_matches(event, tracefs_->events_of(subsystem));
            for (auto& s : suggestions)
                s = subsystem + ":" + s;
            throw UnknownEventError(
                fmt::format("unknown tracepoint '{}'{}", term.name, did_you_mean(suggestions)),
                suggestions);
        }
    }
    const std::size_t pmu_sep = term.name.find("::");
    const std::string pmu = pmu_sep == std::string::npos ? "" : term.name.substr(0, pmu_sep);
    if (!pmu.empty()) {
        const auto pmus = libpfm::present_pmus();
        if (std::find(pmus.begin(), pmus.end(), pmu) == pmus.end()) {
            auto suggestions = closest_matches(pmu, pmus);
            throw UnknownEventError(
                fmt::format("unknown PMU '{}' in '{}': the PMUs present here are {}", pmu,
                            term.name, fmt::join(pmus, ", ")),
                suggestions);
        }
    }
    auto suggestions = closest_matches(base_event_name(term.name), known_names(pmu));
    if (!pmu.empty()) {
        for (auto& s : suggestions)
            s = pmu + "::" + s;
    }
    throw UnknownEventError(
        fmt::format("unknown event '{}'{}", term.name, did_you_mean(suggestions)), suggestions);
}

std::vector<std::string> EventResolver::known_names(const std::string& pmu) {
    std::vector<std::string> out;
    const auto& events = libpfm::present_events();
    if (pmu.empty()) {
        // Generic perf names first: they are what most people mean.
        for (const auto& e : events) {
            if (e.pmu == "perf" && e.is_alias)
                out.push_back(perf_style_name(e.name));
        }
    }
    if (pmu.empty() || pmu == "perf") {
        for (const auto& e : extra_software_events())
            out.emplace_back(e.name);
    }
    for (const auto& e : events) {
        if (pmu.empty() ? (e.pmu != "perf" && e.pmu != "perf_raw") : e.pmu == pmu) {
            out.push_back(e.name);
        }
    }
    return out;
}

}  // namespace perfgauge::pmu
