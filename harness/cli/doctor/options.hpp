// perfgauge doctor's command line: the options, their help, and the one place they become a
// DoctorRequest.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgauge::cli {

struct DoctorRequest {
    /// One line of at most kBriefWidth columns per check (its first clause), no fixes.
    bool brief = false;
};

/// The width of a `--brief` line, label and topic included.
inline constexpr std::size_t kBriefWidth = 100;

/// The request `args` (everything after "doctor") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options.
std::optional<DoctorRequest> parse_doctor_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
