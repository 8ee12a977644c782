// The branchless BMI2 decoder: one 8-byte load, the length from the first byte whose high bit
// is clear (tzcnt of the inverted continuation bits), the payload gathered with pext and cut to
// length with bzhi. Compiled with function target attributes, not -mbmi2 for the whole file, so
// that no BMI2 instruction can leak into code that runs before the CPU check.
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstring>

#include "varint_loops.hpp"
#include "varint_variant_list.hpp"

#define PERFGAUGE_BMI2 gnu::target("bmi,bmi2")

namespace perfgauge::workloads::detail {

#if defined(__x86_64__)
namespace {

struct Bmi2 {
    [[PERFGAUGE_BMI2]] static VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
        std::uint64_t word;
        std::memcpy(&word, p, sizeof word);  // bytes 0..7: within the padding
        const std::uint64_t stops = ~word & 0x8080808080808080ull;
        // 1..8, or 9 when none of the first 8 bytes ends the varint (tzcnt(0) = 64).
        unsigned length = static_cast<unsigned>(_tzcnt_u64(stops) >> 3) + 1;
        const std::uint64_t payload = _pext_u64(word, 0x7f7f7f7f7f7f7f7full);
        // 7 * length >= 35 bits for lengths >= 5: the low 32 bits are the value in every case.
        const auto value = static_cast<std::uint32_t>(_bzhi_u64(payload, 7 * length));
        if (length == 9) [[unlikely]]  // 9 or 10 bytes (negative int32), or malformed
            length = p[8] < 0x80 ? 9 : p[9] < 0x80 ? 10 : kMaxVarintBytes + 1;
        return finish_padded(value, length, p, end);
    }
};

[[PERFGAUGE_BMI2, gnu::flatten]] VarintDecoded decode(const std::uint8_t* p,
                                                      const std::uint8_t* end) {
    return Bmi2::decode(p, end);
}
[[PERFGAUGE_BMI2, gnu::flatten]] VarintParse parse(const std::uint8_t* p, const std::uint8_t* end,
                                                   std::size_t count) {
    return parse_loop<Bmi2>(p, end, count);
}
[[PERFGAUGE_BMI2, gnu::flatten]] std::uint64_t repeat(const std::uint8_t* p,
                                                      const std::uint8_t* end,
                                                      std::uint64_t times) {
    return repeat_loop<Bmi2>(p, end, times);
}

}  // namespace
#endif

const VarintVariant kBmi2Variant = {
    "bmi2", "branchless: one 8-byte load, tzcnt for the length, pext + bzhi for the value", "bmi2",
    PERFGAUGE_X86_ONLY(decode, parse, repeat)};

}  // namespace perfgauge::workloads::detail
