// perfgauge's own fixed probes of the machine's speed, taken around every batch outside the
// timed interval: the same work in every run of every perfgauge, so only the machine can change
// their time. Two kinds, because a shared machine slows two kinds of work differently:
//  - a chain of dependent multiply-adds (latency-bound): a lower frequency, a stolen core;
//  - copies of a small buffer that stays in L1 (throughput-bound): a busy sibling hardware
//    thread on the host, sharing the core's load/store bandwidth and predictor, which the chain
//    does not feel (measured on a KVM guest: the copy's median +28..43% and branchy code up to 2x
//    slower while the chain did not move). Too short and spiky to judge one sample by; its
//    median over a run tells two runs' machines apart.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "perfgauge/harness/clock.hpp"

namespace perfgauge::harness {

class MachineProbe {
  public:
    struct Reading {
        double chain_ns = 0;
        double copy_ns = 0;
    };

    explicit MachineProbe(const Clock& clock);

    /// Times both probes and remembers them.
    Reading take();
    /// How much slower `r`'s chain is than the median of the latest chains (1: as usual).
    double slowdown(const Reading& r) const;
    /// The median of the latest chains: how fast the machine has been running lately (0: no
    /// probe yet).
    double recent_chain_ns() const;
    /// The fastest chain of the run so far.
    double fastest_chain_ns() const { return fastest_chain_ns_; }
    /// The median copy of the run so far (the fastest copy hardly moves when a sibling thread is
    /// busy; its median does).
    double median_copy_ns() const;

  private:
    const Clock* clock_;
    std::vector<unsigned char> from_, to_;
    double fastest_chain_ns_ = 0;
    std::array<double, 32> recent_chains_{};  // ring of the latest chains
    std::size_t seen_ = 0;
    std::vector<double> copies_;  // every copy reading of the run, for its median
};

}  // namespace perfgauge::harness
