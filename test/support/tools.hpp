// What the machine running the tests has installed, for tests that need a tool.
#pragma once

#include <unistd.h>

namespace perfgauge::test {

// callgrind (valgrind) simulates the counters this machine cannot count.
inline bool valgrind_installed() {
    return ::access("/usr/bin/valgrind", X_OK) == 0 || ::access("/bin/valgrind", X_OK) == 0;
}

}  // namespace perfgauge::test
