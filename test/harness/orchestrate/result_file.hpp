// Writes a run result where a measuring child would leave it, for the orchestration tests' fake
// children (one definition: the test drivers compile in unity batches).
#pragma once

#include <filesystem>
#include <fstream>

#include "perfgauge/harness/run_report.hpp"

namespace perfgauge::harness {

inline void write(const std::filesystem::path& path, const RunResult& r) {
    std::ofstream(path) << render_run(r, OutputFormat::json);
}

}  // namespace perfgauge::harness
