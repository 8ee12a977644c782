// perfgauge run --processes without the binary: the measuring processes are a function here
// that writes the result a real one would, so shares, seeds, budgets, files, merging, failures
// and interruptions are checked exactly.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgauge/harness/process_fanout.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/stage_failures.hpp"
#include "result_file.hpp"

namespace perfgauge::harness {
namespace {

// What measuring process `index` reports: every benchmark named, samples that say who took
// them (index + 1 ns per item), `rounds` of them.
RunResult part(std::size_t index, std::size_t rounds, const std::vector<std::string>& names) {
    RunResult r;
    r.repetitions = rounds;
    for (const auto& name : names) {
        BenchmarkResult b;
        b.name = name;
        b.items_per_iteration = 1000;
        b.iterations = 10;
        b.ns_per_item.assign(rounds, static_cast<double>(index + 1));
        b.raw_ns_per_item = b.ns_per_item;
        r.benchmarks.push_back(b);
    }
    return r;
}

const std::vector<std::string> kNames = {"a", "b"};

// `processes` processes sharing `repetitions` rounds; perfgauge is interrupted by `signal` once
// it is not 0.
FanOut fan_out_of(std::size_t processes, std::size_t repetitions, const int& signal) {
    FanOut fan_out;
    fan_out.processes = processes;
    fan_out.repetitions = repetitions;
    fan_out.interrupt_signal = [&signal] { return signal; };
    return fan_out;
}

const int kNoSignal = 0;

TEST(ProcessFanOut, RoundsAreSharedTheFirstProcessesTakingTheRest) {
    EXPECT_EQ(repetitions_per_process(10, 3), (std::vector<std::size_t>{4, 3, 3}));
    EXPECT_EQ(repetitions_per_process(11, 3), (std::vector<std::size_t>{4, 4, 3}));
    EXPECT_EQ(repetitions_per_process(3, 3), (std::vector<std::size_t>{1, 1, 1}));
    EXPECT_EQ(repetitions_per_process(5, 1), (std::vector<std::size_t>{5}));
    EXPECT_THROW(repetitions_per_process(2, 3), std::invalid_argument);
    EXPECT_THROW(repetitions_per_process(5, 0), std::invalid_argument);
    try {
        repetitions_per_process(2, 3);
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(),
                     "-r/--repeat (2) must be at least --processes (3): each process takes a "
                     "share of the rounds");
    }
}

TEST(ProcessFanOut, EachProcessGetsItsShareSeedBudgetAndFileAndTheResultsAreMerged) {
    FanOut fan_out = fan_out_of(3, 10, kNoSignal);
    fan_out.seed = 7;
    fan_out.max_time_s = 0.3;
    std::vector<ProcessShare> asked;
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare& share) {
        asked.push_back(share);
        write(share.result_path, part(share.index, share.repetitions, kNames));
        return ExitStatus{};
    });
    ASSERT_EQ(asked.size(), 3u);
    std::set<std::filesystem::path> files;
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(asked[i].index, i);
        EXPECT_EQ(asked[i].processes, 3u);
        EXPECT_EQ(asked[i].seed, 7 + i);
        EXPECT_DOUBLE_EQ(asked[i].max_time_s, 0.1);
        EXPECT_EQ(asked[i].result_path.parent_path(), asked[0].result_path.parent_path());
        files.insert(asked[i].result_path);
    }
    EXPECT_EQ(asked[0].repetitions, 4u);
    EXPECT_EQ(asked[1].repetitions, 3u);
    EXPECT_EQ(asked[2].repetitions, 3u);
    EXPECT_EQ(files.size(), 3u) << "each process writes a file of its own";
    // The private files go with the fan-out.
    EXPECT_FALSE(std::filesystem::exists(asked[0].result_path.parent_path()));

    ASSERT_EQ(merged.benchmarks.size(), 2u);
    const auto& a = merged.benchmarks[0];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.ns_per_item, (std::vector<double>{1, 1, 1, 1, 2, 2, 2, 3, 3, 3}));
    EXPECT_EQ(a.processes, (std::vector<std::size_t>{0, 0, 0, 0, 1, 1, 1, 2, 2, 2}));
    EXPECT_TRUE(merged.interrupted_by.empty());
}

// Whether one of `warnings` contains `text`.
bool warned(const RunResult& r, const std::string& text) {
    for (const auto& w : r.warnings) {
        if (w.find(text) != std::string::npos)
            return true;
    }
    return false;
}

// A measuring process that dies (a signal, an exit status, no result file) loses its own
// samples only: the later processes still run, the others' samples are merged, and the result
// and the failed stages say which process was lost and why.
TEST(ProcessFanOut, AFailedProcessLosesOnlyItsOwnSamples) {
    clear_stage_failures();
    const FanOut fan_out = fan_out_of(4, 8, kNoSignal);
    std::size_t started = 0;
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare& share) {
        ++started;
        ExitStatus status;
        if (share.index == 1) {  // killed before it saved anything
            status.signaled = true;
            status.code = SIGKILL;
            return status;
        }
        write(share.result_path, part(share.index, share.repetitions, kNames));
        if (share.index == 2)
            status.code = 3;  // wrote a file, but said it failed: not trusted
        return status;
    });
    EXPECT_EQ(started, 4u) << "the processes after a failed one still run";
    ASSERT_EQ(merged.benchmarks.size(), 2u);
    // Processes 1 and 4 (indices 0 and 3), 2 rounds each.
    EXPECT_EQ(merged.benchmarks[0].ns_per_item, (std::vector<double>{1, 1, 4, 4}));
    EXPECT_EQ(merged.benchmarks[1].ns_per_item, (std::vector<double>{1, 1, 4, 4}));
    EXPECT_TRUE(warned(merged, "measuring process 2 of 4 killed by signal 9 (SIGKILL)")) << [&] {
        std::string all;
        for (const auto& w : merged.warnings)
            all += w + "\n";
        return all;
    }();
    EXPECT_TRUE(warned(merged, "measuring process 3 of 4 exited with 3"));
    EXPECT_TRUE(warned(merged, "2 of 4 measuring processes lost"));
    EXPECT_EQ(stage_failures(),
              (std::vector<std::string>{"measuring process 2 of 4", "measuring process 3 of 4"}));
    EXPECT_TRUE(merged.interrupted_by.empty());
    clear_stage_failures();
}

