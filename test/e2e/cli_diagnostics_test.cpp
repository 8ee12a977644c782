// End-to-end: diagnostics a user sees when something is missing or mistyped (raw events,
// software events libpfm4 lacks, valgrind, doctor, tracepoints).
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text.hpp"
#include "perfgauge/pmu/pmu_format.hpp"
#include "perfgauge/pmu/tracefs.hpp"

namespace perfgauge::test {
namespace {

TEST(CliDiagnostics, MalformedRawEventSaysWhatIsWrongWithTheHex) {
    const auto r = perfgauge({"events", "--resolve", "r00zz"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "raw event 'r00zz': 'zz' is not hexadecimal")) << r.err;
    const auto bare = perfgauge({"events", "--resolve", "r"});
    EXPECT_EQ(bare.exit_code, 2);
    EXPECT_TRUE(contains(bare.err, "missing")) << bare.err;
    const auto long_hex = perfgauge({"events", "--resolve", "r10000000000000000"});
    EXPECT_EQ(long_hex.exit_code, 2);
    EXPECT_TRUE(contains(long_hex.err, "at most 16")) << long_hex.err;
}

// The ENCODING column must describe what is opened: software events count the kernel too.
TEST(CliDiagnostics, ResolvedEncodingMatchesWhatIsOpened) {
    const auto r = perfgauge({"events", "--resolve", "task-clock,perf_raw::r00c0", "-v"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "PERF_COUNT_SW_TASK_CLOCK:u=1:k=1")) << r.out;
    EXPECT_TRUE(contains(r.out, "perf_raw::rc0:")) << r.out;
    EXPECT_TRUE(contains(r.out, "attr of task-clock: ")) << r.out;
    for (std::size_t start = 0, end; start < r.out.size(); start = end + 1) {
        end = std::min(r.out.find('\n', start), r.out.size());
        if (r.out.compare(start, 7, "  EVENT") == 0) {
            EXPECT_LT(end - start, 200u) << "the table is padded by the attr dump";
        }
    }
}

// All 64 bits parse; whether they resolve is the core PMU's format's to say: where this machine
// has none (the x86 VM: no `cpu` PMU), nothing is known to refuse them.
TEST(CliDiagnostics, FullWidthRawEventParsesAndTheFormatDecides) {
    const auto r = perfgauge({"events", "--resolve", "rffffffffffffffff"});
    if (!pmu::raw_event_formats(pmu::kPmuDevicesDirectory).empty()) {
        EXPECT_EQ(r.exit_code, 2) << r.out;
        EXPECT_TRUE(contains(r.err, "not declare")) << r.err;
        return;
    }
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "0xffffffffffffffff")) << r.out;
    EXPECT_TRUE(contains(r.out, "4 (raw)")) << r.out;
}

TEST(CliDiagnostics, PerfSoftwareEventsAreListed) {
    const auto r = perfgauge({"events", "faults"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "alignment-faults")) << r.out;
    EXPECT_TRUE(contains(r.out, "emulation-faults")) << r.out;
    const auto all = perfgauge({"events", "--no-probe"});
    EXPECT_TRUE(contains(all.out, "bpf-output")) << all.out;
    EXPECT_TRUE(contains(all.out, "dummy")) << all.out;
}

