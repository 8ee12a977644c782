// Small string checks the tests share (one definition: test drivers are compiled in unity
// batches, where two files' helpers of one name would clash).
#pragma once

#include <string>

namespace perfgauge::test {

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace perfgauge::test
