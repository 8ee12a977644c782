// The simulation line of `doctor`: can --backend sim (valgrind's callgrind) run here?
#include <fmt/format.h>

#include "perfgauge/harness/doctor.hpp"

namespace perfgauge::harness {

DoctorCheck simulation_check(const SimulationFacts& facts) {
    constexpr const char* kTopic = "simulation";
    if (facts.incompatibility) {
        return {CheckLevel::warn, kTopic, "unavailable: " + *facts.incompatibility, ""};
    }
    if (!facts.valgrind.path) {
        // A bad PERFGAUGE_VALGRIND is a mistake to fix; no valgrind at all is a choice.
        return {facts.valgrind.from_environment ? CheckLevel::warn : CheckLevel::info, kTopic,
                "unavailable: " + facts.valgrind.problem, ""};
    }
    const std::string source = facts.valgrind.from_environment ? " (from PERFGAUGE_VALGRIND)" : "";
    if (!facts.version) {
        return {CheckLevel::warn, kTopic,
                fmt::format("{}{} is executable but 'valgrind --version' printed nothing: it may "
                            "not be valgrind",
                            *facts.valgrind.path, source),
                ""};
    }
    return {CheckLevel::ok, kTopic,
            fmt::format("{} at {}{}: --backend sim (and auto, for events the kernel refuses) "
                        "simulates instructions, branches, branch-misses and cache events",
                        *facts.version, *facts.valgrind.path, source),
            ""};
}

}  // namespace perfgauge::harness
