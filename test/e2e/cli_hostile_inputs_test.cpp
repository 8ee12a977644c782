// End-to-end: what a hostile or careless user gives (issue 38). User patterns run in linear
// time, an output never names an input, inputs are bounded and read once, bytes that are not
// UTF-8 never break a JSON output, ignored signals stay ignored, children are reaped and counted
// honestly.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
    const auto path = dir.path() / name;
    std::ofstream(path) << text;
    return path.string();
}

// A Google Benchmark result with one sample per name.
std::string gbench_json(const std::vector<std::string>& names) {
    nlohmann::json j;
    j["context"] = {{"date", "2026-11-27T00:00:00+00:00"}, {"num_cpus", 2}};
    j["benchmarks"] = nlohmann::json::array();
    for (const auto& name : names) {
        j["benchmarks"].push_back({{"name", name},
                                   {"run_type", "iteration"},
                                   {"iterations", 1000},
                                   {"real_time", 2.0},
                                   {"cpu_time", 2.0},
                                   {"time_unit", "ns"}});
    }
    return j.dump();
}

// The benchmark names `export --format bmf --filter pattern` keeps.
std::vector<std::string> kept(const std::string& file, const std::string& pattern) {
    const auto r = perfgauge({"export", file, "--format", "bmf", "--filter", pattern});
    EXPECT_EQ(r.exit_code, 0) << pattern << ": " << r.err.substr(0, 500);
    std::vector<std::string> names;
    if (r.exit_code == 0) {
        const auto bmf = nlohmann::json::parse(r.out);  // items() must not outlive it
        for (const auto& [name, measures] : bmf.items())
            names.push_back(name);
    }
    return names;
}

// std::regex overflowed the stack on a 50k-character name and never finished `(a|a)*b`.
TEST(CliHostileInputs, PatternsMatchLongNamesInLinearTime) {
    TempDir dir;
    const std::string as(50000, 'a');
    const auto file = write(dir, "gb.json", gbench_json({as, as + "b", "short/b"}));
    using Names = std::vector<std::string>;
    EXPECT_EQ(kept(file, "(a|a)*b"), (Names{as + "b", "short/b"}));
    EXPECT_EQ(kept(file, "^(a|aa)+$"), Names{as});
    // Matching none is an error, said as briefly whatever the names' length.
    const auto none = perfgauge({"export", file, "--format", "bmf", "--filter", "^(a*)*c"});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("matches none of the 3 benchmarks"), std::string::npos)
        << none.err.substr(0, 500);
    EXPECT_LT(none.err.size(), 1000u) << none.err.substr(0, 500);
    EXPECT_EQ(kept(file, "short"), Names{"short/b"});
}

TEST(CliHostileInputs, InvalidPatternExitsTwoWithTheEnginesMessage) {
    TempDir dir;
    const auto file = write(dir, "gb.json", gbench_json({"x"}));
    for (const std::string pattern : {"((", "a{2,1}", "(?<=a)b", "\\"}) {
        const auto r = perfgauge({"export", file, "--filter", pattern});
        EXPECT_EQ(r.exit_code, 2) << pattern;
        EXPECT_NE(r.err.find("--filter '" + pattern + "': not a regular expression ("),
                  std::string::npos)
            << r.err;
    }
    EXPECT_NE(perfgauge({"export", file, "--filter", "(("}).err.find("missing )"),
              std::string::npos);
}

