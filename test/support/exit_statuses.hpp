// Exit statuses a test gives as a child's end (one definition: test drivers are compiled in
// unity batches, where two files' helpers of one name would clash).
#pragma once

#include "perfgauge/harness/exit_status.hpp"

namespace perfgauge::test {

inline harness::ExitStatus exited(int code) {
    harness::ExitStatus status;
    status.code = code;
    return status;
}

inline harness::ExitStatus killed(int signal) {
    harness::ExitStatus status;
    status.signaled = true;
    status.code = signal;
    return status;
}

}  // namespace perfgauge::test
