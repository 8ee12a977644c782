// Apart from datasets.cpp, so that the data generation compiles exactly as before.
#include "perfgauge/workloads/datasets.hpp"

namespace perfgauge::workloads {

VarintArenaExtent varint_arena_extent(Distribution d, std::size_t min_bytes, std::uint64_t seed) {
    // make_varint_arena's loop, adding up lengths instead of writing the varints.
    VarintArenaExtent extent;
    ValueGenerator gen(d, seed);
    while (extent.bytes < min_bytes) {
        extent.bytes += varint32_size(gen.next());
        ++extent.count;
    }
    return extent;
}

}  // namespace perfgauge::workloads
