// The programs the end-to-end tests measure, built beside them: test/CMakeLists.txt gives
// perfgauge_e2e_tests their paths (one definition: the drivers compile in unity batches).
#pragma once

#include <string>

namespace perfgauge::test {

inline const std::string kStatWorkload = PERFGAUGE_STAT_WORKLOAD_PATH;
inline const std::string kMarkerPages = PERFGAUGE_MARKER_PAGES_PATH;

}  // namespace perfgauge::test
