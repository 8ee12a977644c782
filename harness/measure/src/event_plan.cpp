#include "perfgauge/harness/event_plan.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/harness/native_columns.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

Backend parse_backend(const std::string& text) {
    if (text == "auto")
        return Backend::automatic;
    if (text == "perf")
        return Backend::perf;
    if (text == "sim")
        return Backend::sim;
    throw std::invalid_argument(
        fmt::format("--backend: unknown backend '{}' (choose auto, perf or sim)", text));
}

const char* backend_name(Backend backend) {
    switch (backend) {
        case Backend::automatic:
            return "auto";
        case Backend::perf:
            return "perf";
        case Backend::sim:
            return "sim";
    }
    return "?";
}

bool EventPlan::any_simulated() const {
    for (const bool s : simulated) {
        if (s)
            return true;
    }
    return false;
}

EventPlan without_simulation(EventPlan plan, const EventRefusal& why) {
    for (std::size_t e = 0; e < plan.events.size(); ++e) {
        if (plan.simulated[e]) {
            plan.simulated[e] = false;
            plan.refusals[e] = why;
        }
    }
    return plan;
}

std::string EventPlan::native_list_text() const {
    std::vector<std::string> items;
    for (const auto& group : native_groups) {
        std::vector<std::string> names;
        for (const auto& e : group.events)
            names.push_back(e.name);
        if (group.explicit_group)
            items.push_back(fmt::format("{{{}}}", fmt::join(names, ",")));
        else
            items.insert(items.end(), names.begin(), names.end());
    }
    return fmt::format("{}", fmt::join(items, ","));
}

std::vector<std::string> EventPlan::unsupported() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (!refusals[i].status.empty())
            out.push_back(events[i] + ": " + refusal_text(refusals[i]));
    }
    return out;
}

std::vector<std::string> EventPlan::simulated_events() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (simulated[i])
            out.push_back(events[i]);
    }
    return out;
}

namespace {

enum class Decision { native, simulated, unsupported };

struct Decided {
    Decision decision = Decision::native;
    EventRefusal refusal;  ///< when unsupported
};

Decided decide(const pmu::EventTerm& term, const NativeProbe& probe, Backend backend,
               bool valgrind_available, std::string& refusal) {
    const auto* sim = pmu::find_simulated_event(term.name);
    const std::string text = pmu::term_text(term);
    if (backend == Backend::perf) {
        if (!probe.known) {
            throw pmu::EventError(
                fmt::format("'{}' exists only as a simulated event ({}): use --backend sim or auto",
                            text, sim ? sim->meaning : "callgrind"));
        }
        return {};
    }
    const bool wants_sim = !probe.known || (pmu::needs_hardware_pmu(probe.kind) &&
                                            (backend == Backend::sim || !probe.opened));
    if (!wants_sim)
        return {};
    if (!sim) {
        if (backend == Backend::automatic)
            return {};  // the native run reports why it was refused
        return {Decision::unsupported, {"not simulated", pmu::not_simulated_reason(term.name), ""}};
    }
    if (term.modifiers.kernel) {
        return {Decision::unsupported,
                {"not simulated", "callgrind sees user space only (drop ':k')", ""}};
    }
    if (!valgrind_available) {
        if (probe.known)
            return {};  // automatic: the native run reports why it was refused
        return {
            Decision::unsupported,
            {"not counted",
             "a simulated event, and valgrind is unavailable (not installed, or a bad "
             "PERFGAUGE_VALGRIND; perfgauge doctor says which; Debian: apt-get install valgrind)",
             ""}};
    }
    if (refusal.empty() && !probe.reason.empty())
        refusal = probe.reason;
    return {Decision::simulated, {}};
}

}  // namespace

EventPlan plan_events(const pmu::EventList& list, Backend backend, bool valgrind_available,
                      const NativeProber& probe) {
    EventPlan plan;
    std::string refusal;
    for (const auto& group : list.groups) {
        pmu::GroupSpec native{{}, group.explicit_group};
        for (const auto& term : group.events) {
            const NativeProbe p = probe(term);
            const Decided d = decide(term, p, backend, valgrind_available, refusal);
            plan.events.push_back(pmu::term_text(term));
            plan.kinds.push_back(p.kind);
            plan.simulated.push_back(d.decision == Decision::simulated);
            plan.refusals.push_back(d.refusal);
            if (d.decision == Decision::native)
                native.events.push_back(p.spec);
        }
        // The same grouping EventResolver::resolve(list) makes, minus the simulated events.
        if (!native.events.empty())
            plan.native_groups.push_back(std::move(native));
    }
    if (plan.any_simulated()) {
        plan.notice = fmt::format(
            "{}: simulated with valgrind's callgrind ({}); time and software events are measured "
            "natively",
            fmt::join(plan.simulated_events(), ", "),
            backend == Backend::sim
                ? std::string("--backend sim")
                : "not countable here: " +
                      (refusal.empty() ? std::string("no hardware PMU") : refusal));
    }
    return plan;
}

NativeProber system_prober(const pmu::EventResolver& resolver, bool try_open) {
    return [&resolver, try_open](const pmu::EventTerm& term) {
        NativeProbe probe;
        pmu::EventSpec spec;
        try {
            spec = resolver.resolve(term);
        } catch (const pmu::UnknownEventError&) {
            if (pmu::find_simulated_event(term.name) == nullptr)
                throw;
            probe.known = false;
            probe.kind = pmu::EventKind::hw_cache;
            probe.opened = false;
            return probe;
        }
        probe.kind = spec.kind;
        probe.spec = spec;
        if (!try_open || !pmu::needs_hardware_pmu(spec.kind))
            return probe;
        const auto set = pmu::CounterSet::open({pmu::GroupSpec{{spec}, false}}, {});
        probe.opened = set.opened_count() == 1;
        if (!probe.opened) {
            // "not supported: <why>": the notice lists the names.
            probe.reason = refusal_text(native_columns(set).front());
        }
        return probe;
    };
}

EventPlan select_events(const std::string& list, Backend backend, bool valgrind_available) {
    const pmu::EventResolver resolver;
    // Only automatic decides by what opens: perf and sim need the names resolved, not opened.
    return plan_events(pmu::parse_event_list(list), backend, valgrind_available,
                       system_prober(resolver, backend == Backend::automatic));
}

namespace {

std::vector<pmu::GroupSpec> native_groups_of(const std::string& list) {
    if (list.find_first_not_of(" \t") == std::string::npos)
        return {};  // no events at all is a valid request: time only
    return select_events(list, Backend::perf, false).native_groups;
}

}  // namespace

CountedEvents::CountedEvents(const std::string& list) : groups_(native_groups_of(list)) {}

CountedEvents::CountedEvents(const char* list) : CountedEvents(std::string(list)) {}

}  // namespace perfgauge::harness
