// Tracepoint names (subsystem:event) and their perf ids, from tracefs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgauge::pmu {

class Tracefs {
  public:
    /// Uses the tracefs mount at `root` (the directory holding `events/`).
    explicit Tracefs(std::filesystem::path root);

    /// The mounted tracefs, from /proc/mounts (tracefs, or debugfs's tracing/), if any.
    static std::optional<Tracefs> locate();

    const std::filesystem::path& root() const { return root_; }

    /// The perf config value for `subsystem:event`, or nullopt when there is no such tracepoint
    /// (or its id cannot be read, which for non-root users is the common case).
    std::optional<std::uint64_t> tracepoint_id(const std::string& subsystem,
                                               const std::string& event) const;
    bool has_subsystem(const std::string& subsystem) const;
    /// Event names of one subsystem, sorted.
    std::vector<std::string> events_of(const std::string& subsystem) const;
    /// Every tracepoint as "subsystem:event", sorted.
    std::vector<std::string> all_tracepoints() const;

  private:
    std::filesystem::path root_;
};

/// The hint given when tracefs is not mounted.
inline constexpr const char* kMountTracefsHint =
    "tracefs is not mounted; as root: mount -t tracefs nodev /sys/kernel/tracing";

}  // namespace perfgauge::pmu
