// End-to-end: what test/hostile/history_trial.py found failing in `perfgauge history` (issue 49),
// one test per failure class: a location named like a URI made a local file (destructive), an
// interrupted add stored runs it never said (silent loss), a report onto a full disk left its
// directory (orphan), an add to a read-only store and a forget of a missing run said nothing
// useful (misleading message), an export to a FIFO nobody reads ignored an interrupt's message
// and an add waiting for another writer's lock held the interrupt (hang).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "../harness/history/postgres_server.hpp"
#include "../support/cli.hpp"
#include "../support/full_filesystem.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

// A Google Benchmark result of `benchmarks` benchmarks on node-a, three repetitions each.
std::string gbench(int benchmarks) {
    std::string entries;
    for (int b = 0; b < benchmarks; ++b)
        for (int r = 0; r < 3; ++r)
            entries += (entries.empty() ? "" : ",") +
                       ("{\"name\": \"BM_" + std::to_string(b) + "\", \"run_name\": \"BM_" +
                        std::to_string(b) +
                        "\", \"run_type\": \"iteration\", \"repetitions\": 3, "
                        "\"repetition_index\": " +
                        std::to_string(r) +
                        ", \"iterations\": 100, \"real_time\": 2.0, \"cpu_time\": 2.0, "
                        "\"time_unit\": \"ns\"}");
    return "{\"context\": {\"date\": \"2026-12-07T12:00:00+00:00\", \"host_name\": \"node-a\"}, "
           "\"benchmarks\": [" +
           entries + "]}";
}

std::size_t count(const std::string& text, const std::string& piece) {
    std::size_t n = 0;
    for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1))
        ++n;
    return n;
}

// The runs `list` shows.
std::size_t stored_runs(const std::string& db) {
    const auto r = perfgauge({"history", "list", "--db", db});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::size_t n = 0;
    std::size_t line = r.out.find('\n');
    while (line != std::string::npos && line + 1 < r.out.size()) {
        const auto next = r.out.find('\n', line + 1);
        const auto text = r.out.substr(line + 1, next - line - 1);
        n += text.size() > 5 && std::isdigit(static_cast<unsigned char>(text[4]));
        line = next;
    }
    return n;
}

// Destructive: a location named like a URI was a SQLite path, and add made it in the current
// directory ("jdbc:postgresql:/h/db"); refused now, nothing made.
TEST(HistoryHostile, ALocationNamedLikeAUriIsRefusedAndMakesNothing) {
    TempDir dir;
    const auto result = dir.write("r.json", gbench(1)).string();
    const auto cwd = dir.path() / "cwd";
    fs::create_directory(cwd);
    for (const std::string location :
         {"jdbc:postgresql://h/db", "sqlite:x.db", " postgresql://h/db", "x.db ", "/a://b"}) {
        for (const auto& sub : {std::vector<std::string>{"add", result}, {"list"}}) {
            ProcessOptions options;
            options.working_directory = cwd;
            auto args = sub;
            args.insert(args.begin(), "history");
            args.insert(args.end(), {"--db", location});
            const auto r = perfgauge_with(options, args);
            EXPECT_EQ(r.exit_code, 2) << location << " " << sub[0] << "\n" << r.err;
            EXPECT_NE(r.err.find("postgresql://... or postgres://..."), std::string::npos) << r.err;
            EXPECT_TRUE(fs::is_empty(cwd)) << location << " " << sub[0];
        }
    }
}

class HistoryHostileEngines : public ::testing::TestWithParam<bool> {
  protected:
    std::string db() {
        return GetParam() ? shared_postgres().new_database() : (dir_.path() / "h.db").string();
    }
    TempDir dir_;
};

// Silent loss: an interrupted add had stored runs it never said (its lines came at the end).
// Now the file in progress finishes, every run stored is said, the others are named, 130.
TEST_P(HistoryHostileEngines, AnInterruptedAddSaysEveryRunStoredAndNamesTheRest) {
    const auto store = db();
    ASSERT_EQ(
        perfgauge({"history", "add", dir_.write("first.json", gbench(1)).string(), "--db", store})
            .exit_code,
        0);
    std::vector<std::string> args = {"history", "add"};
    for (int i = 0; i < 30; ++i)
        args.push_back(dir_.write("f" + std::to_string(i) + ".json", gbench(150)).string());
    args.insert(args.end(), {"--db", store});
    ProcessOptions options;
    options.signal = SIGINT;
    // Once the add has stored a run of its own: in its loop over the files, not before.
    options.signal_when = [&] { return stored_runs(store) >= 2; };
    const auto r = perfgauge_with(options, args);
    ASSERT_EQ(r.exit_code, 130) << r.err;
    const auto said = count(r.out, "added run ");
    EXPECT_EQ(stored_runs(store), 1 + said) << r.out;
    EXPECT_GE(said, 1u);
    ASSERT_LT(said, 30u) << "the add finished before the interrupt";
    EXPECT_NE(r.err.find("interrupted by SIGINT: " + std::to_string(said) + " of 30 files stored"),
              std::string::npos)
        << r.err;
    // The next file is the first not stored; every one after it is named too.
    for (std::size_t i = said; i < 30; ++i)
        EXPECT_NE(r.err.find("/f" + std::to_string(i) + ".json"), std::string::npos) << i;
    EXPECT_EQ(r.err.find("/f" + std::to_string(said - 1) + ".json"), std::string::npos);
}

