// The loops of known work (selftest --counters counts them), held to their known instruction counts
// without a PMU: a child process runs each one while this test single-steps it with ptrace, one
// instruction per step, from the function's first instruction to its return (what a PMU's
// user-space instruction count of the call would be). Exact and deterministic; on the x86 VM, where
// no counter counts them, this is what says the x86 loops execute what the checks expect (the arm64
// guest runs it too, beside the PMU's counts).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__aarch64__)
#include <elf.h>
#endif

#include <cstdint>
#include <optional>
#include <vector>

#include "perfgauge/pmu/known_loops.hpp"

namespace perfgauge::pmu {
namespace {

using Function = void (*)(std::uint64_t);

std::vector<std::uint8_t> g_bytes;  // branch_loop's input (the child inherits it)

[[gnu::noinline]] void run_straight(std::uint64_t n) {
    straight_loop(n);
}

[[gnu::noinline]] void run_branches(std::uint64_t n) {
    const std::uint64_t kept = branch_loop(g_bytes.data(), n);
    asm volatile("" : : "r"(kept));
}

struct Registers {
    std::uint64_t pc = 0;
    std::uint64_t return_address = 0;  // at the function's entry: where its ret goes
};

std::optional<Registers> registers(pid_t pid) {
    Registers r;
#if defined(__x86_64__)
    user_regs_struct regs{};
    if (::ptrace(PTRACE_GETREGS, pid, nullptr, &regs) != 0)
        return std::nullopt;
    r.pc = regs.rip;
    errno = 0;
    const long top = ::ptrace(PTRACE_PEEKDATA, pid, reinterpret_cast<void*>(regs.rsp), nullptr);
    if (errno != 0)
        return std::nullopt;
    r.return_address = static_cast<std::uint64_t>(top);
#elif defined(__aarch64__)
    user_regs_struct regs{};  // glibc's: regs[31] (x30 the link register), sp, pc, pstate
    iovec io{&regs, sizeof regs};
    if (::ptrace(PTRACE_GETREGSET, pid, reinterpret_cast<void*>(NT_PRSTATUS), &io) != 0)
        return std::nullopt;
    r.pc = regs.pc;
    r.return_address = regs.regs[30];  // the link register
#else
    (void)pid;
    return std::nullopt;
#endif
    return r;
}

// The child: killed and reaped however the test ends.
struct Tracee {
    pid_t pid = -1;
    ~Tracee() {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            int status = 0;
            ::waitpid(pid, &status, 0);
        }
    }
};

bool step(pid_t pid) {
    int status = 0;
    return ::ptrace(PTRACE_SINGLESTEP, pid, nullptr, nullptr) == 0 &&
           ::waitpid(pid, &status, 0) == pid && WIFSTOPPED(status);
}

// Instructions `fn(n)` executes from its entry to its return, counted by single-stepping it in
// a child; nullopt where ptrace is refused here.
std::optional<std::uint64_t> instructions_of(Function fn, std::uint64_t n) {
    Tracee child;
    child.pid = ::fork();
    if (child.pid == 0) {
        ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
        ::raise(SIGSTOP);
        fn(n);
        ::_exit(0);
    }
    int status = 0;
    if (child.pid < 0 || ::waitpid(child.pid, &status, 0) != child.pid || !WIFSTOPPED(status))
        return std::nullopt;
    const auto entry = reinterpret_cast<std::uint64_t>(fn);
    std::optional<Registers> r = registers(child.pid);
    for (int i = 0; r && r->pc != entry && i < 1000000; ++i)
        r = step(child.pid) ? registers(child.pid) : std::nullopt;
    if (!r || r->pc != entry)
        return std::nullopt;
    const std::uint64_t back = r->return_address;
    std::uint64_t executed = 0;
    for (; r && r->pc != back; ++executed)
        r = step(child.pid) ? registers(child.pid) : std::nullopt;
    if (!r)
        return std::nullopt;
    return executed;
}

bool ptrace_works() {
    return kKnownLoopsWritten && instructions_of(run_straight, 1).has_value();
}

TEST(KnownLoops, StraightLoopExecutesThreeInstructionsPerIteration) {
    if (!ptrace_works())
        GTEST_SKIP() << "ptrace single-stepping is refused here, or no loop for this CPU";
    const auto small = instructions_of(run_straight, 10);
    const auto large = instructions_of(run_straight, 1010);
    const auto again = instructions_of(run_straight, 1010);
    ASSERT_TRUE(small && large && again);
    EXPECT_EQ(*large - *small, std::uint64_t{kStraightLoopInstructions} * 1000);
    EXPECT_EQ(*large, *again) << "the same n executes the same instructions";
}

TEST(KnownLoops, BranchLoopTakesItsBranchOnZerosOnly) {
    if (!ptrace_works())
        GTEST_SKIP() << "ptrace single-stepping is refused here, or no loop for this CPU";
    g_bytes.assign(600, 0);
    const auto zeros_100 = instructions_of(run_branches, 100);
    const auto zeros_600 = instructions_of(run_branches, 600);
    g_bytes.assign(600, 1);
    const auto ones_600 = instructions_of(run_branches, 600);
    ASSERT_TRUE(zeros_100 && zeros_600 && ones_600);
    // Per zero byte: the test, the branch taken over the add, the loop's count and branch
    // (x86: cmp, je, add, sub, jnz = 5; arm64: ldrb, cbz, subs, b.ne = 4); a non-zero byte
    // executes the add too.
#if defined(__x86_64__)
    constexpr std::uint64_t kPerZero = 5;
#else
    constexpr std::uint64_t kPerZero = 4;
#endif
    EXPECT_EQ(*zeros_600 - *zeros_100, kPerZero * 500);
    EXPECT_EQ(*ones_600 - *zeros_600, 600u) << "one add per non-zero byte";
}

}  // namespace
}  // namespace perfgauge::pmu
