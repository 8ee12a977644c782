// The AVX-512 block decoder (VBMI + VBMI2) for varints end on end. One step takes 64 bytes:
//   1. the continuation bits of the 64 bytes are one 64-bit mask; its clear bits end varints;
//   2. a run of 5 continuation bits marks a varint longer than 5 bytes: the step stops before it
//      (the scalar decoder takes that one);
//   3. vpcompressb (VBMI2) packs the start offsets of every complete varint into one vector;
//   4. 8 varints at a time, vpermb (VBMI) moves each varint's bytes into its own 64-bit lane;
//      the bytes after its last one are cleared by arithmetic on the lane's stop bits;
//   5. vpmaddubsw + vpmaddwd + a shift merge the 7-bit groups into the value.
// The only dependency between steps is the address of the next one (the position after the
// last complete varint), so the decoding of one block overlaps the next.
//
// What the blocks cannot take goes to the unrolled scalar decoder: data within 64 bytes of the
// end, varints longer than 5 bytes, malformed input. One-shot `decode` and `repeat` are that
// scalar decoder too: a single varint has no block to work on.

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_epi32() (`__m512i __Y = __Y;`), which
// its own -Wuninitialized flags once inlined (GCC bug 105593, fixed in 13). The state at the
// header's lines is what counts, so this must come before the include.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <bit>

#include "varint_unrolled.hpp"
#include "varint_variant_list.hpp"

#define PERFGAUGE_AVX512 gnu::target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")

namespace perfgauge::workloads::detail {

#if defined(__x86_64__)
namespace {

constexpr std::size_t kBlockBytes = 64;

struct Avx512Block {
    __m512i sum;  // 64-bit lanes: sums of values, added up at the end

    /// Decodes up to `limit` (>= 1) varints that lie whole in the 64 bytes at p (p + 64 <= end)
    /// and are at most 5 bytes long. Returns how many; `p` moves past them.
    [[PERFGAUGE_AVX512]] std::size_t step(const std::uint8_t*& p, std::size_t limit) {
        const __m512i data = _mm512_loadu_si512(p);
        const std::uint64_t more = _mm512_movepi8_mask(data);  // bit i: byte i continues
        std::uint64_t stops = ~more;
        const std::uint64_t run5 = more & (more >> 1) & (more >> 2) & (more >> 3) & (more >> 4);
        if (run5 != 0)  // the varint holding that run starts after the last stop before it
            stops &= _blsmsk_u64(run5) >> 1;
        if (stops == 0)
            return 0;
        std::size_t n = static_cast<std::size_t>(std::popcount(stops));
        if (n > limit) {
            stops = _pdep_u64((std::uint64_t{1} << limit) - 1, stops);  // the first `limit`
            n = limit;
        }
        // Byte i of `starts`: where varint i begins (0, then one past each stop).
        const __m512i starts = _mm512_maskz_compress_epi8(
            (stops << 1) | 1,
            _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46,
                            45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,
                            27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
                            9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
        // Lane j of group g takes varint g + j: byte k of the lane is starts[g + j] + k.
        const __m512i lane_of_byte = _mm512_set_epi64(
            0x0707070707070707, 0x0606060606060606, 0x0505050505050505, 0x0404040404040404,
            0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0);
        const __m512i byte_in_lane = _mm512_set1_epi64(0x0706050403020100);
        for (std::size_t g = 0; g < n; g += 8) {
            const __m512i which = _mm512_add_epi8(lane_of_byte, _mm512_set1_epi8(char(g)));
            const __m512i index =
                _mm512_add_epi8(_mm512_permutexvar_epi8(which, starts), byte_in_lane);
            const std::size_t lanes = n - g < 8 ? n - g : 8;
            const __mmask64 used = lanes == 8 ? ~__mmask64{0} : (__mmask64{1} << (8 * lanes)) - 1;
            // Indexes past byte 63 wrap; those bytes lie after the varint's end and are cleared.
            sum = _mm512_add_epi64(sum, merge(_mm512_maskz_permutexvar_epi8(used, index, data)));
        }
        p += 64 - std::countl_zero(stops);  // one past the last stop
        return n;
    }

    /// One varint per 64-bit lane, starting at the lane's first byte, its last byte within the
    /// first 5 (unused lanes are zero: they give 0). Returns the values in 64-bit lanes.
    [[PERFGAUGE_AVX512]] static __m512i merge(__m512i bytes) {
        // Keep the bytes up to the first one with a clear high bit: with s = that bit alone
        // (the lowest clear high bit), s ^ (s - 1) covers exactly those bytes. No borrow
        // crosses lanes, as every lane has a stop bit.
        const __m512i stop_bits = _mm512_andnot_si512(bytes, _mm512_set1_epi8(char(0x80)));
        const __m512i upto =
            _mm512_xor_si512(stop_bits, _mm512_sub_epi64(stop_bits, _mm512_set1_epi64(1)));
        // bytes & upto & 0x7f in one instruction (truth table 0x80: a & b & c).
        const __m512i groups = _mm512_ternarylogic_epi64(bytes, upto, _mm512_set1_epi8(0x7f), 0x80);
        // Pairs of bytes to 14 bits (b0 + 128 * b1), pairs of those to 28 bits, then the two
        // halves of the lane: bits above 32 (the 5th byte's top 3) are cut off at the end.
        const __m512i g14 = _mm512_maddubs_epi16(_mm512_set1_epi16(short(0x8001)), groups);
        const __m512i g28 = _mm512_madd_epi16(g14, _mm512_set1_epi32(0x40000001));
        const __m512i value = _mm512_add_epi64(
            g28, _mm512_slli_epi64(_mm512_srli_epi64(g28, 32), 28) /* hi half to bit 28 */);
        // value = lo + (hi << 32) + (hi << 28): the low 32 bits are lo + (hi << 28), as wanted.
        return _mm512_and_si512(value, _mm512_set1_epi64(0xffffffff));
    }

    [[PERFGAUGE_AVX512]] std::uint64_t total() const { return _mm512_reduce_add_epi64(sum); }
};

VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
    return Unrolled::decode(p, end);
}
std::uint64_t repeat(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t times) {
    return repeat_loop<Unrolled>(p, end, times);
}

[[PERFGAUGE_AVX512, gnu::flatten]] VarintParse parse(const std::uint8_t* p, const std::uint8_t* end,
                                                     std::size_t count) {
    VarintParse result;
    const std::uint8_t* const start = p;
    Avx512Block block{_mm512_setzero_si512()};
    std::uint64_t scalar_sum = 0;
    while (result.parsed < count) {
        if (static_cast<std::size_t>(end - p) >= kBlockBytes) [[likely]] {
            const std::size_t n = block.step(p, count - result.parsed);
            result.parsed += n;
            if (n != 0) [[likely]]
                continue;
        }
        const VarintDecoded d = Unrolled::decode(p, end);
        if (d.status != VarintStatus::ok) {
            result.status = d.status;
            break;
        }
        scalar_sum += d.value;
        p += d.length;
        ++result.parsed;
    }
    result.sum = scalar_sum + block.total();
    result.consumed = static_cast<std::size_t>(p - start);
    return result;
}

}  // namespace
#endif

const VarintVariant kAvx512Variant = {
    "avx512",
    "AVX-512 VBMI2 blocks: 64-byte continuation mask, vpcompressb of the starts, vpermb into "
    "64-bit lanes, multiply-add merge (scalar one-shot)",
    "avx512", PERFGAUGE_X86_ONLY(decode, parse, repeat)};

}  // namespace perfgauge::workloads::detail
