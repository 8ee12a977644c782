#include "perfgauge/harness/exit_status.hpp"

#include <string.h>
#include <cstring>

#include <fmt/format.h>

namespace perfgauge::harness {

std::string signal_name(int signal) {
    const char* abbrev = ::sigabbrev_np(signal);
    return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", signal);
}

int ExitStatus::shell_status() const {
    if (exec_failed)
        return 127;
    return signaled ? 128 + code : code;
}

std::string ExitStatus::describe() const {
    if (exec_failed) {
        return exec_error != 0
                   ? fmt::format("could not be executed: {}", std::strerror(exec_error))
                   : std::string("could not be executed");  // the reason was not recorded
    }
    if (signaled) {
        return fmt::format("killed by signal {} ({}){}", code, signal_name(code),
                           core_dumped ? ", core dumped" : "");
    }
    return fmt::format("exited with {}", code);
}

}  // namespace perfgauge::harness
