#include "perfgauge/harness/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <sys/resource.h>
#include <thread>

#include <cstdlib>
#include <cstring>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../../support/temp_dir.hpp"

namespace perfgauge::harness {
namespace {

std::size_t entries(const std::filesystem::path& dir) {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

TEST(OutputFile, WritesAndReplaces) {
    test::TempDir dir;
    const auto file = dir.path() / "result.json";
    write_output_file(file, "first\n");
    EXPECT_EQ(test::read_file(file), "first\n");
    write_output_file(file, "second\n");
    EXPECT_EQ(test::read_file(file), "second\n");
    EXPECT_EQ(entries(dir.path()), 1u) << "no temporary file may be left behind";
}

// A file-size limit makes write() fail part-way through (EFBIG), as a full disk would; this
// works for root too, unlike permission tricks.
TEST(OutputFile, FailureMidWriteLeavesTheOldFile) {
    test::TempDir dir;
    const auto file = dir.path() / "result.csv";
    write_output_file(file, "old\n");

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
        write_output_file(file, std::string(100000, 'x'));
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

TEST(OutputFile, CheckWritableExplains) {
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

// As root, rename() over a device node would turn /dev/null into a regular file.
TEST(OutputFile, DeviceNodeIsWrittenInPlace) {
    if (::geteuid() != 0)
        GTEST_SKIP() << "mknod needs root (CAP_MKNOD)";
    test::TempDir dir;
    const auto node = dir.path() / "null";
    ASSERT_EQ(::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0) << std::strerror(errno);
    check_writable(node);
    write_output_file(node, "discarded\n");
    struct stat st {};
    ASSERT_EQ(::lstat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
    EXPECT_EQ(st.st_rdev, ::makedev(1, 3));
    EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(OutputFile, FullDeviceFailsTheWrite) {
    EXPECT_THROW(write_output_file("/dev/full", "x"), std::runtime_error);
    struct stat st {};
    ASSERT_EQ(::lstat("/dev/full", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFile, FifoIsWrittenInPlace) {
    test::TempDir dir;
    const auto fifo = dir.path() / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = test::read_file(fifo); });
    write_output_file(fifo, "through the pipe\n");
    reader.join();
    EXPECT_EQ(received, "through the pipe\n");
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(OutputFile, SymlinkIsFollowedAndStaysALink) {
    test::TempDir dir;
    std::filesystem::create_directory(dir.path() / "real");
    const auto target = dir.path() / "real" / "result.json";
    write_output_file(target, "old\n");
    ::chmod(target.c_str(), 0640);
    const auto link = dir.path() / "latest.json";
    std::filesystem::create_symlink("real/result.json", link);
    write_output_file(link, "new\n");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(test::read_file(target), "new\n");
    EXPECT_EQ(std::filesystem::status(target).permissions(),
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                  std::filesystem::perms::group_read)
        << "a replaced file keeps its mode";
    EXPECT_EQ(entries(dir.path() / "real"), 1u);
}

TEST(OutputFile, DanglingSymlinkCreatesItsTarget) {
    test::TempDir dir;
    const auto link = dir.path() / "out.csv";
    std::filesystem::create_symlink("made.csv", link);
    check_writable(link);
    write_output_file(link, "a,b\n");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(test::read_file(dir.path() / "made.csv"), "a,b\n");
}

TEST(OutputFile, SymlinkLoopIsRefused) {
    test::TempDir dir;
    std::filesystem::create_symlink("b", dir.path() / "a");
    std::filesystem::create_symlink("a", dir.path() / "b");
    EXPECT_THROW(check_writable(dir.path() / "a"), std::runtime_error);
}

// /dev/fd/N is the descriptor itself: appending to it must not start over at offset 0.
TEST(OutputFile, DescriptorAliasWritesToTheOpenDescriptor) {
    test::TempDir dir;
    const auto log = dir.path() / "log";
    write_output_file(log, "first line\n");
    const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
    ASSERT_GE(fd, 0);
    write_output_file(fmt::format("/dev/fd/{}", fd), "appended\n");
    ::close(fd);
    EXPECT_EQ(test::read_file(log), "first line\nappended\n");
    EXPECT_THROW(check_writable("/dev/fd/999"), std::runtime_error);
}

TEST(OutputFile, SameOutputSeesThroughNames) {
    test::TempDir dir;
    const auto file = dir.path() / "r.json";
    std::filesystem::create_symlink("r.json", dir.path() / "link.json");
    EXPECT_TRUE(same_output(file, dir.path() / "." / "r.json")) << "not yet existing";
    write_output_file(file, "{}");
    EXPECT_TRUE(same_output(file, dir.path() / "link.json"));
    EXPECT_FALSE(same_output(file, dir.path() / "other.json"));
    EXPECT_FALSE(same_output("/dev/null", "/dev/null")) << "two reports to /dev/null lose nothing";
}

// Whether refuse_overlapping_paths refuses `outputs` over `inputs`; the message when it does.
std::string overlap(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
    try {
        refuse_overlapping_paths(outputs, inputs);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(OutputFile, AnOutputNeverNamesAnInput) {
    test::TempDir dir;
    const auto input = dir.path() / "r.json";
    write_output_file(input, "{}");
    std::filesystem::create_symlink("r.json", dir.path() / "link.json");
    std::filesystem::create_hard_link(input, dir.path() / "hard.json");
    std::filesystem::create_directory(dir.path() / "sub");
    const std::vector<NamedPath> inputs = {{"the result", input}};
    for (const auto& alias : {input, dir.path() / "link.json", dir.path() / "hard.json",
                              dir.path() / "sub" / ".." / "r.json"}) {
        const auto why = overlap({{"-o", alias}}, inputs);
        EXPECT_NE(why.find(fmt::format("-o {} is the result {}", alias.string(), input.string())),
                  std::string::npos)
            << alias << ": " << why;
    }
    // A symlink given as the input is followed to the file it names.
    EXPECT_NE(overlap({{"--json", input}}, {{"CMD", dir.path() / "link.json"}}), "");
    EXPECT_EQ(overlap({{"-o", dir.path() / "other.json"}}, inputs), "") << "a new file";
    EXPECT_EQ(overlap({{"-o", "/dev/null"}}, {{"the result", "/dev/null"}}), "")
        << "a device is written in place, never replaced";
    EXPECT_EQ(overlap({{"-o", ""}}, inputs), "") << "an empty path is no output";
    EXPECT_EQ(test::read_file(input), "{}");
}

TEST(OutputFile, TwoOutputsNeverNameOneFile) {
    test::TempDir dir;
    const auto why = overlap({{"-o", dir.path() / "a.json"},
                              {"--json", dir.path() / "b.json"},
                              {"--against-json", dir.path() / "." / "a.json"}},
                             {});
    EXPECT_NE(why.find("-o " + (dir.path() / "a.json").string() + " and --against-json"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("name the same file"), std::string::npos) << why;
    EXPECT_EQ(overlap({{"-o", dir.path() / "a.json"}, {"--json", ""}}, {}), "");
}

// chattr +a on a directory lets the temporary be created but never renamed or removed.
TEST(OutputFile, AppendOnlyDirectoryIsRefusedUpFront) {
    test::TempDir dir;
    const auto sub = dir.path() / "log";
    std::filesystem::create_directory(sub);
    const std::string chattr = "chattr +a '" + sub.string() + "' 2>/dev/null";
    if (std::system(chattr.c_str()) != 0)
        GTEST_SKIP() << "chattr +a needs root and a file system that supports it";
    const auto file = sub / "out.csv";
    std::string why;
    try {
        check_writable(file);
    } catch (const std::runtime_error& e) {
        why = e.what();
    }
    EXPECT_NE(why.find("is append-only (chattr +a)"), std::string::npos) << why;
    EXPECT_THROW(write_output_file(file, "x"), std::runtime_error);
    EXPECT_THROW(write_new_output_file(sub, "r", ".json", "x"), std::runtime_error);
    EXPECT_EQ(entries(sub), 0u) << "nothing left that could never be removed";
    ASSERT_EQ(std::system(("chattr -a '" + sub.string() + "'").c_str()), 0);
}

TEST(OutputFile, NewFilesNeverReplaceOneAnother) {
    test::TempDir dir;
    std::set<std::filesystem::path> written;
    for (int i = 0; i < 3; ++i)
        written.insert(write_new_output_file(dir.path(), "run", ".json", std::to_string(i)));
    EXPECT_EQ(written.size(), 3u);
    EXPECT_EQ(test::read_file(dir.path() / "run.json"), "0");
    EXPECT_EQ(test::read_file(dir.path() / "run-2.json"), "1");
    EXPECT_EQ(test::read_file(dir.path() / "run-3.json"), "2");
    EXPECT_EQ(entries(dir.path()), 3u) << "no temporary left behind";
}

}  // namespace
}  // namespace perfgauge::harness
