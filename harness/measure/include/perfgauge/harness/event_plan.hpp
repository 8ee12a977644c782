// Event selection's one home: an event list and a backend become the resolved plan (which
// backend counts each event: the kernel's counters (hw/sw) or callgrind's simulation; the
// natively counted groups; the refusals), and the default event lists.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/pmu/event_list.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::harness {

/// `perfgauge run`'s and `perfgauge stat`'s default events.
inline constexpr const char* kDefaultStatEvents =
    "cycles,instructions,branch-misses,task-clock,page-faults,context-switches";
inline constexpr const char* kDefaultRunEvents = kDefaultStatEvents;
/// The library's default (RunnerOptions, Session): software events, which open everywhere.
inline constexpr const char* kDefaultLibraryEvents = "task-clock,page-faults";

enum class Backend {
    automatic,  ///< hardware counters where they open; else simulated, when valgrind exists
    perf,       ///< perf_event_open only: never simulates
    sim,        ///< every hardware event simulated with callgrind (software events stay native)
};

/// "auto", "perf", "sim"; throws std::invalid_argument naming the choices.
Backend parse_backend(const std::string& text);
const char* backend_name(Backend backend);

/// What a native look at one event found.
struct NativeProbe {
    bool known = true;  ///< false: libpfm4/tracefs do not know it (a sim-only name)
    pmu::EventKind kind = pmu::EventKind::software;
    bool opened = true;   ///< perf_event_open accepted it (asked only of PMU events)
    std::string reason;   ///< why it did not open
    pmu::EventSpec spec;  ///< the resolved event, when known: the plan hands it on, unresolved
};

/// Where each event of a list is counted.
struct EventPlan {
    std::vector<std::string> events;    ///< as written (modifiers included), in list order
    std::vector<pmu::EventKind> kinds;  ///< per event
    std::vector<bool> simulated;        ///< per event
    /// The natively counted events, resolved once here (explicit {groups} kept): the runner and
    /// stat open exactly these, without parsing or resolving the list again.
    std::vector<pmu::GroupSpec> native_groups;
    /// Per event: why neither backend will count it (status "not simulated", ...); an empty
    /// status when one does.
    std::vector<EventRefusal> refusals;
    std::string notice;  ///< one line on why simulation is used; empty when it is not

    bool any_simulated() const;
    /// native_groups as an event list ("{a,b},c"): for messages and tests, never re-parsed.
    std::string native_list_text() const;
    std::vector<std::string> simulated_events() const;
    /// "cycles: not simulated: ..." for every refused event, in list order.
    std::vector<std::string> unsupported() const;
};

/// Pure: `plan` with every simulated event refused instead, for `why` (a simulation that was
/// interrupted and left no counts): merged with an empty simulation, those events show `why`.
EventPlan without_simulation(EventPlan plan, const EventRefusal& why);

using NativeProber = std::function<NativeProbe(const pmu::EventTerm&)>;

/// Pure: decides each event's backend. perf: all native (a sim-only name is an error). sim:
/// events that need a hardware PMU are simulated when callgrind can, reported unsupported
/// when not; software events and tracepoints stay native. automatic: native, except PMU events
/// the kernel refused (and sim-only names), which are simulated when valgrind is available.
/// Throws pmu::EventError for names that are wrong under the chosen backend.
EventPlan plan_events(const pmu::EventList& list, Backend backend, bool valgrind_available,
                      const NativeProber& probe);

/// The real prober: resolves each name (throwing for unknown names other than simulated
/// ones) and, with `try_open`, tries to open PMU events on the calling thread (only
/// Backend::automatic's decisions depend on whether they open).
NativeProber system_prober(const pmu::EventResolver& resolver, bool try_open = true);

/// The one place an event list becomes a plan: parses `list` (perf stat syntax), resolves each
/// name on this system and decides its backend as plan_events() does. Throws
/// pmu::EventError (syntax, an empty list, names that are wrong under `backend`).
EventPlan select_events(const std::string& list, Backend backend, bool valgrind_available);

/// The natively counted events, resolved: what RunnerOptions and StatOptions carry, so what
/// they open is decided once, by select_events(). Code that sets an event list
/// (`options.events = "task-clock"`) keeps its meaning: the list becomes the plan at once
/// through select_events() with Backend::perf (an unknown name throws pmu::EventError there),
/// and a blank list counts nothing (time only).
class CountedEvents {
  public:
    CountedEvents(const std::string& list);  // NOLINT(google-explicit-constructor): see above
    CountedEvents(const char* list);         // NOLINT(google-explicit-constructor)
    /// The plan's natively counted groups, as it resolved them.
    explicit CountedEvents(const EventPlan& plan) : groups_(plan.native_groups) {}

    const std::vector<pmu::GroupSpec>& groups() const { return groups_; }

  private:
    std::vector<pmu::GroupSpec> groups_;
};

}  // namespace perfgauge::harness
