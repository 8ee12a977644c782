#include "perfgauge/harness/atomic_file.hpp"

#include <signal.h>
#include <sys/resource.h>

#include <gtest/gtest.h>

#include "../../support/temp_dir.hpp"

namespace perfgauge::harness {
namespace {

std::size_t entries(const std::filesystem::path& dir) {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

TEST(AtomicFile, WritesAndReplaces) {
    test::TempDir dir;
    const auto file = dir.path() / "result.json";
    write_file_atomically(file, "first\n");
    EXPECT_EQ(test::read_file(file), "first\n");
    write_file_atomically(file, "second\n");
    EXPECT_EQ(test::read_file(file), "second\n");
    EXPECT_EQ(entries(dir.path()), 1u) << "no temporary file may be left behind";
}

// A file-size limit makes write() fail part-way through (EFBIG), as a full disk would; this
// works for root too, unlike permission tricks.
TEST(AtomicFile, FailureMidWriteLeavesTheOldFile) {
    test::TempDir dir;
    const auto file = dir.path() / "result.csv";
    write_file_atomically(file, "old\n");

    struct sigaction ignore {
    }, old_action{};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGXFSZ, &ignore, &old_action);
    rlimit old_limit{};
    ::getrlimit(RLIMIT_FSIZE, &old_limit);
    rlimit small = old_limit;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    bool threw = false;
    try {
        write_file_atomically(file, std::string(100000, 'x'));
    } catch (const std::runtime_error& e) {
        threw = true;
        EXPECT_NE(std::string(e.what()).find("writing"), std::string::npos) << e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old_limit);
    ::sigaction(SIGXFSZ, &old_action, nullptr);

    EXPECT_TRUE(threw);
    EXPECT_EQ(test::read_file(file), "old\n");
    EXPECT_EQ(entries(dir.path()), 1u) << "the partial temporary file must be removed";
}

TEST(AtomicFile, CheckWritableExplains) {
    test::TempDir dir;
    try {
        check_writable(dir.path() / "missing" / "out.json");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    }
    try {
        check_writable(dir.path());
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(check_writable(dir.path() / "fine.json"));
}

}  // namespace
}  // namespace perfgauge::harness
