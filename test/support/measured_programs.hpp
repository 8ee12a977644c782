// The programs the end-to-end tests measure, built beside them: test/CMakeLists.txt gives
// perfgauge_e2e_tests their paths, test/arm64/CMakeLists.txt the guest's driver the ones it
// carries (one definition: the drivers compile in unity batches).
#pragma once

#include <string>

namespace perfgauge::test {

#ifdef PERFGAUGE_STAT_WORKLOAD_PATH
inline const std::string kStatWorkload = PERFGAUGE_STAT_WORKLOAD_PATH;
#endif
#ifdef PERFGAUGE_MARKER_PAGES_PATH
inline const std::string kMarkerPages = PERFGAUGE_MARKER_PAGES_PATH;
#endif

}  // namespace perfgauge::test
