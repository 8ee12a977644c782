// The answer of a run that measured several varint decoders, as typed data: per cache regime
// and cache-size band, which decoder is faster than which and by how much (the paired
// comparison of compare_within, its interval and verdict), the counters that explain it, and
// each decoder's fraction of memcpy's speed. Built from the result model (build_answer); the
// writers render it (run_answer.hpp). Pure: reads nothing from the machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// A working set's place in the cache hierarchy the run used (context l1d/l2/l3_bytes).
enum class SizeBand { l1, l2, l3, memory, beyond_l2 };

/// "L1", "L2", "L3", "memory", ">L2" (no last-level size known).
const char* size_band_name(SizeBand band);

/// The band of `size` bytes for these cache sizes (0: unknown; an unknown L3 makes everything
/// beyond L2 "beyond_l2", never "memory": that would claim a size perfgauge does not know).
SizeBand size_band(std::uint64_t size, std::uint64_t l1d, std::uint64_t l2, std::uint64_t l3);

/// One counter's median per item on each side, over a row's sizes (median of the sizes').
struct AnswerCounter {
    std::string event;
    EventSource source = EventSource::software;
    double baseline = 0, contender = 0;
};

/// One (distribution, cache state, size band, contender) of the answer.
struct AnswerRow {
    std::string dist, cache;
    SizeBand band = SizeBand::l1;
    std::uint64_t smallest = 0, largest = 0;  ///< the working sets in the band, bytes
    std::size_t sizes = 0;                    ///< how many were compared
    std::string baseline, contender;          ///< variant names
    /// contender / baseline time: the median over the band's sizes of each size's paired ratio
    double time_ratio = 1;
    /// The union of the sizes' 95% intervals of that ratio (each from its paired comparison).
    double ratio_low = 1, ratio_high = 1;
    /// False when no size had samples enough for an interval (the bounds are then the ratio).
    bool has_interval = false;
    /// Every size's verdict when they agree; otherwise `mixed` and `agreeing` counts the sizes
    /// whose verdict was the most common one (`verdict`).
    Verdict verdict = Verdict::inconclusive;
    bool mixed = false;
    std::size_t agreeing = 0;
    /// Width of the equivalence band when the verdict is `equivalent` (a share, 0.01 = ±1%).
    double equivalence = 0;
    std::vector<AnswerCounter> counters;  ///< instructions, branch-misses, ... when counted
    /// The decoder's bytes/s as a share of memcpy's on the same data, cache state and size
    /// (median over the sizes); nullopt when the run had no memcpy there.
    std::optional<double> baseline_of_memcpy, contender_of_memcpy;
    /// A simulated miss count points one way and the measured time the other (more simulated
    /// misses, yet faster): callgrind's models cannot see what the real machine does there.
    bool simulation_contradicts = false;
};

struct Answer {
    std::vector<AnswerRow> rows;
    bool several_dists = false;  ///< rows name their distribution
    /// Conditions the reader must know to trust the rows (cold not cold, variants skipped),
    /// from the result's warnings; the simulation caveat is rendered from the rows.
    std::vector<std::string> notes;
    std::size_t other_warnings = 0;        ///< the result's other warnings (about single entries)
    std::vector<std::string> not_counted;  ///< events the run could not count (why: the table)
};

/// Counters the answer explains a time with, when the result counted them.
inline const std::vector<std::string> kAnswerCounters = {"instructions", "branch-misses"};

/// The answer of `result`: every end-on-end varint decoder against the baseline ("branchy" when
/// run, else the first decoder), paired within the result. Empty rows when fewer than two
/// decoders were measured.
Answer build_answer(const RunResult& result, const CompareOptions& options = {});

/// Whether a simulated miss count and the measured time point opposite ways: the contender
/// has more `event` misses per item than the baseline (by more than `floor`) yet its time
/// verdict is faster, or fewer yet slower. Only simulated events ("...miss...") can disagree:
/// callgrind's models are simple, while hardware and software counts come from the machine.
bool simulation_disagrees(Verdict time, const std::string& event, EventSource source,
                          double baseline, double contender,
                          double floor = CompareOptions{}.min_miss_delta);

/// A variant a run skipped (it cannot run on this CPU, or under valgrind), and why: read from
/// the run's "skipped: 'NAME' ..." warnings, so `compare` can name it where it would have been.
struct SkippedVariant {
    std::string name, why;
};
std::vector<SkippedVariant> skipped_variants(const RunResult& result);

}  // namespace perfgauge::harness
