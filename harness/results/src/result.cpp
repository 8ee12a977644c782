#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

std::vector<std::string> refusal_lines(const RunResult& result) {
    std::vector<std::string> out;
    for (const auto& e : result.events) {
        if (!e.counted)
            out.push_back(refusal_line(e));
    }
    return out;
}

}  // namespace perfgauge::harness
