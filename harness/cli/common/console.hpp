// perfgauge's messages on stderr, every write checked but never thrown: a full or closed stderr
// must neither stop a measurement half way nor hide the measured command's exit status.
#pragma once

#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace perfgauge::cli {

/// Writes `text` to stderr; a failed write is remembered (stderr_failed()), not thrown.
void say_text(std::string_view text);

/// fmt::print(stderr, ...) with say_text's promise.
template <class... Args>
void say(fmt::format_string<Args...> format, Args&&... args) {
    say_text(fmt::format(format, std::forward<Args>(args)...));
}

/// Whether a write to stderr failed since perfgauge started.
bool stderr_failed();

/// Flushes stdout (where a failure of buffered writes first shows) and returns whether every
/// write to it succeeded; `error` is the flush's errno, 0 when an earlier write failed (its
/// errno is gone by now).
bool stdout_ok(int& error);

}  // namespace perfgauge::cli