// Every option that writes a file, pointed at an input through the path itself, a symlink or a
// hard link: refused (exit 2) before any work, the input untouched.
TEST(CliHostileInputs, AnOutputNeverReplacesAnInput) {
    TempDir dir;
    const std::string text = gbench_json({"x/1", "x/2"});
    const auto result = write(dir, "r.json", text);
    const auto other = write(dir, "other.json", text);
    fs::create_symlink("r.json", dir.path() / "link.json");
    fs::create_symlink("r.json", dir.path() / "link.png");
    fs::create_hard_link(result, dir.path() / "hard.json");
    const auto link = (dir.path() / "link.json").string();
    const auto hard = (dir.path() / "hard.json").string();
    const auto refused = [&](const std::vector<std::string>& args, const std::string& option) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << args[0] << " " << option << ": " << r.err;
        EXPECT_NE(r.err.find(option + " "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("writing there would destroy it"), std::string::npos) << r.err;
        EXPECT_EQ(read_file(result), text) << args[0] << " " << option << " replaced its input";
    };
    refused({"export", result, "--format", "bmf", "-o", link}, "-o");
    refused({"export", result, "--format", "bmf", "-o", hard}, "-o");
    refused({"compare", other, result, "-o", hard}, "-o");
    refused({"plot", result, "-o", (dir.path() / "link.png").string()}, "-o");

    // An executable perfgauge runs: stat's command (found on PATH or by path) and --against's
    // build. A copy, so that a failure destroys nothing outside the test's directory.
    const auto tool = dir.path() / "tool";
    fs::copy_file("/bin/true", tool);
    const auto tool_text = read_file(tool);
    const auto stat = perfgauge({"stat", "-e", "task-clock", "-o", tool.string(), "--",
                                 (dir.path() / "." / "tool").string()});
    EXPECT_EQ(stat.exit_code, 2) << stat.err;
    EXPECT_NE(stat.err.find("is the command"), std::string::npos) << stat.err;
    fs::create_hard_link(tool, dir.path() / "tool-link");
    const auto against = perfgauge({"run", "--against", tool.string(), "--workload", "memcpy",
                                    "--sizes", "4K", "--cache", "hot", "-r", "6", "--against-json",
                                    (dir.path() / "tool-link").string()});
    EXPECT_EQ(against.exit_code, 2) << against.err;
    EXPECT_NE(against.err.find("--against-json"), std::string::npos) << against.err;
    EXPECT_NE(against.err.find("is the --against build"), std::string::npos) << against.err;
    EXPECT_EQ(read_file(tool), tool_text);
}

TEST(CliHostileInputs, InputsAreBoundedAndDirectoriesNamed) {
    TempDir dir;
    const auto zero = perfgauge({"export", "/dev/zero"});
    EXPECT_EQ(zero.exit_code, 2);
    EXPECT_NE(zero.err.find("cannot read '/dev/zero': it holds more than 256 MB"),
              std::string::npos)
        << zero.err;
    const auto huge = dir.path() / "huge.json";
    std::ofstream(huge) << "";
    fs::resize_file(huge, std::uintmax_t{10} << 30);  // sparse: 10 GB, no disk used
    const auto big = perfgauge({"compare", huge.string(), huge.string()});
    EXPECT_EQ(big.exit_code, 2);
    EXPECT_NE(big.err.find("holds more than 256 MB"), std::string::npos) << big.err;
    const auto directory = perfgauge({"export", dir.path().string()});
    EXPECT_EQ(directory.exit_code, 2);
    EXPECT_NE(directory.err.find("it is a directory"), std::string::npos) << directory.err;
}

// export --format json reads its input twice (to validate it, then to copy it): from a FIFO the
// second read found nothing.
TEST(CliHostileInputs, AStreamIsReadOnce) {
    TempDir dir;
    const auto fifo = dir.path() / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string text = gbench_json({"x/1"});
    std::thread writer([&] { std::ofstream(fifo) << text; });
    const auto r = perfgauge({"export", fifo.string(), "--format", "bmf"});
    // Should perfgauge never have opened the FIFO, this read end lets the writer finish.
    const int unblock = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    writer.join();
    ::close(unblock);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out).contains("x/1")) << r.out;
}

