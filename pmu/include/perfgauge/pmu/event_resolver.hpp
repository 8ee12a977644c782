// Turns parsed event names into perf_event_attr through libpfm4 and tracefs.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgauge/pmu/event_list.hpp"
#include "perfgauge/pmu/event_spec.hpp"
#include "perfgauge/pmu/pmu_format.hpp"
#include "perfgauge/pmu/tracefs.hpp"

namespace perfgauge::pmu {

struct ExtraSoftwareEvent;  // perf software events libpfm4 lacks (private to pmu/)

/// A name that resolves to nothing. what() is the complete message, suggestions included.
class UnknownEventError : public EventError {
  public:
    UnknownEventError(const std::string& message, std::vector<std::string> suggestions)
        : EventError(message), suggestions_(std::move(suggestions)) {}
    const std::vector<std::string>& suggestions() const { return suggestions_; }

  private:
    std::vector<std::string> suggestions_;
};

/// A name that exists but is written wrongly (bad unit mask or attribute, unsupported syntax,
/// a raw config with bits the PMU's sysfs format does not declare).
class InvalidEventError : public EventError {
    using EventError::EventError;
};

class EventResolver {
  public:
    /// Uses the system's tracefs (if mounted) for tracepoints; software events count kernel
    /// space too when this process may (kernel_counting_allowed()); raw configs are checked
    /// against the core PMU's format in /sys/bus/event_source/devices.
    EventResolver();
    /// Uses the given tracefs (nullopt: no tracepoints), software-event default and directory
    /// of PMUs (the format raw configs are checked against: raw_event_formats()); for tests.
    explicit EventResolver(std::optional<Tracefs> tracefs, bool software_counts_kernel = false,
                           std::filesystem::path pmu_devices = kPmuDevicesDirectory);

    /// Parses and resolves an event list (throws EventListSyntaxError, UnknownEventError,
    /// InvalidEventError). On a hybrid CPU (two core PMUs or more in the PMU directory) every
    /// core-PMU event is opened on each core PMU the task may run on (per_core_pmu()).
    std::vector<GroupSpec> resolve(const std::string& list_text) const;
    std::vector<GroupSpec> resolve(const EventList& list) const;
    EventSpec resolve(const EventTerm& term) const;

    /// The candidates for "did you mean": with an empty `pmu`, the generic perf names and the
    /// events of every other PMU present; otherwise the events of that libpfm4 PMU.
    static std::vector<std::string> known_names(const std::string& pmu = "");

  private:
    std::optional<EventSpec> resolve_tracepoint(const EventTerm& term) const;
    /// Raw events (rNNNN); nullopt for every other name. Throws InvalidEventError for a config
    /// that sets bits the core PMU's format does not declare (undeclared_config_bits()).
    std::optional<EventSpec> resolve_without_libpfm(const EventTerm& term) const;
    EventSpec software_spec(const EventTerm& term, const ExtraSoftwareEvent& event) const;
    [[noreturn]] void fail_unknown(const EventTerm& term) const;

    std::optional<Tracefs> tracefs_;
    bool software_counts_kernel_ = false;
    std::filesystem::path pmu_devices_;
};

/// perf's spelling of a libpfm4 perf-PMU alias: "CYCLES" -> "cycles",
/// "L1-DCACHE-LOAD-MISSES" -> "L1-dcache-load-misses", "DTLB-LOADS" -> "dTLB-loads".
std::string perf_style_name(const std::string& libpfm_alias);

}  // namespace perfgauge::pmu
