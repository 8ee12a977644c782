#include "perfgauge/harness/scratch_dir.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../../support/temp_dir.hpp"

namespace perfgauge::harness {
namespace {

namespace fs = std::filesystem;

// A pid that certainly runs nothing now: a child that has ended and been reaped.
pid_t ended_pid() {
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

TEST(ScratchDir, NamedAfterItsOwnerAndRemovedWithIt) {
    fs::path kept;
    {
        const ScratchDir dir("perfgauge-unit", "a test");
        kept = dir.path();
        EXPECT_NE(kept.filename().string().find(
                      fmt::format("perfgauge-unit{}{}-", kOwnerTag, ::getpid())),
                  std::string::npos)
            << kept;
        EXPECT_TRUE(fs::is_directory(kept));
    }
    EXPECT_FALSE(fs::exists(kept));
}

TEST(ScratchDir, StaleDirectoriesOfEndedProcessesAreRemoved) {
    test::TempDir root;
    const auto dead = root.path() / fmt::format("perfgauge-run{}{}-aaaaaa", kOwnerTag, ended_pid());
    const auto live = root.path() / fmt::format("perfgauge-sim{}{}-bbbbbb", kOwnerTag, ::getpid());
    const auto untagged = root.path() / "perfgauge-test-cccccc";  // not a scratch directory
    const auto foreign = root.path() / fmt::format("other{}{}-dd", kOwnerTag, ended_pid());
    for (const auto& d : {dead, live, untagged, foreign})
        fs::create_directories(d / "inside");
    remove_stale_scratch_dirs(root.path());
    EXPECT_FALSE(fs::exists(dead)) << "its process is gone";
    EXPECT_TRUE(fs::exists(live / "inside")) << "its process runs";
    EXPECT_TRUE(fs::exists(untagged));
    EXPECT_TRUE(fs::exists(foreign));
}

}  // namespace
}  // namespace perfgauge::harness
