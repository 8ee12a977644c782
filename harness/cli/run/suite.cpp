#include "run/suite.hpp"

#include "common/cli_common.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/workloads/suite_here.hpp"

namespace perfgauge::cli {

workloads::SuiteSpec suite_spec_from(const harness::SuiteSelection& selection,
                                     const workloads::CacheSizes& detected,
                                     std::string* last_level_found_by) {
    workloads::SuiteSpec spec;
    spec.workloads = selection.workloads;
    spec.variants = selection.variants;
    spec.distributions = selection.distributions;
    spec.shapes = selection.shapes;
    spec.caches = selection.caches;
    spec.sizes = selection.sizes;
    const auto found_by =
        workloads::fit_caches_here(spec, detected, {selection.l1d, selection.l2, selection.l3});
    if (last_level_found_by && found_by)
        *last_level_found_by = *found_by;
    spec.data_seed = selection.data_seed;
    if (const auto why = workloads::selection_refusal(spec); !why.empty())
        throw UsageError(why);
    return spec;
}

void check_suite_memory(const workloads::SuiteSpec& spec) {
    if (const auto why = workloads::memory_refusal(spec, harness::available_memory_bytes());
        !why.empty())
        throw UsageError(why);
}

harness::SuiteSelection single_benchmark_selection(
    const harness::SuiteSelection& selection,
    const std::vector<std::pair<std::string, std::string>>& params) {
    const auto key = workloads::key_from_params(params);
    harness::SuiteSelection one;
    one.workloads = {key.workload};
    if (key.shape) {  // memcpy has neither variant nor shape ("memcpy" and "-")
        one.variants = {key.variant};
        one.shapes = {*key.shape};
    }
    one.distributions = {key.dist};
    one.caches = {key.cache};
    one.sizes = {key.size_bytes};
    one.l1d = selection.l1d;
    one.l2 = selection.l2;
    one.l3 = selection.l3;
    one.data_seed = selection.data_seed;
    return one;
}

}  // namespace perfgauge::cli
