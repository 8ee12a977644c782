#include "perfgauge/harness/gbench_counters.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gbench_flags.hpp"
#include "gbench_state.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/simulation_valgrind.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::gbench {

AdapterState& adapter_state() {
    static AdapterState state;
    return state;
}

bool is_simulation_child() {
    return adapter_state().flags.sim_child_manifest.has_value();
}

namespace {

constexpr const char* kFlagsHelp =
    "perfgauge (per-item counters, perfgauge::gbench):\n"
    "  --perfgauge_events=LIST     events per item (perf stat syntax), added to each run's\n"
    "                              counters in upper case (INSTRUCTIONS=...)\n"
    "  --perfgauge_backend=B       auto (default): perf, simulated where the kernel cannot\n"
    "                              count; perf: never simulate; sim: hardware events simulated\n"
    "                              with valgrind's callgrind, reported as NAME[sim]\n"
    "  --perfgauge_sim_items=N     items each benchmark counts under simulation (100000)\n\n";

// One counter set per thread, opened on first use with the natively counted events.
pmu::CounterSet* thread_counters() {
    if (adapter_state().native_groups.empty())
        return nullptr;
    thread_local std::unique_ptr<pmu::CounterSet> counters;
    if (!counters) {
        counters = std::make_unique<pmu::CounterSet>(
            pmu::open_self_monitoring(adapter_state().native_groups));
        counters->enable();
    }
    return counters.get();
}

void plan(AdapterState& s) {
    const auto valgrind = harness::simulation_valgrind(s.flags.backend, "--perfgauge_backend=sim");
    const auto plan =
        harness::select_events(*s.flags.events, s.flags.backend, valgrind.has_value());
    s.native_groups = plan.native_groups;
    s.simulated_events = plan.simulated_events();
    if (!s.simulated_events.empty())
        s.valgrind = valgrind;
    for (const auto& line : plan.unsupported())
        fmt::print(stderr, "perfgauge: not counted: {}\n", line);
    if (!plan.notice.empty()) {
        fmt::print(stderr,
                   "perfgauge: {}; the selected benchmarks run again under callgrind first "
                   "(counters marked [sim])\n",
                   plan.notice);
    }
    if (const pmu::CounterSet* set = thread_counters()) {
        for (const auto& line : pmu::describe_unopened(*set))
            fmt::print(stderr, "perfgauge: not counted: {}\n", line);
    }
}

// As Google Benchmark's "Library was built as DEBUG": in the context, which the console
// reporter prints on stderr above its table and the JSON reporter writes into "context", so a
// tool sees it too. Once (Google Benchmark complains of a context key added twice).
void say_if_unoptimized(AdapterState& s, bool caller_optimized) {
    if (caller_optimized || s.said_unoptimized)
        return;
    s.said_unoptimized = true;
    benchmark::AddCustomContext(
        std::string(kUnoptimizedContextKey),
        "built without optimization: the code calling perfgauge::gbench::initialize (or "
        "run_main) was compiled without -O (__OPTIMIZE__ undefined), so these timings are not "
        "those of the code you ship; compile it with -O2 (CMake: -DCMAKE_BUILD_TYPE=Release)");
}

}  // namespace

bool initialize(int* argc, char** argv, bool caller_optimized) {
    AdapterState& s = adapter_state();
    s.user_args.assign(argv + 1, argv + *argc);
    if (std::find(s.user_args.begin(), s.user_args.end(), "--help") != s.user_args.end())
        std::fputs(kFlagsHelp, stdout);  // Google Benchmark's own --help follows
    try {
        s.flags = take_perfgauge_flags(s.user_args);
    } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "perfgauge: {}\n", e.what());
        return false;
    }
    int kept = 1;
    for (auto& a : s.user_args)
        argv[kept++] = a.data();
    *argc = kept;
    argv[kept] = nullptr;
    if (is_simulation_child()) {
        if (!pmu::callgrind::running_on_valgrind()) {
            fmt::print(stderr,
                       "perfgauge: --internal-sim-child is perfgauge's own (it runs "
                       "under valgrind); use --perfgauge_backend=sim\n");
            return false;
        }
        return true;
    }
    say_if_unoptimized(s, caller_optimized);
    if (!s.flags.events)
        return true;
    try {
        plan(s);
    } catch (const std::exception& e) {
        fmt::print(stderr, "perfgauge: --perfgauge_events: {}\n", e.what());
        return false;
    }
    return true;
}

namespace {

// Simulation child: the first thread of a run to arrive starts instrumentation; each thread
// zeroes its own counts (callgrind runs with --separate-threads).
void begin_simulated_run() {
    AdapterState& s = adapter_state();
    const std::lock_guard lock(s.run_mutex);
    if (s.run_started++ == 0)
        pmu::callgrind::start_instrumentation();
    pmu::callgrind::zero_stats();
}

}  // namespace

struct PerItemCounters::Impl {
    pmu::CounterSet* counters = nullptr;
    pmu::CounterSet::Snapshot before, after;
};

PerItemCounters::PerItemCounters(benchmark::State& state) : state_(state) {
    if (is_simulation_child()) {
        begin_simulated_run();
        return;
    }
    pmu::CounterSet* counters = thread_counters();
    if (counters == nullptr)
        return;
    impl_ = std::make_unique<Impl>(
        Impl{counters, counters->make_snapshot(), counters->make_snapshot()});
    counters->read(impl_->before);
}

namespace {

std::int64_t items_of(const benchmark::State& state) {
    return state.items_processed() > 0 ? state.items_processed()
                                       : static_cast<std::int64_t>(state.iterations());
}

// Simulation child: each thread dumps its own counts (callgrind runs with --separate-threads);
// the last thread of a run to finish stops instrumentation, and the benchmark's growth once the
// run has counted the requested items (Google Benchmark would go on tenfold).
void end_simulated_run(benchmark::State& state) {
    AdapterState& s = adapter_state();
    const std::lock_guard lock(s.run_mutex);
    const auto items = static_cast<std::uint64_t>(std::max<std::int64_t>(0, items_of(state)));
    const std::string trigger =
        fmt::format("perfgauge-gbench:{}:{}", s.next_dump, state.thread_index());
    pmu::callgrind::dump_stats(trigger.c_str());
    s.pending.push_back({trigger, items, s.next_dump});
    s.run_items += items;
    if (++s.run_finished < state.threads())
        return;
    pmu::callgrind::stop_instrumentation();
    if (s.run_items >= s.flags.sim_items)
        state.SkipWithError("perfgauge: simulated");
    ++s.next_dump;
    s.run_started = s.run_finished = 0;
    s.run_items = 0;
}

}  // namespace

PerItemCounters::~PerItemCounters() {
    if (is_simulation_child()) {
        end_simulated_run(state_);
        return;
    }
    if (!impl_)
        return;
    impl_->counters->read(impl_->after);
    const auto delta = impl_->counters->delta(impl_->before, impl_->after);
    const auto items = items_of(state_);
    if (items <= 0)
        return;
    const auto& events = impl_->counters->events();
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].opened)
            state_.counters[counter_name(events[i].spec.name, false)] =
                per_item_share(delta[i].value, static_cast<double>(items), state_.threads());
    }
}

}  // namespace perfgauge::gbench
