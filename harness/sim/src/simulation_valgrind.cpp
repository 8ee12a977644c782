#include "perfgauge/harness/simulation_valgrind.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "perfgauge/pmu/callgrind.hpp"

namespace perfgauge::harness {

std::optional<std::string> simulation_valgrind(Backend backend, const std::string& flag) {
    if (backend == Backend::perf)
        return std::nullopt;
    if (const char* why = pmu::valgrind_incompatibility()) {
        if (backend == Backend::sim)
            throw std::runtime_error(fmt::format("{}: {}", flag, why));
        return std::nullopt;
    }
    auto lookup = pmu::locate_valgrind();
    if (!lookup.path && backend == Backend::sim)
        throw std::runtime_error(flag + " needs valgrind: " + lookup.problem);
    // A valgrind named on purpose that cannot be used is refused under auto too: simulating
    // nothing without a word would hide the mistake behind "not supported" columns.
    if (!lookup.path && lookup.from_environment) {
        throw std::runtime_error(lookup.problem +
                                 "; it is used whenever an event is simulated (--backend auto "
                                 "too): fix it, unset it, or count natively only (--backend "
                                 "perf)");
    }
    return lookup.path;
}

}  // namespace perfgauge::harness
