// Drawing with one of perfgauge's matplotlib scripts (scripts/*.py): finds the script and a
// Python that has matplotlib, lets it draw into a scratch directory and puts the picture in
// place by perfgauge's safe-output rules. Shared by `plot` and `history plot`; defined in
// plot/command.cpp.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgauge::cli {

/// The script `name` installed beside the executable (bin/../share/perfgauge), else in the
/// source tree this perfgauge was built from; std::runtime_error when neither has it.
std::filesystem::path plotting_script(const std::string& name);

/// $PERFGAUGE_PYTHON alone when set (std::runtime_error naming the variable when it is a
/// directory, cannot be run or lacks matplotlib); else Debian's /usr/bin/python3, then every
/// python3 on PATH: the first that has matplotlib. std::runtime_error (saying how to install it)
/// when none has.
std::string python_for_plotting();

/// python_for_plotting() for a caller that holds an InterruptHandling: "" when an interrupt
/// came while the Python was looked for (an interrupted matplotlib check is no missing
/// matplotlib; the caller looks at interrupt_signal()), its std::runtime_error otherwise.
std::string python_for_plotting_unless_interrupted();

/// Runs `python script ARGS... --quiet-interrupt -o SCRATCH/picture.EXT` and writes the picture
/// to `output` (.png or .svg). Returns the exit status for perfgauge: 0, 2 when the script
/// refused its input (it exits 2 and says why), 128+N when an interrupt (perfgauge's, or one
/// sent to the script alone) ended it (said in one line), else 1. It handles interrupts itself
/// unless `caller_handles_interrupts` (the caller holds an InterruptHandling from before it
/// made anything an interrupt must clean up, and looks at interrupt_signal() before calling).
int draw_with_script(const std::string& python, const std::filesystem::path& script,
                     const std::vector<std::string>& args, const std::string& output,
                     bool caller_handles_interrupts = false);

}  // namespace perfgauge::cli
