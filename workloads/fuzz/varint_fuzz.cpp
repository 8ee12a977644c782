// libFuzzer differential target: every decoder variant (those this CPU runs) must agree with
// the reference decoder at every offset of the input for decode and repeat, and parsing end on
// end from the first 16 offsets, and with a count taken from the input (the SIMD variants'
// blocks stop at it), for parse; and no
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

// The fuzz build links only the decoders, not the CPU detection of perfgauge::harness; these
// builtins check the same (for AVX, that the OS saves the registers too).
bool runs_here(const VarintVariant& v) {
    if (v.required_isa == "bmi2")
        return __builtin_cpu_supports("bmi2");
    if (v.required_isa == "avx2")
        return __builtin_cpu_supports("avx2");
    if (v.required_isa == "avx512") {
        return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
               __builtin_cpu_supports("avx512vbmi2");
    }
    return v.required_isa.empty();
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
        for (std::size_t offset = 0; offset < 16 && offset <= size; ++offset) {
            const std::uint8_t* p = begin + offset;
            check(v.parse(p, end, size) == parse_varints_reference(p, end, size));
        }
        const std::size_t count = size > 0 ? data[0] : 0;
        check(v.parse(begin, end, count) == parse_varints_reference(begin, end, count));
    }
    return 0;
}
