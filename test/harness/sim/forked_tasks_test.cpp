// Tasks run each in a forked process, several at once: the outcomes by task whatever the
// number at once, and no child left behind when one fails.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <numeric>

#include "perfgauge/harness/forked_tasks.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"

namespace perfgauge::harness {
namespace {

std::vector<std::size_t> reversed(std::size_t n) {
    std::vector<std::size_t> order(n);
    std::iota(order.rbegin(), order.rend(), std::size_t{0});
    return order;
}

TEST(ForkedTasks, OutcomesComeBackByTaskWhateverTheProcessesAtOnce) {
    const pid_t parent = ::getpid();
    // Each task reports its index and whether it ran in a process of its own.
    const auto task = [parent](std::size_t i) -> std::uint64_t {
        return 10 * i + (::getpid() != parent ? 1 : 0);
    };
    const auto name = [](std::size_t i) { return std::to_string(i); };
    const auto one = run_forked(reversed(5), 1, task, name);
    const auto three = run_forked(reversed(5), 3, task, name);
    ASSERT_EQ(one.size(), 5u);
    ASSERT_EQ(three.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(one[i].value, 10 * i + 1) << i;
        EXPECT_EQ(three[i].value, one[i].value) << i;
        EXPECT_GE(three[i].seconds, 0.0);
    }
}

TEST(ForkedTasks, AFailingTaskIsNamedAndNoChildIsLeft) {
    const auto task = [](std::size_t i) -> std::uint64_t {
        if (i == 2)
            throw std::runtime_error("no");
        if (i == 0)
            ::sleep(30);  // still running when task 2 fails: killed, not waited for
        return i;
    };
    try {
        run_forked({0, 1, 2, 3}, 2, task,
                   [](std::size_t i) { return "task " + std::to_string(i); });
        FAIL() << "task 2 failed";
    } catch (const pmu::SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("task 2"), std::string::npos) << e.what();
    }
    errno = 0;
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "a child is left";
    EXPECT_EQ(errno, ECHILD);
}

}  // namespace
}  // namespace perfgauge::harness
