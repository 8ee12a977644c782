#include "perfgauge/harness/selftest_processes.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <utility>

#include "perfgauge/harness/against_run.hpp"
#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/selftest_chain.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_as_run.hpp"

namespace perfgauge::harness {

namespace {

nlohmann::json sampling_json(const ChainSampling& s) {
    return {{"repetitions", s.repetitions},
            {"seed", s.seed ? nlohmann::json(*s.seed) : nlohmann::json(nullptr)},
            {"precision", s.precision},
            {"max_time_s", s.max_time_s},
            {"min_sample_time_s", s.min_sample_time_s},
            {"warmup_time_s", s.warmup_time_s}};
}

ChainSampling sampling_from(const nlohmann::json& j) {
    ChainSampling s;
    s.repetitions = j.at("repetitions").get<std::size_t>();
    if (!j.at("seed").is_null())
        s.seed = j.at("seed").get<std::uint64_t>();
    s.precision = j.at("precision").get<double>();
    s.max_time_s = j.at("max_time_s").get<double>();
    s.min_sample_time_s = j.at("min_sample_time_s").get<double>();
    s.warmup_time_s = j.at("warmup_time_s").get<double>();
    return s;
}

}  // namespace

std::string chain_job_to_json(const ChainJob& job) {
    nlohmann::json chains = nlohmann::json::array();
    for (const ChainWork& c : job.chains)
        chains.push_back({{"name", c.name}, {"work", c.work}, {"operations", c.operations}});
    return nlohmann::json{{"operations", job.operations},
                          {"iterations", job.iterations},
                          {"result_path", job.result_path.string()},
                          {"chains", chains},
                          {"sampling", sampling_json(job.sampling)}}
        .dump();
}

ChainJob chain_job_from_json(std::string_view json) {
    try {
        const auto j = parse_json_bounded(json, "the selftest job");
        ChainJob job;
        job.operations = j.at("operations").get<std::uint64_t>();
        job.iterations = j.at("iterations").get<std::uint64_t>();
        job.result_path = j.at("result_path").get<std::string>();
        for (const auto& c : j.at("chains")) {
            job.chains.push_back({c.at("name").get<std::string>(), c.at("work").get<std::string>(),
                                  c.at("operations").get<std::uint64_t>()});
            if (job.chains.back().operations == 0 || job.chains.back().name.empty())
                throw std::invalid_argument("a chain needs a name and at least one operation");
        }
        job.sampling = sampling_from(j.at("sampling"));
        if (job.result_path.empty() && job.operations == 0)
            throw std::invalid_argument("operations must be at least 1");
        if (!job.result_path.empty() && (job.chains.empty() || job.sampling.repetitions == 0))
            throw std::invalid_argument("a measured job needs chains and repetitions");
        return job;
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(fmt::format("not a selftest job: {}", e.what()));
    }
}

int run_chain_job(const ChainJob& job) {
    if (job.result_path.empty()) {
        benchmark_sink(run_chain(job.operations, job.iterations));
        return 0;
    }
    std::vector<Benchmark> benchmarks;
    for (const ChainWork& c : job.chains)
        benchmarks.push_back(chain_benchmark(c.work, c.operations, c.name));
    Runner runner(chain_runner_options(job.sampling));
    const RunResult result = runner.run(benchmarks);
    write_output_file(job.result_path, render_run(result, OutputFormat::json));
    return 0;
}

std::vector<ChainWork> run_chains(const SelftestPlan& plan) {
    std::vector<ChainWork> chains = {{"", kBaseWork, plan.base_operations},
                                     {"", kSameWork, plan.base_operations}};
    for (const double change : plan.changes_pct)
        chains.push_back({"", change_label(change), chain_operations(plan, change)});
    for (ChainWork& c : chains)
        c.name = "chain/" + c.work;
    return chains;
}

SeparateRuns measure_separate_runs(const SelftestPlan& plan, const ChainArgv& argv,
                                   const SelftestProgress& progress) {
    SeparateRuns out;
    std::optional<ScratchDir> dir;
    try {
        dir.emplace("perfgauge-selftest", "the separate runs' results");
    } catch (const std::runtime_error& e) {  // no run can write its result: none is measured
        out.failure = e.what();
        return out;
    }
    ChainJob job;
    job.chains = run_chains(plan);
    job.sampling = plan.sampling;
    out.runs.reserve(plan.runs);
    for (std::size_t i = 0; i < plan.runs; ++i) {
        if (progress)
            progress("runs", i, plan.runs);
        // Names of one length: every child's argv is (against_run.hpp says why it matters).
        job.result_path = dir->path() / fmt::format("run-{:06}.json", i);
        PendingChild child(argv(job));
        const ExitStatus status = child.wait();
        stop_if_interrupted();
        try {
            if (!status.exited_with(0))
                throw std::runtime_error(fmt::format("its process {}", status.describe()));
            out.runs.push_back(
                parse_run_json(read_text_file(job.result_path), job.result_path.string()));
        } catch (const std::exception& e) {  // the runs before it stand
            out.failure = fmt::format("run {} of {}: {}", i + 1, plan.runs, e.what());
            break;
        }
    }
    return out;
}

std::uint64_t iterations_lasting(double seconds, double base_ns_per_iteration,
                                 std::uint64_t operations) {
    const double ns = std::isfinite(base_ns_per_iteration) && base_ns_per_iteration > 0
                          ? base_ns_per_iteration
                          : static_cast<double>(operations);
    const double iterations = std::floor(seconds * 1e9 / ns);
    return iterations >= 1 ? static_cast<std::uint64_t>(iterations) : 1;
}

void stop_if_interrupted() {
    if (const int signal = interrupt_signal(); signal != 0)
        throw Interrupted(signal, "interrupted: nothing is reported");
}

namespace {

// The chains every trial measures against the base, in the order ComparisonTrials holds them:
// the A/A first, then each change.
std::vector<ChainWork> works(const SelftestPlan& plan) {
    std::vector<ChainWork> chains = run_chains(plan);
    chains.erase(chains.begin());  // the base
    return chains;
}

ComparisonTrials empty_trials(const SelftestPlan& plan) {
    ComparisonTrials trials;
    trials.changes.resize(plan.changes_pct.size());
    return trials;
}

}  // namespace

ProcessTrials side_by_side_trials(const SelftestPlan& plan, std::uint64_t iterations,
                                  const ChainArgv& argv, const SelftestProgress& progress) {
    const auto command = [&](std::uint64_t operations) {
        ChainJob job;
        job.operations = operations;
        job.iterations = iterations;
        return argv(job);
    };
    SideBySideOptions options;
    options.stat.events = "";  // time alone: the figures are about times
    options.stat.repetitions = plan.processes.side_by_side_rounds;
    options.commands.push_back(command(plan.base_operations));
    for (const ChainWork& work : works(plan))
        options.commands.push_back(command(work.operations));
    const std::vector<std::string> labels = side_by_side_labels(options.commands);
    const std::vector<std::string> names(labels.begin() + 1, labels.end());

    ProcessTrials out{empty_trials(plan), {}};
    const std::size_t total = plan.processes.side_by_side_trials;
    for (std::size_t t = 0; t < total; ++t) {
        if (progress)
            progress("stat side by side", t, total);
        const SideBySideResult result = run_side_by_side(options);
        stop_if_interrupted();
        if (result.failed_command) {
            const StatResult& failed = result.commands.at(*result.failed_command);
            out.failure = fmt::format("trial {} of {}: a chain process {}", t + 1, total,
                                      failed.exit.describe());
            break;
        }
        add_trial(out.trials, compare_side_by_side(result, plan.compare), names);
    }
    return out;
}

namespace {

// One trial of run --against's pairs: `base`'s processes do the base chain, `work`'s each work.
Comparison against_trial(const SelftestPlan& plan, std::uint64_t seed, const ChainArgv& argv) {
    const auto all = works(plan);
    PairsPlan pairs;
    for (const ChainWork& work : all)
        pairs.benchmarks.push_back(work.work);
    pairs.pairs = plan.processes.against_pairs;
    pairs.max_pairs = plan.processes.against_max_pairs;
    pairs.precision = plan.processes.against_pair_precision;
    pairs.repetitions = plan.sampling.repetitions;
    pairs.seed = seed;
    AgainstSide base{"(selftest: the base chain)", "the base chain's process", {}, {}};
    AgainstSide work{"(selftest: the changed chain)", "the changed chain's process", {}, {}};
    const auto launch = [&](const AgainstSide& side, const PairedProcess& process) {
        ChainJob job;
        const ChainWork& chain = all[process.benchmark];
        job.chains = {
            {chain.work, chain.work, &side == &base ? plan.base_operations : chain.operations}};
        job.result_path = process.result_path;
        job.sampling = plan.sampling;
        job.sampling.repetitions = process.repetitions;
        job.sampling.seed = process.seed;
        // As run --against shares a run's budget between a side's processes.
        job.sampling.max_time_s = plan.sampling.max_time_s / static_cast<double>(pairs.pairs);
        PendingChild child(argv(job));
        return child.wait();
    };
    const PairsDone done = measure_pairs(pairs, base, work, launch);
    stop_if_interrupted();
    if (!done.failure.empty())
        throw std::runtime_error(done.failure);
    return compare_results(join_benchmarks(std::move(base.benchmarks)),
                           join_benchmarks(std::move(work.benchmarks)), plan.compare,
                           /*paired_runs=*/true);
}

}  // namespace

ProcessTrials against_trials(const SelftestPlan& plan, const ChainArgv& argv,
                             const SelftestProgress& progress) {
    std::vector<std::string> names;
    for (const ChainWork& work : works(plan))
        names.push_back(work.work);
    ProcessTrials out{empty_trials(plan), {}};
    const std::size_t total = plan.processes.against_trials;
    for (std::size_t t = 0; t < total; ++t) {
        if (progress)
            progress("run --against", t, total);
        try {
            add_trial(out.trials, against_trial(plan, 1000 * t, argv), names);
        } catch (const Interrupted&) {
            throw;
        } catch (const std::exception& e) {  // a child failed: the trials before it stand
            out.failure = fmt::format("trial {} of {}: {}", t + 1, total, e.what());
            break;
        }
    }
    return out;
}

}  // namespace perfgauge::harness
