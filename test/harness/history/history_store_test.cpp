// The history store on both engines: a SQLite file and a real PostgreSQL server the test
// starts. Migrations, every sample kept bit for bit, series per machine class, forgetting.
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/regression_gate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "../../support/temp_dir.hpp"
#include "perfgauge/harness/machine_fingerprint.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/sample_codec.hpp"
#include "postgres_server.hpp"
#include "synthetic_results.hpp"

namespace perfgauge::test {
namespace {

using harness::HistoryStore;

enum class Engine { sqlite, postgresql };

class HistoryStoreTest : public ::testing::TestWithParam<Engine> {
  protected:
    std::string location() {
        if (GetParam() == Engine::postgresql) {
            if (uri_.empty())
                uri_ = shared_postgres().new_database();
            return uri_;
        }
        return (dir_.path() / "sub" / "history.db").string();  // directory created on open
    }
    TempDir dir_;
    std::string uri_;
};

TEST_P(HistoryStoreTest, MigratesOnceAndReopens) {
    {
        const auto store = HistoryStore::open(location());
        EXPECT_EQ(store->schema_version(), harness::kHistorySchemaVersion);
        store->add(synthetic_run(10), {"a.json", "abc", {}});
    }
    const auto again = HistoryStore::open(location());
    EXPECT_EQ(again->schema_version(), harness::kHistorySchemaVersion);
    EXPECT_EQ(again->runs().size(), 1U);
}

TEST_P(HistoryStoreTest, KeepsEverySampleAndTheRunsContext) {
    const auto store = HistoryStore::open(location());
    const auto result = synthetic_run(12.5, 0.03, 4);
    const auto id = store->add(result, {"r.json", "deadbeef", {{"branch", "main"}}});
    const auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(runs[0].id, id);
    EXPECT_EQ(runs[0].commit, "deadbeef");
    EXPECT_EQ(runs[0].labels, "branch=main");
    EXPECT_EQ(runs[0].source, "r.json");
    EXPECT_EQ(runs[0].benchmarks, 1);
    EXPECT_EQ(runs[0].machine_class, harness::fingerprint_of(result).class_id);
    const auto all = store->measurements();
    ASSERT_EQ(all.size(), 1U);
    EXPECT_EQ(all[0].benchmark, "varint/decode");
    EXPECT_EQ(all[0].metric, "time");
    EXPECT_EQ(all[0].unit, "ns/item");
    EXPECT_EQ(all[0].samples, result.benchmarks[0].ns_per_item);  // bit for bit
}

TEST_P(HistoryStoreTest, ASeriesIsOneMachineClass) {
    const auto store = HistoryStore::open(location());
    store->add(synthetic_run(10), {"a.json", "c1", {}});
    store->add(synthetic_run(20, 0, 1, 25, "Other CPU 9000"), {"b.json", "c1", {}});
    store->add(synthetic_run(11), {"c.json", "c2", {}});
    const auto keys = store->series();
    ASSERT_EQ(keys.size(), 2U);
    for (const auto& key : keys) {
        const auto runs = store->series_runs(key);
        for (const auto& r : runs)
            EXPECT_EQ(r.point.spread, 0);  // identical samples: deterministic
        if (runs.size() == 2) {
            EXPECT_EQ(runs[0].point.value, 10);
            EXPECT_EQ(runs[1].point.value, 11);
        } else {
            ASSERT_EQ(runs.size(), 1U);
            EXPECT_EQ(runs[0].point.value, 20);
        }
    }
}

TEST_P(HistoryStoreTest, ForgetRemovesRunsAndTheirSamples) {
    const auto store = HistoryStore::open(location());
    const auto a = store->add(synthetic_run(10), {"a.json", "", {}});
    const auto b = store->add(synthetic_run(11), {"b.json", "", {}});
    EXPECT_EQ(store->forget({a, 999}), 1U);
    const auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(runs[0].id, b);
    EXPECT_EQ(store->measurements().size(), 1U);
}

TEST_P(HistoryStoreTest, KnownSlowdownFromRunSevenIsFlaggedThereAndOnEveryLaterRun) {
    const auto store = HistoryStore::open(location());
    for (int run = 1; run <= 12; ++run) {
        store->add(synthetic_run(run < 7 ? 40 : 44), {"r.json", std::to_string(run), {}});
        const auto keys = store->series();
        ASSERT_EQ(keys.size(), 1U);
        const auto entries = store->series_runs(keys[0]);
        std::vector<harness::RunPoint> points;
        for (const auto& e : entries)
            points.push_back(e.point);
        const auto verdict = harness::judge_series(points, 0, {});
        EXPECT_EQ(verdict.kind == harness::GateVerdict::Kind::regression, run >= 7)
            << "run " << run;
    }
}

// A run that kept no sample of a benchmark (every one disturbed, as under a load of 14 on two
// CPUs) stays out of the series' points but is still the series' last run: check names it
// instead of judging the run before it again.
TEST_P(HistoryStoreTest, ARunWithoutSamplesIsTheLastRunButNoPoint) {
    const auto store = HistoryStore::open(location());
    const auto first = store->add(synthetic_run(40), {"a.json", "c1", {}});
    const auto keys = store->series();
    ASSERT_EQ(keys.size(), 1U);
    EXPECT_EQ(store->last_run_of(keys[0]), first);
    const auto empty = store->add(synthetic_run(40, 0, 1, 0), {"b.json", "c2", {}});
    ASSERT_EQ(store->series().size(), 1U);  // the same series
    const auto entries = store->series_runs(keys[0]);
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries[0].run_id, first);
    EXPECT_EQ(store->last_run_of(keys[0]), empty);
    EXPECT_EQ(store->last_run_of({"no/such", harness::kTimeMetric, keys[0].machine_class}), 0);
}

INSTANTIATE_TEST_SUITE_P(Engines, HistoryStoreTest,
                         ::testing::Values(Engine::sqlite, Engine::postgresql),
                         [](const auto& info) {
                             return info.param == Engine::sqlite ? "SQLite" : "PostgreSQL";
                         });

TEST(HistoryStoreSqlite, ANewerSchemaIsRefusedNotDamaged) {
    TempDir dir;
    const auto path = (dir.path() / "h.db").string();
    { HistoryStore::open(path)->add(synthetic_run(10), {"a.json", "", {}}); }
    // A later perfgauge's migration, simulated.
    ASSERT_EQ(
        std::system(
            ("sqlite3 " + path + " \"INSERT INTO schema_version VALUES (99, 'later')\"").c_str()),
        0);
    EXPECT_THROW(HistoryStore::open(path), std::runtime_error);
}

TEST(SampleCodec, RoundTripsEveryDoubleBitForBit) {
    const std::vector<double> samples{1.5,
                                      -0.0,
                                      0.0,
                                      1e-300,
                                      1e300,
                                      std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::denorm_min(),
                                      3.0};
    EXPECT_EQ(harness::decode_samples(harness::encode_samples(samples)), samples);
    EXPECT_TRUE(harness::decode_samples(harness::encode_samples({})).empty());
    const auto nan = harness::decode_samples(
        harness::encode_samples(std::vector<double>{std::numeric_limits<double>::quiet_NaN()}));
    ASSERT_EQ(nan.size(), 1U);
    EXPECT_TRUE(std::isnan(nan[0]));
}

TEST(SampleCodec, TakesFewerBytesThanTheRawDoubles) {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> z(0, 1);
    std::vector<double> samples;
    for (int i = 0; i < 1000; ++i)
        samples.push_back(std::round(2.5e6 * (1 + 0.02 * z(rng))) / 1e6);  // ns, clock quantum
    // Noisy mantissas do not compress; sign, exponent and leading bits do (~6.4 of 8 bytes).
    const auto bytes = harness::encode_samples(samples);
    EXPECT_LT(bytes.size(), samples.size() * sizeof(double) * 7 / 8);
    // Deterministic samples (simulated counts) cost next to nothing.
    EXPECT_LT(harness::encode_samples(std::vector<double>(1000, 24.0)).size(), 100U);
    auto damaged = bytes;
    damaged.back() ^= 0xff;
    damaged[10] ^= 0xff;
    EXPECT_THROW(harness::decode_samples(damaged), harness::SampleCodecError);
    EXPECT_THROW(harness::decode_samples(std::vector<unsigned char>{7}), harness::SampleCodecError);
}

TEST(MachineFingerprint, HostAndKernelIdentifyAMachineNotItsClass) {
    auto a = synthetic_run(1), b = synthetic_run(1), c = synthetic_run(1);
    b.system.host_name = "other-host";
    b.system.kernel = "6.2";
    c.compiler_flags = "-O2";
    const auto fa = harness::fingerprint_of(a), fb = harness::fingerprint_of(b),
               fc = harness::fingerprint_of(c);
    EXPECT_EQ(fa.class_id, fb.class_id);
    EXPECT_NE(fa.machine_id, fb.machine_id);
    EXPECT_NE(fa.class_id, fc.class_id);
    EXPECT_EQ(fa.class_id.size(), 16U);
}

// A fully described machine: every fact the fingerprint's class is made of.
harness::RunResult described_run() {
    auto r = synthetic_run(1);
    r.system.cpu.stepping = 7;
    r.system.cpu.microcode = "0x5003604";
    r.system.cpu.cores = 2;
    r.system.smt_active = false;
    r.system.hypervisor = "KVMKVMKVM";
    r.system.mitigations = {{"spectre_v2", "Mitigation: Retpolines"},
                            {"spec_store_bypass", "Vulnerable"}};
    r.system.caches = {{1, "Data", 32768, 64, 1, 8}, {3, "Unified", 33554432, 64, 2, 16}};
    return r;
}

TEST(MachineFingerprint, EveryCpuFactMakesADifferentClass) {
    const auto base = harness::fingerprint_of(described_run());
    const std::vector<void (*)(harness::RunResult&)> changes = {
        [](harness::RunResult& r) { r.system.cpu.stepping = 4; },
        [](harness::RunResult& r) { r.system.cpu.microcode = "0x5003707"; },
        [](harness::RunResult& r) { r.system.cpu.cores = 1; },
        [](harness::RunResult& r) { r.system.cpu.logical_cpus = 4; },
        [](harness::RunResult& r) { r.system.smt_active = true; },
        [](harness::RunResult& r) { r.system.hypervisor = "none"; },
        [](harness::RunResult& r) { r.system.mitigations.pop_back(); },
        [](harness::RunResult& r) { r.system.caches[1].size_bytes /= 2; },
    };
    std::set<std::string> classes = {base.class_id};
    for (const auto& change : changes) {
        auto r = described_run();
        change(r);
        classes.insert(harness::fingerprint_of(r).class_id);
    }
    EXPECT_EQ(classes.size(), changes.size() + 1);  // each change its own class
    EXPECT_NE(base.summary.find("VM KVMKVMKVM"), std::string::npos) << base.summary;
}

TEST(MachineFingerprint, SurvivesTheResultFile) {
    // What history add reads back from a file must be the machine that wrote it: every fact
    // of the class and of the machine goes through the JSON.
    auto r = described_run();
    r.system.governor = "performance";
    r.system.boost = false;
    r.system.clocksource = "tsc";
    const auto read =
        harness::parse_result_json(harness::render_run(r, harness::OutputFormat::json), "r.json");
    const auto written = harness::fingerprint_of(r), back = harness::fingerprint_of(read);
    EXPECT_EQ(back.class_facts, written.class_facts);
    EXPECT_EQ(back.machine_facts, written.machine_facts);
    EXPECT_EQ(back.machine_id, written.machine_id);
}

TEST(MachineFingerprint, UnknownCpusAreClassedByMachineNeverTogether) {
    // Google Benchmark and stat files: no CPU facts. Their class is their machine.
    harness::RunResult a;
    a.kind = harness::ResultKind::google_benchmark;
    a.system.host_name = "node-a";
    auto b = a;
    b.system.host_name = "node-b";
    EXPECT_TRUE(harness::unidentified_machine(a, "").empty());
    EXPECT_NE(harness::fingerprint_of(a).class_id, harness::fingerprint_of(b).class_id);
    EXPECT_EQ(harness::fingerprint_of(a).summary, "unknown CPU on node-a");
    // A label names the machine when the file does not; without either it cannot be filed.
    harness::RunResult stat;
    stat.kind = harness::ResultKind::stat;
    EXPECT_NE(harness::unidentified_machine(stat, "").find("--label machine=NAME"),
              std::string::npos);
    EXPECT_TRUE(harness::unidentified_machine(stat, "box1").empty());
    EXPECT_NE(harness::fingerprint_of(stat, "box1").class_id,
              harness::fingerprint_of(stat, "box2").class_id);
    // A described CPU keeps its class whatever the label: a fleet of one CPU is one class.
    EXPECT_EQ(harness::fingerprint_of(described_run(), "box1").class_id,
              harness::fingerprint_of(described_run(), "box2").class_id);
}

}  // namespace
}  // namespace perfgauge::test
