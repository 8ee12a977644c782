// perfgauge plot: draws a run result's sweep with scripts/plot_sweep.py, run by a Python that
// has matplotlib (the python3 first on PATH may not be Debian's and lack it).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/result_input.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "plot/options.hpp"
#include "plot/python.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

namespace {

namespace fs = std::filesystem;

bool has_matplotlib(const std::string& python) {
    // find_spec prints nothing either way (an `import` would show a traceback when missing);
    // an interrupt ends it silently (perfgauge says it), not with a KeyboardInterrupt.
    harness::PendingChild child({python, "-c",
                                 "import signal; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                                 "import importlib.util, sys; "
                                 "sys.exit(importlib.util.find_spec('matplotlib') is None)"});
    child.start();
    const auto status = child.wait();
    return status.exited_with(0);
}

}  // namespace

std::string python_for_plotting() {
    if (const char* chosen = std::getenv("PERFGAUGE_PYTHON"); chosen != nullptr && *chosen) {
        // The user's choice is not second-guessed, but what is wrong with it is said.
        std::error_code ec;
        if (fs::is_directory(chosen, ec)) {
            throw std::runtime_error(fmt::format(
                "PERFGAUGE_PYTHON={}: is a directory, not a Python; point it at the python3 "
                "executable itself (e.g. {}/bin/python3 in a virtual environment), or unset it "
                "to use /usr/bin/python3",
                chosen, fs::path(chosen).lexically_normal().string()));
        }
        if (::access(chosen, X_OK) != 0) {
            throw std::runtime_error(
                fmt::format("PERFGAUGE_PYTHON={}: cannot be run ({}); point it at a Python with "
                            "matplotlib, or unset it to use /usr/bin/python3",
                            chosen, std::strerror(errno)));
        }
        if (!has_matplotlib(chosen)) {
            throw std::runtime_error(fmt::format(
                "PERFGAUGE_PYTHON={}: cannot import matplotlib; install it there, or unset "
                "PERFGAUGE_PYTHON to use /usr/bin/python3 (Debian: apt-get install "
                "python3-matplotlib)",
                chosen));
        }
        return chosen;
    }
    std::vector<std::string> candidates = {"/usr/bin/python3"};
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "";
    for (std::size_t start = 0; start <= dirs.size();) {
        const auto colon = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, colon - start);
        if (!dir.empty())
            candidates.push_back(dir + "/python3");
        start = colon + 1;
    }
    for (const auto& python : candidates) {
        if (::access(python.c_str(), X_OK) == 0 && has_matplotlib(python))
            return python;
    }
    throw std::runtime_error(
        "no Python with matplotlib found ($PERFGAUGE_PYTHON, else /usr/bin/python3 or "
        "python3 on PATH); install it with: sudo apt-get install python3-matplotlib");
}

fs::path plotting_script(const std::string& name) {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> candidates;
    if (!ec)
        candidates.push_back(exe.parent_path().parent_path() / "share/perfgauge" / name);
    candidates.push_back(fs::path(PERFGAUGE_SOURCE_DIR) / "scripts" / name);
    for (const auto& candidate : candidates) {
        if (fs::is_regular_file(candidate, ec))
            return candidate;
    }
    throw std::runtime_error(name + " is neither installed nor in the source tree");
}

namespace {

// The interrupt that ended the drawing: perfgauge's own (passed on to the script), or one sent
// to the script alone, which then exits 128+N (plot_common.py) or dies of it; 0 when none.
int drawing_interrupted_by(const harness::ExitStatus& status) {
    if (const int signal = harness::interrupt_signal())
        return signal;
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
        if (status.signaled ? status.code == signal
                            : status.exited_with(harness::interrupted_exit_status(signal)))
            return signal;
    }
    return 0;
}

}  // namespace

std::string python_for_plotting_unless_interrupted() {
    try {
        return python_for_plotting();
    } catch (const std::runtime_error&) {
        if (harness::interrupt_signal() == 0)  // an interrupted check is no missing matplotlib
            throw;
    }
    return {};
}