// Arguments are bytes: a command's that are not UTF-8 are written replaced by U+FFFD, and stat
// still exits with the command's status.
TEST(CliHostileInputs, BytesThatAreNotUtf8ReachJsonReplaced) {
    TempDir dir;
    const auto out = dir.path() / "stat.json";
    const auto r = perfgauge({"stat", "-e", "task-clock", "--format", "json", "-o", out.string(),
                              "--", "/bin/sh", "-c", "exit 3", "\xff\xfe-arg"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const auto j = nlohmann::json::parse(read_file(out));
    EXPECT_NE(j.dump().find("\xef\xbf\xbd\xef\xbf\xbd-arg"), std::string::npos) << j.dump();
}

// Started under `trap '' HUP` (as nohup starts it), perfgauge stat leaves SIGHUP ignored: a
// SIGHUP neither interrupts it nor reaches the command, which inherits the ignored disposition.
TEST(CliHostileInputs, AnIgnoredSignalStaysIgnored) {
    const std::string command =
        "grep SigIgn /proc/$$/status; kill -HUP $PPID; sleep 0.2; echo survived";
    const auto r = run_process({"/bin/sh", "-c",
                                "trap '' HUP; exec \"$0\" stat -e task-clock -- /bin/sh -c \"$1\"",
                                PERFGAUGE_CLI_PATH, command});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("survived"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("interrupted"), std::string::npos) << r.err;
    // SigIgn is a hexadecimal mask; SIGHUP (1) is its lowest bit.
    const auto at = r.out.find("SigIgn:");
    ASSERT_NE(at, std::string::npos) << r.out;
    const unsigned long mask = std::stoul(r.out.substr(at + 7), nullptr, 16);
    EXPECT_EQ(mask & 1u, 1u) << r.out;
}

// Each run leaves an orphan that ends before the run does; perfgauge adopts it (it is the
// subreaper) and must reap it then, not at the end: each run counts perfgauge's zombies first.
TEST(CliHostileInputs, AdoptedOrphansAreReapedAsTheyEnd) {
    const std::string command =
        "n=0; for f in /proc/[0-9]*/status; do "
        "grep -qs \"^PPid:.$PPID\\$\" $f && grep -qs '^State:.Z' $f && n=$((n+1)); done; "
        "echo zombies=$n; (sleep 0 & echo $! > \"$0\"); o=$(cat \"$0\"); "
        "while [ -e /proc/$o ] && ! grep -qs '^State:.Z' /proc/$o/status; do sleep 0.01; done";
    TempDir dir;
    const auto r = perfgauge({"stat", "-e", "task-clock", "-r", "6", "--", "/bin/sh", "-c", command,
                              (dir.path() / "orphan").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::size_t runs = 0;
    for (std::size_t at = r.out.find("zombies="); at != std::string::npos;
         at = r.out.find("zombies=", at + 1)) {
        ++runs;
        EXPECT_EQ(r.out.substr(at, 10), "zombies=0\n") << r.out;
    }
    EXPECT_EQ(runs, 6u) << r.out;
}

// A run whose command cannot be executed (here: it removed itself) is a failed run, not one
// more counted: the report covers the runs before it and exits 127 as a shell would.
TEST(CliHostileInputs, ARunThatCouldNotStartIsNotCounted) {
    TempDir dir;
    const auto script = dir.path() / "once.sh";
    std::ofstream(script) << "#!/bin/sh\nrm \"$0\"\n";
    fs::permissions(script, fs::perms::owner_all);
    const auto out = dir.path() / "stat.json";
    const auto r = perfgauge({"stat", "-e", "task-clock", "-r", "3", "--format", "json", "-o",
                              out.string(), "--", script.string()});
    EXPECT_EQ(r.exit_code, 127) << r.err;
    const auto j = nlohmann::json::parse(read_file(out));
    EXPECT_EQ(j["repetitions"], 1) << j.dump();
    EXPECT_NE(j.dump().find("stopped after run 1 of 3: run 2 could not be executed"),
              std::string::npos)
        << j.dump();
}

// ---- issue 49: every reader bounded, messages that name what is wrong -------------------------

const std::string kHostileRun = PERFGAUGE_SOURCE_DIR "/test/e2e/fixtures/small-run.json";

// The small run with a field `depth` levels deep (100,000: export --format json crashed on it
// while compare and history add took it).
std::string deep_run(const TempDir& dir, std::size_t depth) {
    std::string text = read_file(kHostileRun);
    const auto brace = text.find('{');
    text.insert(brace + 1, "\"deep\": " + std::string(depth, '[') + std::string(depth, ']') + ",");
    return write(dir, "deep.json", text);
}

TEST(CliHostileInputs, JsonNestedTooDeepIsRefusedByEveryReader) {
    TempDir dir;
    const auto deep = deep_run(dir, 100000);
    const auto db = (dir.path() / "history.db").string();
    const std::vector<std::vector<std::string>> commands = {
        {"compare", deep, kHostileRun},
        {"compare", kHostileRun, deep},
        {"export", deep, "--format", "json"},
        {"export", deep, "--format", "csv"},
        {"export", deep, "--format", "md"},
        {"export", deep, "--format", "bmf"},
        {"export", deep},
        {"history", "add", deep, "--db", db},
    };
    for (const auto& args : commands) {
        const auto r = perfgauge(args);
        const std::string shown = args[0] + " " + args[1] + (args.size() > 2 ? " " + args[2] : "");
        EXPECT_EQ(r.exit_code, 2) << shown << ": " << r.err.substr(0, 500);
        EXPECT_NE(r.err.find(deep + ": JSON nested deeper than 64 levels at byte"),
                  std::string::npos)
            << shown << ": " << r.err.substr(0, 500);
        EXPECT_LT(r.err.size(), 600u) << shown;
    }
    EXPECT_FALSE(fs::exists(db)) << "history add stored nothing, and made no store for it";
    // 64 levels are read (the file is still a run result).
    const auto r = perfgauge({"export", deep_run(dir, 63), "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliHostileInputs, ExportAsJsonNeverShowsTheJsonLibrarysMessage) {
    TempDir dir;
    auto j = nlohmann::json::parse(read_file(kHostileRun));
    // Entries the reader skips (another run_type) may hold anything: export keeps them as they
    // are, and --filter leaves out those without a name.
    j["benchmarks"].push_back({{"run_type", "other"}, {"run_name", 5}});
    j["benchmarks"].push_back(7);
    const auto odd = write(dir, "odd.json", j.dump());
    for (const auto& filter :
         {std::vector<std::string>{}, std::vector<std::string>{"--filter", "."}}) {
        std::vector<std::string> args = {"export", odd, "--format", "json"};
        args.insert(args.end(), filter.begin(), filter.end());
        // Through a file, not the collected stdout: the entries kept as they are make no valid
        // run result, so e2e_json_outputs_valid has nothing to check in it.
        ProcessOptions to_file;
        to_file.stdout_path = (dir.path() / "exported.json").string();
        const auto r = perfgauge_with(to_file, args);
        const std::string text = read_file(to_file.stdout_path);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
        const auto out = nlohmann::json::parse(text, nullptr, false);
        ASSERT_FALSE(out.is_discarded()) << text.substr(0, 300);
        EXPECT_EQ(out["benchmarks"].size(), j["benchmarks"].size() - (filter.empty() ? 0 : 2));
    }
}

TEST(CliHostileInputs, ACountGivenMinusOneIsNamedAsGiven) {
    for (const auto& args :
         {std::vector<std::string>{"compare", kHostileRun, kHostileRun, "--min-samples", "-1"},
          {"compare", kHostileRun, kHostileRun, "--min-samples=-1"},
          {"calibrate", "--samples", "-1"}}) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("-1: expected a non-negative integer"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("18446744073709551615"), std::string::npos) << r.err;
    }
}

TEST(CliHostileInputs, ANanInGoogleBenchmarkJsonIsBlamedOnItsField) {
    TempDir dir;
    // Two samples of x; the second's family_index a bare NaN, which said "two benchmarks are
    // named 'x'".
    const std::string entry =
        R"("name": "x", "run_type": "iteration", "iterations": 1000, "real_time": 2.0,
           "cpu_time": 2.0, "time_unit": "ns", "per_family_instance_index": 0)";
    const auto file = write(dir, "gb.json",
                            R"({"context": {"num_cpus": 2}, "benchmarks": [{)" + entry +
                                R"(, "family_index": 0, "repetition_index": 0}, {)" + entry +
                                R"(, "family_index": NaN, "repetition_index": 1}]})");
    const auto r = perfgauge({"compare", file, file});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("'x': family_index is NaN, not a count"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("two benchmarks are named"), std::string::npos) << r.err;
}

// Two documents in one stream cannot be read back apart: --json naming the standard output the
// table goes to is refused before any work.
TEST(CliHostileInputs, JsonOnTheStandardOutputBesideTheTableIsRefused) {
    TempDir dir;
    const std::vector<std::string> run = {"run",     "--workload", "memcpy", "--sizes", "1K",
                                          "--cache", "hot",        "-r",     "2",       "-q"};
    const auto with = [&](std::vector<std::string> args, const std::vector<std::string>& more) {
        args.insert(args.end(), more.begin(), more.end());
        return args;
    };
    for (const auto& args :
         {with(run, {"--json", "/dev/stdout"}), with(run, {"--json", "/dev/fd/1"}),
          with(run, {"--json", "/dev/stdout", "--format", "json"}),
          std::vector<std::string>{"selftest", "--tiny", "--json", "/dev/stdout"}}) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
        EXPECT_NE(r.err.find("that is the standard output"), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "") << "nothing measured, nothing printed";
    }
    // The same file through a redirection.
    const auto file = dir.path() / "both.txt";
    ProcessOptions to_file;
    to_file.stdout_path = file.string();
    const auto r = perfgauge_with(to_file, with(run, {"--json", file.string()}));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--json " + file.string() + ": that is the standard output"),
              std::string::npos)
        << r.err;
}

// valgrind's log names the scratch directory perfgauge made for it, which is gone by the time
// the message is read: the message says what it was instead.
TEST(CliHostileInputs, ASimulationFailureNamesNoScratchPathThatIsGone) {
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "AddressSanitizer builds refuse to simulate (no valgrind run)";
    TempDir dir;
    const auto valgrind = dir.path() / "valgrind";
    std::ofstream(valgrind)
        << "#!/bin/sh\n"
           "for a; do case \"$a\" in --log-file=*) log=\"${a#*=}\";; esac; done\n"
           "echo \"valgrind: cannot create $(dirname \"$log\")/x\" > \"$log\"\n"
           "exit 1\n";
    fs::permissions(valgrind, fs::perms::owner_all);
    const auto saved = dir.path() / "r.json";
    const auto r = run_process(
        {"/usr/bin/env", "PERFGAUGE_VALGRIND=" + valgrind.string(), "TMPDIR=" + dir.path().string(),
         PERFGAUGE_CLI_PATH, "run", "--workload=memcpy", "--sizes=1K", "--cache=hot", "--repeat=2",
         "--processes=1", "--min-time=0.0002", "--warmup=0", "--precision=0", "--quiet",
         "--backend=sim", "--events=task-clock,instructions", "--json=" + saved.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("valgrind: cannot create the scratch directory perfgauge made under "
                         "$TMPDIR (since removed)/x"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("perfgauge-sim."), std::string::npos) << r.err;
    EXPECT_EQ(read_file(saved).find("perfgauge-sim."), std::string::npos)
        << "the reason saved in the result names no scratch path either";
}

}  // namespace
}  // namespace perfgauge::test
