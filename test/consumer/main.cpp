// Uses one function from each layer through the installed headers and libraries.
#include <perfgauge/harness/system_info.hpp>
#include <perfgauge/pmu/event_resolver.hpp>

#include <cstdio>

int main() {
    const perfgauge::pmu::EventResolver resolver;
    const auto groups = resolver.resolve("{task-clock,page-faults},cycles:u");
    const auto info = perfgauge::harness::detect_cpu();
    std::printf("groups=%zu first=%s vendor=%s\n", groups.size(), groups[0].events[0].name.c_str(),
                info.vendor.c_str());
    return groups.size() == 2 && groups[0].events.size() == 2 ? 0 : 1;
}
