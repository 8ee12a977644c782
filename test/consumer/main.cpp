// A user's program written against the installed headers as they were before the harness was
// split into folders (Session, Runner, Benchmark, the resolver): it must keep compiling,
// linking and running against the new install, at the same include paths.
#include <perfgauge/marker.h>  // installed beside them; header only
#include <perfgauge/harness/runner.hpp>
#include <perfgauge/harness/session.hpp>
#include <perfgauge/harness/statistics.hpp>
#include <perfgauge/harness/system_info.hpp>
#include <perfgauge/pmu/event_resolver.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace ph = perfgauge::harness;

int main() {
    const perfgauge::pmu::EventResolver resolver;
    const auto groups = resolver.resolve("{task-clock,page-faults},cycles:u");
    const auto info = ph::detect_cpu();

    {
        const perfgauge::MarkedScope marked;  // not run under perfgauge stat: does nothing
    }
    ph::Session session("task-clock");
    for (int i = 0; i < 3; ++i) {
        auto region = session.region("sum");
        std::uint64_t sum = 0;
        for (std::uint64_t k = 0; k < 10000; ++k)
            sum += k * k;
        ph::benchmark_sink(sum);
    }

    ph::RunnerOptions options;
    options.events = "task-clock";
    options.repetitions = 3;
    options.min_sample_time_s = 0.001;
    options.warmup_time_s = 0.001;
    ph::Benchmark add{"add",
                      1000,
                      0,
                      [](ph::BatchState& state) {
                          for (std::uint64_t i = 0; i < state.iterations(); ++i) {
                              state.pause();
                              state.resume();
                              std::uint64_t sum = 0;
                              for (std::uint64_t k = 0; k < 1000; ++k)
                                  sum += k;
                              ph::benchmark_sink(sum);
                          }
                      },
                      {}};
    const ph::RunResult r = ph::Runner(options).run({add});
    const double ns = ph::median(r.benchmarks.at(0).ns_per_item);

    // Samples the machine disturbed are set aside (and re-taken within the budget), so on a
    // busy machine there may be fewer clean ones, none at all under a whole loaded test suite.
    const std::size_t samples = r.benchmarks.at(0).ns_per_item.size();
    const std::size_t taken = samples + r.benchmarks.at(0).disturbed.size();
    std::printf("groups=%zu first=%s vendor=%s samples_ok=%d ns_per_item_positive=%d\n%s",
                groups.size(), groups[0].events[0].name.c_str(), info.vendor.c_str(),
                samples <= 3 && taken >= 3 ? 1 : 0, samples == 0 || ns > 0 ? 1 : 0,
                session.report().c_str());
    return groups.size() == 2 && groups[0].events.size() == 2 ? 0 : 1;
}
