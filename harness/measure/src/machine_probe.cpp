#include "perfgauge/harness/machine_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

constexpr std::uint64_t kChainSteps = 4096;  // ~4 us here
constexpr std::size_t kCopyBytes = 8192;     // source and destination fit L1d together
constexpr int kCopies = 16;                  // ~1 us here: well above the 10 ns clock steps

}  // namespace

MachineProbe::MachineProbe(const Clock& clock)
    : clock_(&clock), from_(kCopyBytes, 1), to_(kCopyBytes, 0) {
    copies_.reserve(1 << 16);
}

MachineProbe::Reading MachineProbe::take() {
    Reading r;
    std::uint64_t t0 = clock_->start();
    std::uint64_t x = 1;
    for (std::uint64_t i = 0; i < kChainSteps; ++i) {
        x = x * 6364136223846793005ULL + i;
        benchmark_sink(x);
    }
    std::uint64_t t1 = clock_->stop();
    r.chain_ns = clock_->to_ns(static_cast<double>(t1 - t0));
    // One untimed copy brings both buffers into L1 (the batch before may have evicted them).
    std::memcpy(to_.data(), from_.data(), kCopyBytes);
    benchmark_sink(to_[kCopyBytes / 2]);
    t0 = clock_->start();
    for (int c = 0; c < kCopies; ++c) {
        from_[static_cast<std::size_t>(c)] = static_cast<unsigned char>(c);
        std::memcpy(to_.data(), from_.data(), kCopyBytes);
        benchmark_sink(to_[static_cast<std::size_t>(c)]);
    }
    t1 = clock_->stop();
    r.copy_ns = clock_->to_ns(static_cast<double>(t1 - t0));
    if (r.chain_ns > 0 && r.copy_ns > 0) {
        fastest_chain_ns_ =
            fastest_chain_ns_ > 0 ? std::min(fastest_chain_ns_, r.chain_ns) : r.chain_ns;
        recent_chains_[seen_++ % recent_chains_.size()] = r.chain_ns;
        if (copies_.size() < copies_.capacity())
            copies_.push_back(r.copy_ns);
    }
    return r;
}

double MachineProbe::slowdown(const Reading& r) const {
    // The chain alone decides: the copy is short and spiky (measured here: 1 in 7 batches
    // beyond +5%, spikes of 10-40x), which would set aside good samples. Its median over the run
    // is what compare uses.
    const double chain = recent_chain_ns();
    return chain > 0 ? r.chain_ns / chain : 1;
}

double MachineProbe::recent_chain_ns() const {
    const std::size_t n = std::min(seen_, recent_chains_.size());
    return n == 0 ? 0 : median(std::span<const double>(recent_chains_.data(), n));
}

double MachineProbe::median_copy_ns() const {
    return copies_.empty() ? 0 : median(copies_);
}

}  // namespace perfgauge::harness
