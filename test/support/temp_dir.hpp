// A uniquely named directory under the system temp dir, removed with everything in it.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <stdlib.h>

namespace perfgauge::test {

/// Page faults per touched page: ASan's shadow memory adds one fault per 8 touched pages, in the
/// test binaries and in the workload they run (both are built with the same flags). GCC says
/// so with __SANITIZE_ADDRESS__, clang 14 (the sanitizer build's compiler) with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define PERFGAUGE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PERFGAUGE_TEST_ASAN 1
#endif
#endif
#if defined(PERFGAUGE_TEST_ASAN)
inline constexpr double kFaultsPerTouchedPage = 1.125;
#else
inline constexpr double kFaultsPerTouchedPage = 1.0;
#endif

/// The whole content of a file ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

class TempDir {
  public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "perfgauge-test-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

    /// Writes `content` to `relative` (creating parent directories) and returns its path.
    std::filesystem::path write(const std::string& relative, const std::string& content) const {
        const auto file = path_ / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file) << content;
        return file;
    }

  private:
    std::filesystem::path path_;
};

}  // namespace perfgauge::test
