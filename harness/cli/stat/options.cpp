#include "stat/options.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>
#include <set>

#include "common/backend_option.hpp"
#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/stat.hpp"

namespace perfgauge::cli {

namespace {

constexpr int kDefaultRounds = 10;

// Everything before the command: up to "--", or up to the first word that is neither an
// option nor an option's value. The rest is the command, passed on untouched.
std::size_t command_start(const std::vector<std::string>& args) {
    static const std::set<std::string> takes_value = {
        "-e",       "--events",  "-r",      "--repeat", "--repetitions", "--format",    "-o",
        "--output", "--backend", "--delay", "--warmup", "--prepare",     "--sim-budget"};
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--")
            return i;
        if (args[i].empty() || args[i][0] != '-')
            return i;
        if (takes_value.count(args[i]))
            ++i;
    }
    return args.size();
}

// "A ::: B ::: C" -> {A, B, C}; a ":::" at either end or twice in a row leaves a command empty.
std::vector<std::vector<std::string>> split_commands(const std::vector<std::string>& words) {
    std::vector<std::vector<std::string>> commands(1);
    for (const auto& w : words) {
        if (w == ":::")
            commands.emplace_back();
        else
            commands.back().push_back(w);
    }
    for (std::size_t c = 0; c < commands.size(); ++c) {
        if (commands[c].empty()) {
            throw UsageError(fmt::format(
                "command {} of {} is empty: separate commands with ':::' (perfgauge stat -- "
                "CMD_A [ARGS] ::: CMD_B [ARGS])",
                c + 1, commands.size()));
        }
    }
    return commands;
}

std::string stat_usage() {
    return fmt::format(
        "usage: perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--warmup N]\n"
        "                      [--prepare CMD] [--format answer|table|csv|json|md] [-o FILE]\n"
        "                      [--backend auto|perf|sim] [--sim-budget SECONDS|none]\n"
        "                      [-v] [-q]\n"
        "                      [--] CMD [ARGS...] [::: CMD_B [ARGS...] ...]\n\n"
        "Runs CMD (no shell; PATH is searched) with counters attached from its exec on,\n"
        "its children included, and reports each event like perf stat: the median over the\n"
        "runs, the robust spread (median absolute deviation, % of the median), the running\n"
        "fraction when counters were multiplexed, and IPC / miss rates when their inputs exist,\n"
        "with the wall time and the CPU time (user, sys) of each run.\n"
        "Side by side: commands separated by ':::' run round by round, interleaved (A B, then\n"
        "B A, ...: drift of the machine weighs on each alike), -r N rounds, and the answer comes\n"
        "first (--format answer, the default): B's time against A in a sentence, then a row per\n"
        "metric that matters (time, CPU time, counters that differ), at most 12 lines:\n"
        "  CHANGE   B's change from A: the median of the per-round ratios of times (of the\n"
        "           differences of counts, over A's median), paired by round\n"
        "  95% CI   its interval (sign test over the rounds), relative to A's median, on the\n"
        "           ratio scale (never below -100%); 'exact' for simulated counts\n"
        "  VERDICT  faster/slower (fewer/more) when the interval lies beyond the threshold,\n"
        "           equivalent (within +-threshold) when inside it, inconclusive otherwise;\n"
        "           threshold: the largest of 1% of A's median and the counter's floor per run\n"
        "           (1 for instructions, cycles, branches; 0.01 misses; 0.001 faults, switches);\n"
        "           simulated counts compared exactly; at least 5 rounds for a verdict\n"
        "Three or more commands: a row per command against A (its time), a line per other\n"
        "metric that differs. --format table (or -v) adds each command's medians and spreads of\n"
        "every counter, the notes and the comparison's full legend, as perfgauge compare's.\n"
        "On a terminal, stderr shows the run in progress and the time left (not with -q).\n"
        "Where the kernel cannot count hardware events (no PMU) and valgrind is installed,\n"
        "--backend auto (the default) simulates those callgrind can (instructions, branches,\n"
        "branch-misses, L1-dcache-*, LLC-*) by running each command once more under valgrind\n"
        "--tool=callgrind (children followed); --backend sim always does, --backend perf never.\n"
        "Every value is labelled hw, sw or sim; time is never simulated. The run under\n"
        "callgrind writes its stdout to /dev/null and its stderr apart (shown when it fails):\n"
        "the commands' output appears once per counted run. Under auto it runs only when\n"
        "callgrind's time, estimated from the native runs (30x their wall time, 60x with a\n"
        "cache event, then as measured), fits --sim-budget: by default the native runs' own\n"
        "wall time or 10 s, whichever is larger (0: never; none: no limit; --backend sim: no\n"
        "limit unless given); otherwise one line says what was left out and the flag to ask.\n"
        "--markers counts only the regions CMD marks with perfgauge_marker_start() and\n"
        "perfgauge_marker_stop() from the header-only <perfgauge/marker.h> (C or C++, nothing\n"
        "to link; they do nothing outside perfgauge; installed with perfgauge, or in a checkout\n"
        "at harness/stat/include/perfgauge/marker.h: -I harness/stat/include): counters start\n"
        "disabled, and every marker turns them on or off for all of CMD's threads and children\n"
        "before it returns. The report says how many marked intervals it saw; 0 when CMD never\n"
        "marked (then nothing is counted). Simulated counts follow the markers too (callgrind's\n"
        "client requests).\n"
        "--delay MS enables the counters MS milliseconds after exec (perf stat -D); not with\n"
        "--markers, nor with simulated events (callgrind has no clock to wait for).\n"
        "--warmup N runs each command N times first, uncounted; --prepare CMD runs CMD with\n"
        "/bin/sh -c before every run (warmups and the run under callgrind too), e.g. to drop\n"
        "caches; failing before the run under callgrind, it leaves the simulated events not\n"
        "counted (the exit status stays the command's).\n"
        "CMD's output passes through untouched; the report goes to stderr, or to FILE (written\n"
        "atomically: complete or not at all).\n\n"
        "SIGINT, SIGTERM and SIGHUP are passed on to CMD (a second one kills it); the runs that\n"
        "completed are reported, marked interrupted (beside -o FILE, as FILE.interrupted, when\n"
        "FILE exists: never over it), and perfgauge exits 128+N. Killed by a\n"
        "signal it does not handle (SIGKILL, SIGQUIT, ...), perfgauge takes CMD along (not\n"
        "what CMD started, nor a set-user-ID CMD).\n\n"
        "Exit status: CMD's own (also when the report cannot be written); side by side, 0 when\n"
        "every command exited 0, else the status of the first that failed (named; the rounds\n"
        "stop there, and the complete ones are reported); the same for a failing --prepare;\n"
        "128+N when a signal N killed it or interrupted perfgauge; 127 when it cannot be\n"
        "executed; 2 for bad options or event names (nothing is run).\n\n"
        "Default events: {}\n\noptions",
        harness::kDefaultStatEvents);
}

void add_stat_options(po::options_description& options) {
    options.add_options()("help,h", "show this help")(
        "events,e",
        po::value<std::string>()->default_value(harness::kDefaultStatEvents, "(see above)"),
        "event list (syntax: perfgauge events --help)")(
        "repeat,r", po::value<int>()->default_value(1),
        "run CMD N times (1 to 100000; side by side: N rounds, 10 when not given); report "
        "medians (--repetitions: the same)")("warmup", po::value<int>()->default_value(0),
                                             "uncounted runs of each command first (0 to 1000)")(
        "prepare", po::value<std::string>(), "shell command run before every run")(
        "format", po::value<std::string>()->default_value("answer"),
        "answer, table, csv, json or md (answer: side by side, the verdicts first on one "
        "screen; one command, the table)")(
        "output,o", po::value<std::string>(),
        "write the report to FILE instead of stderr (- is stderr)")(
        "verbose,v",
        "print the perf_event_attr each event was opened with (as the kernel accepted it: "
        "inherit, enable_on_exec, read_format) first, and the full table, not the answer")(
        "quiet,q", "no progress line on the terminal")(
        "backend", po::value<std::string>()->default_value("auto"), "auto, perf or sim")(
        "sim-budget", po::value<std::string>(),
        "seconds callgrind may take (0: no simulation; none or inf: no limit; default: the "
        "native runs' wall time or 10 s, the larger; --backend sim: none)")(
        "markers", "count only between CMD's perfgauge_marker_start()/stop() (marker.h)")(
        "delay", po::value<long>(),
        "enable the counters MS milliseconds after exec (1 to 3600000)");
}

// The runs: how many, warmups, --prepare, --markers or --delay.
void read_runs(const po::variables_map& vm, harness::StatRequest& request) {
    // Side by side, a comparison needs rounds: 10 unless -r says otherwise (hyperfine's least).
    request.repetitions = request.side_by_side() && vm["repeat"].defaulted()
                              ? kDefaultRounds
                              : vm["repeat"].as<int>();
    if (request.repetitions < 1 || request.repetitions > 100000) {
        throw UsageError(
            fmt::format("-r/--repeat must be 1 to 100000, not {}", request.repetitions));
    }
    request.warmup = vm["warmup"].as<int>();
    if (request.warmup < 0 || request.warmup > 1000)
        throw UsageError(fmt::format("--warmup must be 0 to 1000, not {}", request.warmup));
    if (vm.count("prepare")) {
        request.prepare = vm["prepare"].as<std::string>();
        if (request.prepare.find_first_not_of(" \t") == std::string::npos)
            throw UsageError("--prepare is empty: give a shell command, or leave it out");
    }
    request.markers = vm.count("markers") != 0;
    if (vm.count("delay")) {
        const long delay = vm["delay"].as<long>();
        if (delay < 1 || delay > 3600000)
            throw UsageError(fmt::format("--delay must be 1 to 3600000 ms, not {}", delay));
        if (request.markers)
            throw UsageError(
                "--delay and --markers cannot be combined: with --markers, CMD "
                "itself says when counting starts");
        request.delay = std::chrono::milliseconds(delay);
    }
}

// --sim-budget SECONDS: 0 or more seconds (0: nothing simulated), or none/inf (no limit).
std::optional<double> sim_budget_option(const po::variables_map& vm, harness::Backend backend) {
    if (!vm.count("sim-budget"))
        return std::nullopt;
    const std::string text = vm["sim-budget"].as<std::string>();
    if (backend == harness::Backend::perf)
        throw UsageError(
            "--sim-budget goes with --backend auto or sim: --backend perf never simulates");
    if (text == "none" || text == "inf")
        return std::numeric_limits<double>::infinity();
    double seconds = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(seconds) ||
        seconds < 0)
        throw UsageError(fmt::format(
            "--sim-budget must be seconds (0 or more; 0 simulates nothing) or none (no limit), "
            "not '{}'",
            text));
    return seconds;
}