// The pid of the perfgauge whose command line names `marker`, 0 when none runs.
pid_t perfgauge_naming(const std::string& marker) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        std::ifstream cmdline(e.path() / "cmdline");
        const std::string words((std::istreambuf_iterator<char>(cmdline)), {});
        if (words.find(marker) != std::string::npos && words.find("perfgauge") != std::string::npos)
            return static_cast<pid_t>(std::atoi(e.path().filename().c_str()));
    }
    return 0;
}

// Whether that perfgauge handles SIGINT (its SigCgt mask): add does while it stores the files.
bool handles_sigint(const std::string& marker) {
    const pid_t pid = perfgauge_naming(marker);
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; pid && std::getline(status, line);)
        if (line.starts_with("SigCgt:"))
            return (std::stoull(line.substr(7), nullptr, 16) >> (SIGINT - 1)) & 1;
    return false;
}

// Hang: with the write lock held by another writer, an interrupted add waited for it (SQLite's
// 120 s busy timeout; on PostgreSQL as long as the other held it) since its handler kept the
// interrupt from killing it. The wait now gives way: nothing stored, the file named, 130.
TEST_P(HistoryHostileEngines, AnInterruptEndsAnAddsWaitForTheWriteLock) {
    const auto store = db();
    ASSERT_EQ(perfgauge({"history", "add", dir_.write("a.json", gbench(1)).string(), "--db", store})
                  .exit_code,
              0);
    // The lock, held as another perfgauge's add holds it.
    std::unique_ptr<PGconn, decltype(&PQfinish)> pg(nullptr, &PQfinish);
    sqlite3* lite = nullptr;
    if (GetParam()) {
        pg.reset(PQconnectdb(store.c_str()));
        PQclear(PQexec(pg.get(), "SELECT pg_advisory_lock(4040404040)"));
    } else {
        ASSERT_EQ(sqlite3_open(store.c_str(), &lite), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(lite, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    }
    const auto waiting = dir_.write("waiting-for-the-lock.json", gbench(1)).string();
    ProcessOptions options;
    options.signal = SIGINT;
    options.signal_when = [&] { return handles_sigint("waiting-for-the-lock"); };
    const auto r = perfgauge_with(options, {"history", "add", waiting, "--db", store});
    if (lite) {
        sqlite3_exec(lite, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(lite);
    }
    pg.reset();
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGINT: 0 of 1 files stored (above); not stored, add "
                         "them again: " +
                         waiting),
              std::string::npos)
        << r.err;
    EXPECT_EQ(stored_runs(store), 1u);
}

// Misleading message: forget of a run that is not stored said only "forgot 0 runs".
TEST_P(HistoryHostileEngines, ForgetOfARunNotStoredNamesIt) {
    const auto store = db();
    ASSERT_EQ(perfgauge({"history", "add", dir_.write("a.json", gbench(1)).string(), "--db", store})
                  .exit_code,
              0);
    const auto r = perfgauge({"history", "forget", "1", "4242", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.out.find("forgot 1 run"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("run 4242: not in"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("history list shows the runs"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(SqliteAndPostgres, HistoryHostileEngines, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "PostgreSQL" : "SQLite"; });

// Orphan: a report that could not be written on a full disk left the directory it made.
TEST(HistoryHostile, AReportOntoAFullDiskLeavesNoDirectory) {
    FullFilesystem full;
    if (!full.available())
        GTEST_SKIP() << full.why_not();
    TempDir dir;
    const auto store = (dir.path() / "h.db").string();
    ASSERT_EQ(perfgauge({"history", "add", dir.write("a.json", gbench(1)).string(), "--db", store})
                  .exit_code,
              0);
    const auto report = full.path() / "new" / "report";
    const auto r = perfgauge({"history", "report", "-o", report.string(), "--db", store});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(full.path() / "new"));
}

// Misleading message: an add to a store on a read-only mount said "unable to open database
// file"; now it says the file system is read-only, what still works and what to do.
TEST(HistoryHostile, AnAddToAReadOnlyStoreSaysWhy) {
    TempDir dir;
    const auto mount_point = dir.path() / "ro";
    fs::create_directory(mount_point);
    if (::mount("tmpfs", mount_point.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m") != 0)
        GTEST_SKIP() << "cannot mount a tmpfs (needs root)";
    const auto store = (mount_point / "h.db").string();
    const auto result = dir.write("a.json", gbench(1)).string();
    ASSERT_EQ(perfgauge({"history", "add", result, "--db", store}).exit_code, 0);
    ASSERT_EQ(::mount(nullptr, mount_point.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0);
    const auto r = perfgauge({"history", "add", result, "--db", store});
    const auto listed = perfgauge({"history", "list", "--db", store});
    ::umount2(mount_point.c_str(), MNT_DETACH);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("cannot write the history store " + store), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("read-only file system"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--db names another"), std::string::npos) << r.err;
    EXPECT_EQ(listed.exit_code, 0) << listed.err;  // reading still works
}

// Misleading message: an add to a read-only PostgreSQL database quoted the server's error and
// the SQL, naming neither the store nor what to do.
TEST(HistoryHostile, AnAddToAReadOnlyPostgreSQLDatabaseSaysWhyNamingTheStore) {
    TempDir dir;
    const auto store = shared_postgres().new_database();
    const auto result = dir.write("a.json", gbench(1)).string();
    ASSERT_EQ(perfgauge({"history", "add", result, "--db", store}).exit_code, 0);
    const auto name = store.substr(store.find("///") + 3, store.find('?') - store.find("///") - 3);
    std::unique_ptr<PGconn, decltype(&PQfinish)> admin(PQconnectdb(store.c_str()), &PQfinish);
    PQclear(PQexec(admin.get(),
                   ("ALTER DATABASE " + name + " SET default_transaction_read_only = on").c_str()));
    const auto r = perfgauge({"history", "add", result, "--db", store});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("history store " + store + ": cannot execute"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("the database is read-only"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("(in: "), std::string::npos) << r.err;
    EXPECT_EQ(perfgauge({"history", "list", "--db", store}).exit_code, 0);
}

// Misleading message: `add -` said "cannot read '-': No such file or directory".
TEST(HistoryHostile, AnAddOfDashPointsToDevStdin) {
    TempDir dir;
    const auto r = perfgauge({"history", "add", "-", "--db", (dir.path() / "h.db").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot read '-'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("standard input is /dev/stdin"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "h.db"));
}

// Misleading message: `forget -1` was "unrecognised option '-1'", `check --min-change 5%` "the
// argument ('5%') for option '--min-change' is invalid".
TEST(HistoryHostile, ANegativeRunIdAndAPercentSignAreSaidForWhatTheyAre) {
    TempDir dir;
    const auto store = (dir.path() / "h.db").string();
    ASSERT_EQ(perfgauge({"history", "add", dir.write("a.json", gbench(1)).string(), "--db", store})
                  .exit_code,
              0);
    auto r = perfgauge({"history", "forget", "-1", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("'-1' is not a run id (a positive integer)"), std::string::npos) << r.err;
    for (const auto& args : {std::vector<std::string>{"--min-change", "5%"}, {"--min-change=5%"}}) {
        std::vector<std::string> command = {"history", "check", "--db", store};
        command.insert(command.end(), args.begin(), args.end());
        r = perfgauge(command);
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(r.err.find("--min-change '5%': give the number alone (5 means 5%)"),
                  std::string::npos)
            << r.err;
    }
}

// Whether a process whose command line names `path` is blocked opening it (the syscall it
// waits in, /proc/PID/syscall, is openat): the moment an interrupt must end the wait.
bool blocked_opening(const std::string& path) {
#if defined(__x86_64__)
    constexpr int kOpenat = 257;
#elif defined(__aarch64__)
    constexpr int kOpenat = 56;
#else
    constexpr int kOpenat = -1;
#endif
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        std::ifstream cmdline(e.path() / "cmdline");
        const std::string words((std::istreambuf_iterator<char>(cmdline)), {});
        if (words.find(path) == std::string::npos || words.find("perfgauge") == std::string::npos)
            continue;
        std::ifstream syscall(e.path() / "syscall");
        int number = -2;
        if (syscall >> number && number == kOpenat)
            return true;
    }
    return false;
}

// Hang: an export to a FIFO nobody reads waited for a reader; an interrupt killed it without a
// word. Now it ends the wait, says that nothing was written, 128+N.
TEST(HistoryHostile, AnExportToAnUnreadFifoEndsOnAnInterruptAndSaysSo) {
    TempDir dir;
    const auto store = (dir.path() / "h.db").string();
    const auto result = dir.write("a.json", gbench(1)).string();
    ASSERT_EQ(perfgauge({"history", "add", result, "--db", store}).exit_code, 0);
    const auto fifo = (dir.path() / "out.fifo").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const auto& args :
         {std::vector<std::string>{"history", "export", "-o", fifo, "--db", store},
          {"export", result, "--format", "bmf", "-o", fifo}}) {
        ProcessOptions options;
        options.signal = SIGTERM;
        options.signal_program_only = true;
        options.signal_when = [&] { return blocked_opening(fifo); };
        const auto r = perfgauge_with(options, args);
        EXPECT_EQ(r.exit_code, 128 + SIGTERM) << args[0] << " " << r.err;
        EXPECT_NE(
            r.err.find("interrupted by SIGTERM while writing " + fifo + ": nothing was written"),
            std::string::npos)
            << r.err;
    }
}

}  // namespace
}  // namespace perfgauge::test
