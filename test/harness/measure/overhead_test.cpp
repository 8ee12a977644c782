#include "perfgauge/harness/overhead.hpp"

#include <gtest/gtest.h>

namespace perfgauge::harness {
namespace {

TEST(Overhead, MediansResistAPreemptedCalibrationSample) {
    int call = 0;
    const Overhead o = calibrate_overhead(5, 2, [&](double& ns, std::vector<double>& counts) {
        ASSERT_EQ(counts.size(), 2u);
        ns = call == 2 ? 1e6 : 10.0 + call;  // one sample preempted
        counts[0] = 3;
        counts[1] = call == 2 ? 500 : 7;
        ++call;
    });
    EXPECT_EQ(call, 5);
    EXPECT_DOUBLE_EQ(o.ns, 13.0);  // median of 10, 11, 1e6, 13, 14
    EXPECT_EQ(o.counts, (std::vector<double>{3, 7}));
}

TEST(Overhead, PerPauseAndCorrection) {
    const Overhead empty{100, {10, 0}};
    const Overhead with_pauses{300, {50, 4}};
    const Overhead pause = per_pause(with_pauses, empty, 4);
    EXPECT_DOUBLE_EQ(pause.ns, 50);
    EXPECT_EQ(pause.counts, (std::vector<double>{10, 1}));
    // A batch of raw 1000 ns with 3 pauses: 1000 - 100 - 3 * 50.
    EXPECT_DOUBLE_EQ(corrected(1000, empty.ns, pause.ns, 3), 750);
    // Zero pauses in the calibration batch divide by one, not by zero.
    EXPECT_DOUBLE_EQ(per_pause(with_pauses, empty, 0).ns, 200);
}

}  // namespace
}  // namespace perfgauge::harness