// --format: the result formats, and the answer (side by side, the table's summary first).
void read_format(const po::variables_map& vm, harness::StatRequest& request) {
    request.verbose = vm.count("verbose") != 0;
    request.quiet = vm.count("quiet") != 0;
    using harness::OutputFormat;
    static constexpr OutputFormat kAccepted[] = {OutputFormat::answer, OutputFormat::table,
                                                 OutputFormat::csv, OutputFormat::json,
                                                 OutputFormat::markdown};
    request.format = format_option(vm, kAccepted);
    if (request.format == OutputFormat::answer) {
        request.format = OutputFormat::table;  // one command's answer, and -v's report
        request.answer = !request.verbose;     // -v asks for the details: the table
    }
}

}  // namespace

std::optional<harness::StatRequest> parse_stat_request(const std::vector<std::string>& args) {
    po::options_description options(stat_usage());
    add_stat_options(options);
    const std::size_t split = command_start(args);
    const std::vector<std::string> own(args.begin(), args.begin() + static_cast<long>(split));
    std::vector<std::string> command_words(args.begin() + static_cast<long>(split), args.end());
    if (!command_words.empty() && command_words.front() == "--")
        command_words.erase(command_words.begin());

    // -r is --repeat in run and stat alike; run's old --repetitions is accepted in both.
    const auto vm =
        parse_options(canonical_spellings(own, {{"--repetitions", "--repeat"}}), options, {});
    if (vm.count("help")) {
        std::cout << options << '\n';
        return std::nullopt;
    }
    if (command_words.empty())
        throw UsageError("no command given: perfgauge stat [OPTIONS] -- CMD [ARGS...]");
    harness::StatRequest request;
    request.commands = split_commands(command_words);
    read_runs(vm, request);
    read_format(vm, request);
    request.output = output_option(vm);
    std::vector<harness::NamedPath> executables;
    for (const auto& command : request.commands)
        executables.push_back(
            {"the command", harness::executable_path(command.front()).value_or("")});
    refuse_outputs_over_inputs({{"-o", request.output.string()}}, executables);
    request.backend = backend_option(vm);
    request.sim_budget = sim_budget_option(vm, request.backend);
    request.events = vm["events"].as<std::string>();
    return request;
}

}  // namespace perfgauge::cli
