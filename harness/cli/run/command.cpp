// perfgauge run: the built-in workloads (varint decoders, memcpy) over working-set sizes and
// cache states, through the runner, to a table and a JSON result file. This file parses
// (run/options.cpp: a RunRequest, or a child's request), calls the stages of harness/pipeline
// (plan -> measure here, in --processes children, or --against's pairs -> simulate) and writes
// what they return.
#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/hints.hpp"
#include "perfgauge/harness/against_stage.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/run_simulation.hpp"
#include "perfgauge/harness/run_stages.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "registry.hpp"
#include "run/options.hpp"
#include "run/simulation.hpp"
#include "run/suite.hpp"

namespace perfgauge::cli {

namespace {

// The stages' messages go to perfgauge's stderr, every write checked.
const harness::Messages& messages() {
    static const harness::Messages out{say_text};
    return out;
}

// The default result file's name without ".json"; write_new_output_file numbers it when a run
// in the same second took it.
std::string default_result_stem() {
    return harness::format_local_now("perfgauge-run-%Y%m%d-%H%M%S");
}

int interrupted_or_ok(const harness::RunResult& result) {
    return result.interrupted_by.empty()
               ? kExitOk
               : harness::interrupted_exit_status(harness::interrupt_signal());
}

// The suite the selection makes on this machine, checked against available memory.
struct RunSuite {
    workloads::SuiteSpec spec;
    std::string last_level_found_by;
};

RunSuite suite_here(const harness::SuiteSelection& selection, const harness::SystemInfo& system) {
    RunSuite suite;
    suite.spec = suite_spec_from(selection, workloads::cache_sizes_from(system.caches),
                                 &suite.last_level_found_by);
    check_suite_memory(suite.spec);
    return suite;
}

// What goes to stdout or -o: the answer (with what it leaves out), else the table in --format.
std::string render_run_output(const harness::RunRequest& request, const harness::RunResult& result,
                              const std::string& json_path) {
    // The answer ends with what it leaves out and the command that shows it.
    const std::string rendered =
        request.show_answer ? harness::render_answer(harness::build_answer(result), json_path) : "";
    if (rendered.empty())  // no answer asked, or fewer than two decoders to answer about
        return harness::render_run(result, request.format);
    return rendered;
}

// Every output attempted whatever happened to the others (a JSON result that cannot be written
// must not cost the table or -o, nor the reverse), each failure named; exit 1 when any failed.
// The JSON result first: when the table cannot be printed, the measurement is still kept.
int write_run_outputs(const harness::RunRequest& request, const harness::RunResult& result) {
    using Where = harness::SavedResult::Where;
    std::vector<std::string> failures;
    const auto attempt = [&](const char* name, const auto& write) {
        try {
            write();
        } catch (const std::exception& e) {
            failures.push_back(fmt::format("{}: {}", name, e.what()));
        }
    };
    const bool interrupted = !result.interrupted_by.empty();
    std::string json_path;
    if (request.json.where != Where::nowhere) {
        attempt("--json", [&] {
            json_path = save_result_json(
                harness::render_run(result, harness::OutputFormat::json),
                request.json.where == Where::path ? std::optional(request.json.path.string())
                                                  : std::nullopt,
                default_result_stem(), request.output.string(), interrupted);
        });
    }
    attempt(request.output.empty() ? "the table" : "-o", [&] {
        write_output(render_run_output(request, result, json_path), request.output.string(),
                     interrupted);
    });
    if (!json_path.empty())
        say("perfgauge run: result saved to {}\n", json_path);
    for (const auto& failure : failures)
        say("perfgauge run: error: {}\n", failure);
    return failures.empty() ? interrupted_or_ok(result) : kExitFailure;
}

// Saves both builds' results and prints their comparison. Each output is written whatever
// happened to the ones before it (a full disk behind one file loses nothing else); the first
// error is rethrown once every output was tried, after every file saved is named.
void write_against_outputs(const harness::RunRequest& request, harness::AgainstMeasured& measured,
                           const std::string& stop_warning, const harness::SystemInfo& system) {
    // Named, not a structured binding: clang 14 lets no lambda capture one.
    const auto results = harness::against_results(measured, system, stop_warning);
    const harness::RunResult& other_result = results.first;
    const harness::RunResult& own_result = results.second;
    std::vector<std::string> saved;
    const std::string stem = default_result_stem();
    const std::string output = request.output.string();
    const auto save = [&](const harness::RunResult& result, const harness::SavedResult& where,
                          const std::string& name) {
        using Where = harness::SavedResult::Where;
        if (where.where == Where::nowhere)
            return std::string();
        saved.push_back(save_result_json(
            harness::render_run(result, harness::OutputFormat::json),
            where.where == Where::path ? std::optional(where.path.string()) : std::nullopt, name,
            output, !result.interrupted_by.empty()));
        return saved.back();
    };
    std::exception_ptr write_error;
    const auto attempt = [&](const auto& write) {
        try {
            write();
        } catch (const std::exception&) {
            if (!write_error)
                write_error = std::current_exception();
        }
    };
    std::string other_path, own_path;
    attempt(
        [&] { other_path = save(other_result, request.against->other_json, stem + "-against"); });
    attempt([&] { own_path = save(own_result, request.json, stem); });
    const auto comparison =
        harness::against_comparison(request, other_result, own_result, measured, other_path,
                                    own_path, stop_warning, messages());
    const bool interrupted =
        !own_result.interrupted_by.empty() || !other_result.interrupted_by.empty();
    attempt([&] {
        write_output(harness::render_comparison(comparison, request.format), output, interrupted);
    });
    for (const auto& path : saved)
        say("perfgauge run: result saved to {}\n", path);
    if (write_error)
        std::rethrow_exception(write_error);
}

// perfgauge run --against OTHER: both builds measured in pairs, saved and compared.
int run_against(const harness::RunRequest& request, workloads::SuiteSpec spec,
                const harness::SystemInfo& system) {
    auto measured = harness::measure_against(
        request, std::move(spec), system,
        [&](const auto& params) { return single_benchmark_selection(request.selection, params); },
        messages());
    const auto& done = measured.done;
    if (measured.own.benchmarks.empty() && !done.failure.empty())
        throw std::runtime_error(done.failure);
    if (measured.own.benchmarks.empty()) {
        say("perfgauge run: interrupted by {} before the first benchmark had all its pairs; "
            "nothing saved\n",
            harness::signal_name(harness::interrupt_signal()));
        return harness::interrupted_exit_status(harness::interrupt_signal());
    }
    write_against_outputs(request, measured, harness::against_stop_warning(measured), system);
    if (!done.failure.empty())
        throw std::runtime_error(done.failure);  // what was measured before it is saved
    return harness::interrupt_signal() != 0
               ? harness::interrupted_exit_status(harness::interrupt_signal())
               : kExitOk;
}

// A child of a run: the simulation child (under valgrind) or a measuring process, whose result
// goes to the file its parent named, even when interrupted (the parent merges what it
// measured).
int run_child(const harness::ChildRequest& child) {
    const harness::InterruptHandling interrupts;  // as the parent's: see run_command
    const auto system = harness::collect_system_info();
    RunSuite suite = suite_here(child.run.selection, system);
    if (const auto* simulation = child.simulation()) {
        if (!pmu::callgrind::running_on_valgrind()) {
            throw UsageError(
                "--internal-request for the simulation is perfgauge's own (it runs under "
                "valgrind); use --backend sim");
        }
        return harness::simulate_as_child(child.run, suite.spec, system, simulation->manifest);
    }
    const auto plan =
        harness::plan_run(child.run, std::move(suite.spec), std::move(suite.last_level_found_by),
                          simulation_valgrind(child.run.backend), *child.measuring(), messages());
    const harness::RunResult result = harness::measure_here(plan, system, messages());
    if (!result.benchmarks.empty()) {
        harness::write_output_file(child.measuring()->result_path.string(),
                                   harness::render_run(result, harness::OutputFormat::json));
    }
    return interrupted_or_ok(result);
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
    const auto call = parse_run_request(args);
    if (!call)
        return kExitOk;  // --help
    if (const auto* child = std::get_if<harness::ChildRequest>(&*call))
        return run_child(*child);
    const auto& request = std::get<harness::RunRequest>(*call);
    for (const auto& note : request.notes)
        say("perfgauge run: {}\n", note);
    // Interrupts stop the measurement between batches, and what was measured is saved. The
    // simulation child (under valgrind) passes them on to its simulation processes, reaps them
    // and ends; its parent saves the native result without the simulated counts.
    const harness::InterruptHandling interrupts;
    const auto system = harness::collect_system_info();
    RunSuite suite = suite_here(request.selection, system);
    if (request.against)
        return run_against(request, std::move(suite.spec), system);
    const auto plan =
        harness::plan_run(request, std::move(suite.spec), std::move(suite.last_level_found_by),
                          simulation_valgrind(request.backend), std::nullopt, messages());
    const auto native_start = std::chrono::steady_clock::now();
    harness::RunResult result = request.processes > 1
                                    ? harness::measure_apart(request, plan, system, messages())
                                    : harness::measure_here(plan, system, messages());
    if (result.benchmarks.empty() && harness::interrupt_signal() != 0) {
        say("perfgauge run: interrupted by {} before any benchmark had a sample; nothing "
            "saved\n",
            harness::interruption());
        return harness::interrupted_exit_status(harness::interrupt_signal());
    }
    const std::chrono::duration<double> native_wall =
        std::chrono::steady_clock::now() - native_start;
    harness::simulate_run(request, plan, system, native_wall.count(), result, messages());
    harness::record_last_level(request, plan, result, messages());
    add_cli_hints(result.events);
    return write_run_outputs(request, result);
}

}  // namespace perfgauge::cli
