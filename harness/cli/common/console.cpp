#include "common/console.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace perfgauge::cli {

namespace {
bool stderr_failure = false;
}  // namespace

void say_text(std::string_view text) {
    // write(2), not stdio: stderr is unbuffered anyway, and a short write is retried.
    while (!text.empty()) {
        const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            stderr_failure = true;
            return;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

bool stderr_failed() {
    return stderr_failure;
}

bool stdout_ok(int& error) {
    error = 0;
    if (std::fflush(stdout) != 0) {
        error = errno;
        return false;
    }
    // A write that failed earlier left the error flag, but errno has moved on since.
    return !std::ferror(stdout);
}

}  // namespace perfgauge::cli
