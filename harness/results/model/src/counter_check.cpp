#include "perfgauge/harness/counter_check.hpp"

#include <utility>

namespace perfgauge::harness {

const char* verdict_name(CheckVerdict verdict) {
    switch (verdict) {
        case CheckVerdict::pass:
            return "pass";
        case CheckVerdict::fail:
            return "fail";
        case CheckVerdict::unavailable:
            return "unavailable";
    }
    return "unavailable";
}

CounterCheck unavailable_check(std::string name, std::string reason) {
    return {std::move(name),  CheckVerdict::unavailable, std::nullopt, std::nullopt, "",
            std::move(reason)};
}

}  // namespace perfgauge::harness
