#include "perfgauge/harness/terminal_progress.hpp"

#include <unistd.h>

#include <chrono>
#include <utility>

#include "perfgauge/harness/progress_line.hpp"

namespace perfgauge::harness {

bool progress_wanted(bool quiet) {
    return !quiet && ::isatty(STDERR_FILENO) == 1;
}

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string with_time_left(std::string what, double elapsed_s, std::size_t done,
                           std::size_t total) {
    if (const auto left = seconds_left(elapsed_s, done, total))
        what += ", " + time_left_text(*left) + " left";
    return what;
}

TerminalProgress::TerminalProgress(bool on, std::string prefix, Writer write, Clock now,
                                   double quiet_s)
    : on_(on),
      prefix_(std::move(prefix)),
      write_(std::move(write)),
      now_(std::move(now)),
      quiet_s_(quiet_s) {
    started_ = now_();
}

TerminalProgress::~TerminalProgress() {
    clear();
}

double TerminalProgress::elapsed() const {
    return now_() - started_;
}

void TerminalProgress::restart() {
    started_ = now_();
}

void TerminalProgress::update(const std::string& text) {
    if (!on_)
        return;
    if (now_() - started_ < quiet_s_)
        return;
    show(text);
}

void TerminalProgress::show(const std::string& text) {
    if (!on_)
        return;
    // "\r" to the line's start, ESC[K erases what a longer line left there.
    write_("\r\033[K" + prefix_ + ": " + text);
    shown_ = true;
}

void TerminalProgress::clear() {
    if (!shown_)
        return;
    write_("\r\033[K");
    shown_ = false;
}

}  // namespace perfgauge::harness
