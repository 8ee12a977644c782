// Where valgrind is looked up, and what a bad PERFGAUGE_VALGRIND is called.
#include <stdlib.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>

#include "../support/temp_dir.hpp"
#include "perfgauge/pmu/callgrind.hpp"

namespace perfgauge::pmu {
namespace {

// Sets PERFGAUGE_VALGRIND for one test and puts the previous value back.
class ValgrindOverride {
  public:
    explicit ValgrindOverride(const std::string& value) {
        if (const char* old = std::getenv("PERFGAUGE_VALGRIND"))
            old_ = old;
        ::setenv("PERFGAUGE_VALGRIND", value.c_str(), 1);
    }
    ~ValgrindOverride() {
        if (old_.empty())
            ::unsetenv("PERFGAUGE_VALGRIND");
        else
            ::setenv("PERFGAUGE_VALGRIND", old_.c_str(), 1);
    }

  private:
    std::string old_;
};

TEST(ValgrindLookup, MissingOverrideIsNamedNotSearchedOnPath) {
    ValgrindOverride env("/nonexistent");
    const auto lookup = locate_valgrind();
    EXPECT_FALSE(lookup.path.has_value());
    EXPECT_TRUE(lookup.from_environment);
    EXPECT_EQ(lookup.problem.rfind("PERFGAUGE_VALGRIND=/nonexistent: no such file", 0), 0u)
        << lookup.problem;
    EXPECT_EQ(lookup.problem.find("not found on PATH"), std::string::npos) << lookup.problem;
}

TEST(ValgrindLookup, NonExecutableAndDirectoryOverridesAreNamed) {
    test::TempDir dir;
    const auto file = dir.path() / "valgrind";
    std::ofstream(file) << "#!/bin/sh\n";
    ::chmod(file.c_str(), 0644);
    EXPECT_EQ(valgrind_override_problem(file.string()),
              "PERFGAUGE_VALGRIND=" + file.string() + ": not executable");
    EXPECT_EQ(valgrind_override_problem(dir.path().string()),
              "PERFGAUGE_VALGRIND=" + dir.path().string() + ": a directory, not a program");
    ::chmod(file.c_str(), 0755);
    EXPECT_FALSE(valgrind_override_problem(file.string()).has_value());
    ValgrindOverride env(file.string());
    EXPECT_EQ(locate_valgrind().path, file.string());
}

TEST(ValgrindLookup, VersionOfTheInstalledValgrind) {
    const auto lookup = locate_valgrind();
    if (!lookup.path)
        GTEST_SKIP() << lookup.problem;
    const auto version = valgrind_version(*lookup.path);
    ASSERT_TRUE(version.has_value());
    EXPECT_EQ(version->rfind("valgrind-", 0), 0u) << *version;
    EXPECT_FALSE(valgrind_version("/nonexistent").has_value());
}

}  // namespace
}  // namespace perfgauge::pmu