// Software events need no PMU: these open and count on any Linux machine.
TEST(CliDiagnostics, PerfSoftwareEventsCountAProcess) {
    const auto r = perfgauge({"stat", "-e", "alignment-faults,emulation-faults,dummy", "--format",
                              "json", "--", "true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Like perf stat, the report goes to stderr, after the command's own output.
    const auto j = nlohmann::json::parse(r.err.substr(r.err.find('{')));
    ASSERT_EQ(j["events"].size(), 3u) << r.err;
    for (const auto& e : j["events"]) {
        ASSERT_FALSE(e["value"].is_null()) << e.dump();
        // x86 fixes unaligned accesses in hardware and `true` emulates nothing: all zero.
        EXPECT_EQ(e["value"].get<double>(), 0.0) << e.dump();
    }
}

ProcessResult with_valgrind(const std::string& value, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/usr/bin/env", "PERFGAUGE_VALGRIND=" + value,
                                     PERFGAUGE_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv);
}

TEST(CliDiagnostics, BadValgrindOverrideIsNamedBySimAndDoctor) {
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "a sanitized perfgauge cannot simulate at all, whatever the variable says";
    const auto sim = with_valgrind(
        "/nonexistent", {"stat", "--backend", "sim", "-e", "instructions", "--", "true"});
    EXPECT_EQ(sim.exit_code, 1);
    EXPECT_TRUE(contains(
        sim.err, "--backend sim needs valgrind: PERFGAUGE_VALGRIND=/nonexistent: no such file"))
        << sim.err;
    EXPECT_FALSE(contains(sim.err, "not found on PATH")) << sim.err;
    TempDir dir;
    const auto not_executable = dir.write("valgrind", "#!/bin/sh\n");
    std::filesystem::permissions(not_executable, std::filesystem::perms(0644));
    const auto doctor = with_valgrind(not_executable.string(), {"doctor"});
    EXPECT_TRUE(contains(doctor.out, "simulation: unavailable: PERFGAUGE_VALGRIND=" +
                                         not_executable.string() + ": not executable"))
        << doctor.out;
}

TEST(CliDiagnostics, DoctorSaysWhatItTriedAndWhatLibpfmAndValgrindAreHere) {
    const auto r = perfgauge({"doctor"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "perf_event_paranoid: ")) << r.out;
    EXPECT_TRUE(contains(r.out, "tried as this process: task-clock on itself, user space: opened"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "] libpfm4: 4.")) << r.out;
    EXPECT_TRUE(contains(r.out, "] simulation: ")) << r.out;
}

TEST(CliDiagnostics, TracepointsAreOpenedOnceUnlessAsked) {
    if (!pmu::Tracefs::locate())
        GTEST_SKIP() << "tracefs is not mounted here";
    const auto r = perfgauge({"events", "--tracepoints", "sched_switch"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "were not opened one by one")) << r.out;
    EXPECT_TRUE(contains(r.out, "sched:sched_switch")) << r.out;
    const auto lonely = perfgauge({"events", "--probe-tracepoints"});
    EXPECT_EQ(lonely.exit_code, 2);
    EXPECT_TRUE(contains(lonely.err, "goes with --tracepoints")) << lonely.err;
}

// A terminal on stderr gets a progress line; a pipe gets none (r.err above is a pipe).
TEST(CliDiagnostics, TracepointProbingShowsProgressOnATerminal) {
    if (!pmu::Tracefs::locate() || !std::filesystem::exists("/usr/bin/script"))
        GTEST_SKIP() << "needs tracefs and script(1) for a pseudo-terminal";
    const std::string command =
        std::string(PERFGAUGE_CLI_PATH) + " events --tracepoints --probe-tracepoints sched_switch";
    const auto r = run_process({"/usr/bin/script", "-qfec", command, "/dev/null"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "\rprobing tracepoints: ")) << r.out;
    EXPECT_FALSE(contains(r.out, "were not opened one by one")) << r.out;
    const auto piped =
        perfgauge({"events", "--tracepoints", "--probe-tracepoints", "sched_switch"});
    EXPECT_FALSE(contains(piped.err, "probing tracepoints")) << piped.err;
}

// Unmounting tracefs in a private mount namespace leaves the machine's mounts alone.
TEST(CliDiagnostics, MissingTracefsIsNoted) {
    if (::geteuid() != 0 || !std::filesystem::exists("/usr/bin/unshare"))
        GTEST_SKIP() << "needs root and unshare(1) to hide tracefs in a private mount namespace";
    const std::string script =
        "umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null; "
        "umount /sys/kernel/debug 2>/dev/null; grep -qE ' (tracefs|debugfs) ' /proc/mounts && "
        "exit 77; exec " +
        std::string(PERFGAUGE_CLI_PATH) + " events --tracepoints task-clock";
    const auto r = run_process({"/usr/bin/unshare", "-m", "/bin/sh", "-c", script});
    if (r.exit_code == 77 || contains(r.err, "unshare failed"))
        GTEST_SKIP() << "tracefs could not be hidden: " << r.err;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "no tracefs found")) << r.err;
    EXPECT_TRUE(contains(r.err, "/sys/kernel/debug/tracing")) << r.err;
    EXPECT_TRUE(contains(r.err, "mount -t tracefs nodev /sys/kernel/tracing")) << r.err;
    EXPECT_TRUE(contains(r.out, "task-clock")) << r.out;
}

}  // namespace
}  // namespace perfgauge::test
