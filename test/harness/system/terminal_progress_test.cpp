// The progress line every long command shares: what it draws when, from a given clock into a
// string (no terminal, no time passing).
#include <gtest/gtest.h>

#include <string>

#include "perfgauge/harness/terminal_progress.hpp"

namespace perfgauge::harness {
namespace {

struct Screen {
    double now = 100;
    std::string written;
    TerminalProgress progress(bool on) {
        return TerminalProgress(
            on, "perfgauge x", [this](std::string_view text) { written += text; },
            [this] { return now; });
    }
};

TEST(TerminalProgress, NothingInTheFirstSecondThenTheLine) {
    Screen screen;
    {
        auto progress = screen.progress(true);
        screen.now += 0.5;
        progress.update("step 1/3");
        EXPECT_EQ(screen.written, "");  // a quick command shows nothing
        screen.now += 0.6;
        progress.update("step 2/3");
        EXPECT_EQ(screen.written, "\r\033[Kperfgauge x: step 2/3");
    }
    // Cleared when it goes (also on an exception's way out).
    EXPECT_EQ(screen.written, "\r\033[Kperfgauge x: step 2/3\r\033[K");
    // A process continuing a command past its first second: no quiet second.
    Screen later;
    TerminalProgress(
        true, "perfgauge x", [&later](std::string_view text) { later.written += text; },
        [&later] { return later.now; }, 0)
        .update("round 1/1");
    EXPECT_EQ(later.written, "\r\033[Kperfgauge x: round 1/1\r\033[K");
    // Off (not a terminal, or -q): nothing ever, even asked to show at once.
    Screen off;
    off.progress(false).show("step");
    EXPECT_EQ(off.written, "");
}

TEST(TerminalProgress, ShowDrawsAtOnceAndRestartStartsTheQuietSecondAgain) {
    Screen screen;
    auto progress = screen.progress(true);
    progress.show("one run under callgrind");
    EXPECT_EQ(screen.written, "\r\033[Kperfgauge x: one run under callgrind");
    progress.clear();
    progress.clear();  // nothing drawn: nothing to erase
    EXPECT_EQ(screen.written, "\r\033[Kperfgauge x: one run under callgrind\r\033[K");
    screen.now += 5;
    EXPECT_DOUBLE_EQ(progress.elapsed(), 5);
    progress.restart();
    EXPECT_DOUBLE_EQ(progress.elapsed(), 0);
    screen.written.clear();
    screen.now += 0.5;
    progress.update("run 2/10");
    EXPECT_EQ(screen.written, "");
}

TEST(TerminalProgress, TheTimeLeftFollowsTheRateOfTheStepsDone) {
    EXPECT_EQ(with_time_left("storing 1/40", 3, 0, 40), "storing 1/40");  // no rate yet
    EXPECT_EQ(with_time_left("storing 11/40", 5, 10, 40), "storing 11/40, about 15 s left");
    EXPECT_EQ(with_time_left("storing 40/40", 5, 39, 40), "storing 40/40, under 5 s left");
}

}  // namespace
}  // namespace perfgauge::harness
