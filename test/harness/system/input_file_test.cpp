#include "perfgauge/harness/input_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "../../support/temp_dir.hpp"

namespace perfgauge::harness {
namespace {

std::string failure(const std::filesystem::path& path, std::size_t limit = kMaxInputFileBytes) {
    try {
        read_input_file(path, limit);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(InputFile, ReadsARegularFileAfreshEachTime) {
    test::TempDir dir;
    const auto file = dir.path() / "r.json";
    std::ofstream(file) << "first";
    EXPECT_EQ(read_input_file(file), "first");
    std::ofstream(file) << "second";
    EXPECT_EQ(read_input_file(file), "second");
}

TEST(InputFile, SizeIsBoundedForFilesAndStreams) {
    test::TempDir dir;
    const auto file = dir.path() / "big.json";
    std::ofstream(file) << std::string(101, 'x');
    EXPECT_NE(failure(file, 100).find("holds more than"), std::string::npos) << failure(file, 100);
    EXPECT_EQ(read_input_file(file, 101).size(), 101u);
    // A device with no end: read up to the limit, then refused.
    EXPECT_NE(failure("/dev/zero", 1 << 20).find("cannot read '/dev/zero': it holds more than"),
              std::string::npos)
        << failure("/dev/zero", 1 << 20);
    // A sparse file far above the limit is refused from its size, without reading it.
    const auto sparse = dir.path() / "sparse.json";
    std::ofstream(sparse) << "";
    ASSERT_EQ(::truncate(sparse.c_str(), static_cast<off_t>(kMaxInputFileBytes) + 1), 0);
    EXPECT_NE(failure(sparse).find("holds more than 256 MB"), std::string::npos) << failure(sparse);
}

TEST(InputFile, DirectoryAndMissingFileAreNamed) {
    test::TempDir dir;
    EXPECT_EQ(failure(dir.path()),
              "cannot read '" + dir.path().string() + "': it is a directory, not a result file");
    EXPECT_EQ(
        failure(dir.path() / "none.json"),
        "cannot read '" + (dir.path() / "none.json").string() + "': No such file or directory");
    EXPECT_NE(failure(""), "");
}

TEST(InputFile, AStreamIsReadExactlyOnce) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const std::string text = "{\"benchmarks\": []}";
    ASSERT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(fds[1]);
    const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
    EXPECT_EQ(read_input_file(path), text);
    // Reading the pipe again would find it empty: the second caller gets what the first read.
    EXPECT_EQ(read_input_file(path), text);
    ::close(fds[0]);
}

}  // namespace
}  // namespace perfgauge::harness
