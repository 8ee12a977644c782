// libFuzzer differential target: every decoder variant (those this CPU runs) must agree with
// the reference decoder at every offset of the input, for decode, parse and repeat; and no
// decoder may read beyond kVarintPadding bytes after the data (the buffer ends exactly there,
// so AddressSanitizer reports it). The padding is filled with the input's last byte, so its
// content varies too and must never change a result.
//
// Short run: ctest fuzz_varint_short in build-fuzz (200k inputs from the seeds in corpus/).
// Longer run: perfgauge-fuzz-varint -max_total_time=600 SCRATCH_DIR workloads/fuzz/corpus
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "perfgauge/workloads/varint.hpp"

namespace {

using namespace perfgauge::workloads;

bool runs_here(const VarintVariant& v) {
    return v.required_isa.empty() || __builtin_cpu_supports("bmi2");
}

void check(bool ok) {
    if (!ok)
        std::abort();  // libFuzzer records the input that got here
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    PaddedBytes buffer(size);
    if (size > 0)
        std::memcpy(buffer.data(), data, size);
    std::memset(buffer.data() + size, size > 0 ? data[size - 1] : 0xff, kVarintPadding);
    const std::uint8_t* begin = buffer.data();
    const std::uint8_t* end = buffer.end();
    for (const auto& v : varint_variants()) {
        if (!runs_here(v))
            continue;
        for (const std::uint8_t* p = begin; p <= end; ++p) {
            const VarintDecoded expected = decode_varint32_reference(p, end);
            check(v.decode(p, end) == expected);
            if (expected.status == VarintStatus::ok) {
                check(v.repeat(p, end, 2) == 2 * (std::uint64_t{expected.value} + expected.length));
            }
        }
        check(v.parse(begin, end, size) == parse_varints_reference(begin, end, size));
    }
    return 0;
}
