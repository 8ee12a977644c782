#include "perfgauge/harness/stage_failures.hpp"

#include <mutex>
#include <utility>

namespace perfgauge::harness {

namespace {

// One record per process: the stages that fail are few and far between, a mutex is enough.
std::mutex stages_mutex;
std::vector<std::string>& stages() {
    static std::vector<std::string> recorded;
    return recorded;
}

}  // namespace

void record_stage_failure(std::string what) {
    const std::lock_guard lock(stages_mutex);
    stages().push_back(std::move(what));
}

std::vector<std::string> stage_failures() {
    const std::lock_guard lock(stages_mutex);
    return stages();
}

void clear_stage_failures() {
    const std::lock_guard lock(stages_mutex);
    stages().clear();
}

}  // namespace perfgauge::harness
