// The commit `history add` records without --commit: git run as a child process (no shell),
// in a repository made here, in a repository with no commit, and outside any repository.
#include "perfgauge/harness/git_head.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../support/run_process.hpp"
#include "perfgauge/harness/child_process.hpp"

namespace perfgauge::harness {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the test's temporary directory, removed with its contents.
class TempDir {
  public:
    TempDir() {
        std::string name = (fs::temp_directory_path() / "perfgauge-git-head-XXXXXX").string();
        if (::mkdtemp(name.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        path_ = name;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

// git in `dir`, with an identity of its own and no user or system configuration read, so the
// test holds on a machine without a git identity; its output.
std::string git(const fs::path& dir, std::vector<std::string> args) {
    std::vector<std::string> argv = {"/usr/bin/env",
                                     "GIT_CONFIG_NOSYSTEM=1",
                                     "GIT_CONFIG_GLOBAL=/dev/null",
                                     "git",
                                     "-C",
                                     dir.string(),
                                     "-c",
                                     "user.name=t",
                                     "-c",
                                     "user.email=t@example.com"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = test::run_process(argv);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return result.out;
}

bool git_installed() {
    return executable_path("git").has_value();
}

TEST(GitHead, IsTheFullHashOfTheCommitCheckedOut) {
    if (!git_installed())
        GTEST_SKIP() << "git is not installed";
    const TempDir repo;
    git(repo.path(), {"init", "-q"});
    git(repo.path(), {"commit", "-q", "--allow-empty", "-m", "first"});
    auto expected = git(repo.path(), {"rev-parse", "HEAD"});
    ASSERT_EQ(expected.size(), 41U) << expected;  // 40 hex digits and a line end
    expected.pop_back();
    EXPECT_EQ(git_head(repo.path().string()), expected);
    // From a subdirectory of the repository too.
    fs::create_directory(repo.path() / "sub");
    EXPECT_EQ(git_head((repo.path() / "sub").string()), expected);
}

TEST(GitHead, IsEmptyInARepositoryWithoutACommit) {
    if (!git_installed())
        GTEST_SKIP() << "git is not installed";
    const TempDir repo;
    git(repo.path(), {"init", "-q"});
    EXPECT_EQ(git_head(repo.path().string()), "");
}

TEST(GitHead, IsEmptyOutsideAnyRepository) {
    const TempDir plain;
    // GIT_CEILING_DIRECTORIES would be needed if the temporary directory were inside a
    // repository; /tmp is not one on the machines here.
    EXPECT_EQ(git_head(plain.path().string()), "");
    EXPECT_EQ(git_head((plain.path() / "missing").string()), "");
}

TEST(GitHead, IsEmptyWhenGitCannotBeStarted) {
    const char* saved = std::getenv("PATH");
    const std::string path = saved ? saved : "";
    ::setenv("PATH", "/nonexistent-perfgauge-test", 1);
    const auto head = git_head(".");
    ::setenv("PATH", path.c_str(), 1);
    EXPECT_EQ(head, "");
}

}  // namespace
}  // namespace perfgauge::harness
