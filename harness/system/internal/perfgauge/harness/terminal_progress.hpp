// One self-overwriting progress line on stderr, the same for every command that takes long
// (stat, run, selftest, calibrate, history add): only on a terminal and never with -q, nothing
// for a command done within about a second, cleared before anything else is said. The clock
// and the writer are the caller's, so what is drawn when is tested without either.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace perfgauge::harness {

/// Whether a command shows progress: stderr is a terminal and -q was not given.
bool progress_wanted(bool quiet);

/// Seconds on a steady clock: TerminalProgress's default clock.
double steady_seconds();

/// `what` and, once `done` of `total` steps have taken `elapsed_s`, the time left at that rate
/// ("storing 3/40, about 10 s left"; just `what` before a step has ended). The one formatter of
/// a time left by steps (stat's runs, selftest's trials, history add's files).
std::string with_time_left(std::string what, double elapsed_s, std::size_t done, std::size_t total);

class TerminalProgress {
  public:
    using Clock = std::function<double()>;
    using Writer = std::function<void(std::string_view)>;

    /// Nothing before this many seconds: a quicker command shows no line at all.
    static constexpr double kQuietSeconds = 1.0;

    /// `on`: progress_wanted(); off, nothing is ever written. `prefix`: "perfgauge stat".
    /// `quiet_s`: 0 for a process that continues a command already past its first second (run's
    /// later measuring processes).
    TerminalProgress(bool on, std::string prefix, Writer write, Clock now = steady_seconds,
                     double quiet_s = kQuietSeconds);
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;
    ~TerminalProgress();

    bool on() const { return on_; }
    /// Seconds since construction or the last restart().
    double elapsed() const;
    /// The quiet second and elapsed() start again (stat: as its first run starts).
    void restart();
    /// Draws `text` once the quiet second (quiet_s) has passed. Every call draws: the callers'
    /// steps (a run, a round, a file) each change what the line says, and a phase's first line
    /// must not be lost to a rate limit.
    void update(const std::string& text);
    /// Draws `text` now: a stage known to be long (a run under callgrind).
    void show(const std::string& text);
    /// Erases the line, if one is drawn.
    void clear();

  private:
    bool on_;
    std::string prefix_;
    Writer write_;
    Clock now_;
    double quiet_s_;
    double started_ = 0;
    bool shown_ = false;
};

}  // namespace perfgauge::harness