TEST(ProcessFanOut, AProcessWhoseResultCannotBeReadIsLostLikeAFailedOne) {
    clear_stage_failures();
    const FanOut fan_out = fan_out_of(2, 2, kNoSignal);
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare& share) {
        if (share.index == 0)
            std::ofstream(share.result_path) << "{\"truncated\": ";
        else
            write(share.result_path, part(share.index, share.repetitions, kNames));
        return ExitStatus{};
    });
    ASSERT_EQ(merged.benchmarks.size(), 2u);
    EXPECT_EQ(merged.benchmarks[0].ns_per_item, (std::vector<double>{2}));
    EXPECT_TRUE(warned(merged, "measuring process 1 of 2 left no readable result"));
    for (const auto& w : merged.warnings)
        EXPECT_EQ(w.find("perfgauge-run"), std::string::npos) << "a scratch path: " << w;
    EXPECT_EQ(stage_failures(), (std::vector<std::string>{"measuring process 1 of 2"}));
    clear_stage_failures();
}

TEST(ProcessFanOut, WhenEveryProcessFailsTheRunFailsNamingTheFirst) {
    clear_stage_failures();
    const FanOut fan_out = fan_out_of(3, 3, kNoSignal);
    std::size_t started = 0;
    try {
        measure_in_processes(fan_out, [&](const ProcessShare&) {
            ++started;
            ExitStatus status;
            status.code = 3;
            return status;
        });
        FAIL() << "no process measured anything: the run must fail";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "every measuring process failed; measuring process 1 of 3 exited with 3");
    }
    EXPECT_EQ(started, 3u);
    clear_stage_failures();
}

TEST(ProcessFanOut, AnInterruptionKeepsWhatWasMeasuredAndRecordsTheSignal) {
    // Interrupted while process 2 of 3 ran: it saved every benchmark's samples so far.
    int signal = 0;
    const FanOut fan_out = fan_out_of(3, 6, signal);
    std::size_t started = 0;
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare& share) {
        ++started;
        write(share.result_path, part(share.index, share.index == 1 ? 1 : 2, kNames));
        if (share.index == 1)
            signal = SIGINT;
        return ExitStatus{};
    });
    EXPECT_EQ(started, 2u);
    ASSERT_EQ(merged.benchmarks.size(), 2u);
    EXPECT_EQ(merged.benchmarks[1].ns_per_item, (std::vector<double>{1, 1, 2}));
    EXPECT_EQ(merged.interrupted_by, "SIGINT");
}

TEST(ProcessFanOut, AnInterruptedProcessThatMissedABenchmarkIsLeftOutWithAWarning) {
    int signal = 0;
    const FanOut fan_out = fan_out_of(2, 4, signal);
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare& share) {
        if (share.index == 0) {
            write(share.result_path, part(0, 2, kNames));
        } else {
            write(share.result_path, part(1, 1, {"a"}));  // stopped before sampling b
            signal = SIGTERM;
        }
        return ExitStatus{};
    });
    ASSERT_EQ(merged.benchmarks.size(), 2u);
    EXPECT_EQ(merged.benchmarks[0].ns_per_item, (std::vector<double>{1, 1}));
    EXPECT_EQ(merged.interrupted_by, "SIGTERM");
    bool warned = false;
    for (const auto& w : merged.warnings)
        warned = warned || w.find(
                               "interrupted measuring process 2 had not sampled every "
                               "benchmark yet") != std::string::npos;
    EXPECT_TRUE(warned);
}

// The signal reached a process before its first sample (it saved nothing): the result of the
// finished ones is marked interrupted and says so in its warnings, which the table prints.
TEST(ProcessFanOut, AnInterruptedProcessThatSavedNothingIsSaidInTheWarnings) {
    int signal = 0;
    const FanOut fan_out = fan_out_of(3, 6, signal);
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare& share) {
        if (share.index == 0)
            write(share.result_path, part(0, 2, kNames));
        else
            signal = SIGINT;  // no file: stopped before its first sample
        return ExitStatus{};
    });
    ASSERT_EQ(merged.benchmarks.size(), 2u);
    EXPECT_EQ(merged.interrupted_by, "SIGINT");
    EXPECT_TRUE(warned(merged,
                       "interrupted by SIGINT: the samples of the 1 measuring process that had "
                       "finished are kept (3 planned)"));
}

TEST(ProcessFanOut, InterruptedBeforeAnySampleGivesAnEmptyResult) {
    int signal = 0;
    const FanOut fan_out = fan_out_of(2, 2, signal);
    const auto merged = measure_in_processes(fan_out, [&](const ProcessShare&) {
        signal = SIGHUP;  // no file: the process had nothing to save
        return ExitStatus{};
    });
    EXPECT_TRUE(merged.benchmarks.empty());
}

}  // namespace
}  // namespace perfgauge::harness
