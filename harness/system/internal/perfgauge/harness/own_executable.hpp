// The running program's own path: for re-running itself (measuring processes, the simulation
// under valgrind), and for refusing an output that would replace it.
#pragma once

#include <string>

namespace perfgauge::harness {

/// The running program's path (/proc/self/exe); std::runtime_error when it cannot be read.
std::string own_executable();

}  // namespace perfgauge::harness
