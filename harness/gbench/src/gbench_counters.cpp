#include "perfgauge/harness/gbench_counters.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_list.hpp"

namespace perfgauge::gbench {

namespace {

constexpr std::string_view kFlag = "--perfgauge_events=";

std::optional<std::string>& event_list() {
    static std::optional<std::string> list;
    return list;
}

// One counter set per thread, opened on first use with the list from initialize().
pmu::CounterSet* thread_counters() {
    if (!event_list())
        return nullptr;
    thread_local std::unique_ptr<pmu::CounterSet> counters;
    if (!counters) {
        counters = std::make_unique<pmu::CounterSet>(pmu::open_self_monitoring(*event_list()));
        counters->enable();
    }
    return counters.get();
}

std::string upper(const std::string& s) {
    std::string out = s;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

}  // namespace

bool initialize(int* argc, char** argv) {
    int kept = 1;
    for (int i = 1; i < *argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.starts_with(kFlag))
            event_list() = std::string(arg.substr(kFlag.size()));
        else
            argv[kept++] = argv[i];
    }
    *argc = kept;
    argv[kept] = nullptr;
    if (!event_list())
        return true;
    try {
        const pmu::CounterSet* set = thread_counters();
        for (const auto& line : pmu::describe_unopened(*set))
            fmt::print(stderr, "perfgauge: not counted: {}\n", line);
    } catch (const std::exception& e) {
        fmt::print(stderr, "perfgauge: --perfgauge_events: {}\n", e.what());
        return false;
    }
    return true;
}

struct PerItemCounters::Impl {
    pmu::CounterSet* counters;
    pmu::CounterSet::Snapshot before, after;
};

PerItemCounters::PerItemCounters(benchmark::State& state) : state_(state) {
    pmu::CounterSet* counters = thread_counters();
    if (counters == nullptr)
        return;
    impl_ = std::make_unique<Impl>(
        Impl{counters, counters->make_snapshot(), counters->make_snapshot()});
    counters->read(impl_->before);
}

PerItemCounters::~PerItemCounters() {
    if (!impl_)
        return;
    impl_->counters->read(impl_->after);
    const auto delta = impl_->counters->delta(impl_->before, impl_->after);
    const auto items = state_.items_processed() > 0
                           ? state_.items_processed()
                           : static_cast<std::int64_t>(state_.iterations());
    if (items <= 0)
        return;
    const auto& events = impl_->counters->events();
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].opened)
            state_.counters[upper(events[i].spec.name)] =
                delta[i].value / static_cast<double>(items);
    }
}

}  // namespace perfgauge::gbench
