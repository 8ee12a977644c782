#include "run/simulation.hpp"

#include "perfgauge/harness/simulation_valgrind.hpp"

namespace perfgauge::cli {

std::optional<std::string> simulation_valgrind(harness::Backend backend) {
    return harness::simulation_valgrind(backend, "--backend sim");
}

}  // namespace perfgauge::cli
