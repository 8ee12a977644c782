// Drawing with one of perfgauge's matplotlib scripts (scripts/*.py): finds the script and a
// Python that has matplotlib, lets it draw into a scratch directory and puts the picture in
// place by perfgauge's safe-output rules. Shared by `plot` and `history plot`; defined in
// plot_command.cpp.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgauge::cli {

/// The script `name` installed beside the executable (bin/../share/perfgauge), else in the
/// source tree this perfgauge was built from; std::runtime_error when neither has it.
std::filesystem::path plotting_script(const std::string& name);

/// $PERFGAUGE_PYTHON alone when set; else Debian's /usr/bin/python3, then every python3 on
/// PATH: the first that has matplotlib. std::runtime_error (saying how to install it) when
/// none has.
std::string python_for_plotting();

/// Runs `python script ARGS... -o SCRATCH/picture.EXT` and writes the picture to `output`
/// (.png or .svg). Returns the exit status for perfgauge: 0, 2 when the script refused its
/// input (it exits 2 and says why), the interrupt's status, else 1.
int draw_with_script(const std::string& python, const std::filesystem::path& script,
                     const std::vector<std::string>& args, const std::string& output);

}  // namespace perfgauge::cli