int draw_with_script(const std::string& python, const fs::path& script,
                     const std::vector<std::string>& args, const std::string& output,
                     bool caller_handles_interrupts) {
    // An interrupt reaches matplotlib and ends the plot; the scratch directory goes with it.
    std::optional<harness::InterruptHandling> interrupts;
    if (!caller_handles_interrupts)
        interrupts.emplace();
    // matplotlib writes into a scratch directory; perfgauge puts the picture in place by its
    // own safe-output rules (no rename over a device, symlinks followed, never half a file).
    const harness::ScratchDir scratch("perfgauge-plot", "the picture being drawn");
    const fs::path drawn = scratch.path() / ("picture" + fs::path(output).extension().string());
    std::vector<std::string> command = {python, script.string()};
    command.insert(command.end(), args.begin(), args.end());
    // The script stays silent when interrupted: perfgauge says it, once, below.
    command.insert(command.end(), {"--quiet-interrupt", "-o", drawn.string()});
    harness::PendingChild child(command);
    child.start();
    const auto status = child.wait();
    if (const int signal = drawing_interrupted_by(status)) {
        say("perfgauge: interrupted by {} while drawing {}: nothing written\n",
            harness::signal_name(signal), output);
        return harness::interrupted_exit_status(signal);
    }
    if (status.exited_with(0)) {
        harness::write_output_file(output, harness::read_text_file(drawn));
        return kExitOk;
    }
    // The script exits 2 for bad input (not a run result, a counter the run lacks) and has
    // said why on stderr.
    return !status.signaled && status.code == kExitUsage ? kExitUsage : kExitFailure;
}

int plot_command(const std::vector<std::string>& args) {
    const auto request = parse_plot_request(args);
    if (!request)
        return kExitOk;
    const std::string& result = request->result;
    const std::string& output = request->output;
    // From before the first child (the matplotlib check) and scratch copy: an interrupt at any
    // point is said once, and leaves nothing behind.
    const harness::InterruptHandling interrupts;
    const auto stop_if_interrupted = [&] {
        if (const int signal = harness::interrupt_signal()) {
            say("perfgauge plot: interrupted by {} before drawing {}: nothing written\n",
                harness::signal_name(signal), output);
            return true;
        }
        return false;
    };

    const auto script = plotting_script("plot_sweep.py");
    const std::string python = python_for_plotting_unless_interrupted();
    if (stop_if_interrupted())
        return harness::interrupted_exit_status(harness::interrupt_signal());
    refuse_outputs_over_inputs(
        {{"-o", output}},
        {{"the result", result}, {"the plotting script", script.string()}, {"the Python", python}});
    // Read as compare and export read it, whatever its kind: a file with impossible values
    // (negative times, ...) is refused with its name (exit 2) before Python draws them.
    const harness::RunResult read = read_any_result_file(result);
    // Python draws run results: another kind (stat, Google Benchmark) is drawn from what
    // perfgauge read, written as a run result; a pipe or <(...) was consumed by reading it, so
    // Python draws a copy.
    std::optional<harness::ScratchDir> copy;
    std::string drawn_from = result;
    if (read.kind != harness::ResultKind::run || !fs::is_regular_file(result)) {
        copy.emplace("perfgauge-plot", "the result being drawn");
        drawn_from = (copy->path() / "result.json").string();
        harness::write_output_file(drawn_from,
                                   read.kind == harness::ResultKind::run
                                       ? read_input_file(result)
                                       : harness::render_run(read, harness::OutputFormat::json));
    }
    // The script's messages name the user's files, not the copies it is given.
    std::vector<std::string> script_args = {drawn_from,
                                            "--result-name",
                                            result,
                                            "--output-name",
                                            output,
                                            "--per",
                                            std::string(harness::sample_unit(read.kind))};
    if (request->counters) {
        script_args.push_back("--counters");
        script_args.push_back(*request->counters);
    }
    if (stop_if_interrupted())
        return harness::interrupted_exit_status(harness::interrupt_signal());
    const int status = draw_with_script(python, script, script_args, output, true);
    // The picture shows simulated misses beside measured times: where they disagree, why (once).
    if (const auto caveat = harness::simulation_caveat(harness::build_answer(read));
        status == kExitOk && !caveat.empty())
        say("perfgauge plot: {}\n", caveat);
    return status;
}

}  // namespace perfgauge::cli
