#include "selftest/options.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "perfgauge/harness/scratch_dir.hpp"

namespace perfgauge::cli {

namespace {

// Room the JSON needs, with a margin: a default selftest writes about 9 KB.
constexpr std::size_t kJsonRoom = 32 * 1024;

// A full file system would refuse --json's file only after the minutes of work: room for it is
// tried now, with a temporary file beside it (harness::try_room). /dev/full, where every write
// fails, is refused too; other devices, FIFOs and descriptors are written in place and not tried.
void check_room_for(const std::string& path) {
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && S_ISCHR(st.st_mode) && ::major(st.st_rdev) == 1 && ::minor(st.st_rdev) == 7) {
        throw UsageError(fmt::format(
            "cannot write --json '{}': it is /dev/full, where every write fails (No space left "
            "on device); give a file, or /dev/null to keep no JSON",
            path));
    }
    if (exists && !S_ISREG(st.st_mode))
        return;
    std::error_code ec;
    const auto target = std::filesystem::weakly_canonical(path, ec);
    const int error =
        harness::try_room((ec ? std::filesystem::path(path) : target).parent_path(), kJsonRoom);
    if (error == ENOSPC || error == EDQUOT) {
        throw UsageError(fmt::format(
            "cannot write --json '{}': its file system has no room for it ({}); free some "
            "space there or give a path on another file system",
            path, std::strerror(error)));
    }
}

constexpr const char* kHelp =
    "usage: perfgauge selftest [--quick | --thorough] [--runs N] [--json FILE] [-q]\n"
    "       perfgauge selftest --counters [--json FILE]\n\n"
    "How far can measurements on this machine be trusted, now? Measures real work with known\n"
    "differences (a chain of k dependent multiply-adds against the same chain again, and\n"
    "against 1.02k, 1.03k, 1.05k, 1.1k, 1.2k and 1.5k of them), all interleaved in each of\n"
    "several separate runs (each a fresh perfgauge process, as separate perfgauge runs), and\n"
    "compares them with perfgauge's own comparisons: in turn (samples paired by round) and\n"
    "across separate runs (as compare --floor F A.json B.json compares two runs' files, F the\n"
    "between-run floor the other runs measured, and as compare A.json B.json without it).\n"
    "Then the same chains in separate processes: side by side as stat runs commands (each a\n"
    "process doing the chain, timed whole) and in pairs of measuring processes as run\n"
    "--against runs two builds (not with --quick). Reports the noise floor (how far medians of\n"
    "identical work move within a run and between runs), for each way of comparing the A/A\n"
    "false-positive rate, the share of trials that found each injected change and the\n"
    "smallest one found in 95% of them, the share of disturbed samples, and seed 000's\n"
    "overhead-correction check in short form; then one line: the changes this machine\n"
    "resolves each way.\n"
    "About 1.5 min by default, --quick ~15 s, --thorough ~8 min (more runs and\n"
    "samples: narrower rates); longer on a busy machine, whose disturbed samples are re-taken.\n"
    "On a terminal, stderr shows the phase under way and the time left (not with -q).\n"
    "Exit status 0 whatever it finds; 1 when a way of measuring made no trial at all (its\n"
    "child processes could not start or keep a result: it says \"not measured\" and why);\n"
    "2 for bad options, --json's file included (a directory, no room for it), before any work.\n"
    "--counters: do this machine's counters count right? Loops of known work counted and\n"
    "checked (instructions exact, cycles plausible, branch-misses, a multiplexed list, user-space\n"
    "reads against read(), Session regions), one line each: pass, fail or unavailable and why;\n"
    "a second or two, exit 0 whatever they find. The default selftest ends with them where a\n"
    "hardware event opens.\n"
    "\noptions";

SelftestRequest request_from(const po::variables_map& vm) {
    SelftestRequest request;
    if (vm.count("internal-job")) {
        try {
            request.child_job = harness::chain_job_from_json(vm["internal-job"].as<std::string>());
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("--internal-job is perfgauge's own: {}", e.what()));
        }
        return request;
        request.quiet = vm.count("quiet") != 0;
    }
    const int depths =
        static_cast<int>(vm.count("quick") + vm.count("thorough") + vm.count("tiny"));
    if (depths > 1)
        throw UsageError("--quick and --thorough exclude each other: give one at most");
    request.counters_only = vm.count("counters") > 0;
    if (request.counters_only && (depths > 0 || vm.count("runs")))
        throw UsageError(
            "--counters runs the counter checks alone: --quick, --thorough and --runs are for "
            "the default selftest; give --counters alone (with --json FILE if wanted)");
    if (vm.count("quick"))
        request.depth = harness::SelftestDepth::quick;
    if (vm.count("thorough"))
        request.depth = harness::SelftestDepth::thorough;
    if (vm.count("tiny"))
        request.depth = harness::SelftestDepth::tiny;
    if (vm.count("runs")) {
        const int runs = vm["runs"].as<int>();
        if (runs < 2 || runs > 10000)
            throw UsageError(fmt::format(
                "--runs must be 2 to 10000 (two runs make one trial across runs), not {}", runs));
        request.runs = static_cast<std::size_t>(runs);
    }
    if (vm.count("json")) {
        request.json_path = vm["json"].as<std::string>();
        if (request.json_path.empty())
            throw UsageError("--json '' names no file: give a file name, or leave --json out");
        // Before the minutes of work, not after.
        check_output_path(request.json_path);
        refuse_second_document_on_stdout("--json", request.json_path, "the table");
        refuse_outputs_over_inputs({{"--json", request.json_path}}, {});
        check_room_for(request.json_path);
    }
    return request;
}

}  // namespace

std::optional<SelftestRequest> parse_selftest_request(const std::vector<std::string>& args) {
    po::options_description visible(kHelp);
    visible.add_options()("help,h", "show this help")(
        "quick", "about 15 s: fewer runs, no run --against pairs")(
        "thorough", "about 8 min: more runs and trials, the whole correction sweep")(
        "counters", "only the counter checks: loops of known work counted (about 1 s)")(
        "runs", po::value<int>(),
        "separate runs, each a process (2 to 10000), instead of the depth's")(
        "json", po::value<std::string>(),
        "also write the figures as JSON to FILE (not the standard output the table goes to)")(
        "quiet,q", "no progress line on the terminal");
    // For the tests: seconds of work whose figures mean nothing.
    po::options_description hidden;
    hidden.add_options()("tiny", "")(
        // One of a selftest's child processes: the chain as a ChainJob (JSON) says.
        "internal-job", po::value<std::string>(), "");
    const auto vm = parse_command_line(args, visible, hidden);
    if (!vm)
        return std::nullopt;
    return request_from(*vm);
}

}  // namespace perfgauge::cli
