// The AVX2 block decoder for varints end on end (Masked VByte's idea, for LEB128 up to 5 bytes):
//   1. the continuation bits of 64 bytes are one 64-bit mask (two vpmovmskb);
//   2. a step looks at the next 12 of those bits: a table built at compile time gives where up
//      to 4 varints (each at most 5 bytes, each ending within the 12 bytes) start, how many
//      there are and how many bytes they take;
//   3. vpshufb moves each varint's bytes into its own 64-bit lane (the 16 bytes at the step
//      are in both halves of the register); the bytes after its last one are cleared by
//      arithmetic on the lane's stop bits;
//   4. vpmaddubsw + vpmaddwd + a shift merge the 7-bit groups into the value.
// Between steps only the bit position in the mask depends on the previous step (a shift and a
// table load), not a load of the data.
//
// What the steps cannot take goes to the unrolled scalar decoder: data within 64 bytes of the
// end, the last 3 varints asked for, varints longer than 5 bytes, malformed input. One-shot
// `decode` and `repeat` are that scalar decoder too: a single varint has no block to work on.
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <array>

#include "varint_unrolled.hpp"
#include "varint_variant_list.hpp"

#define PERFGAUGE_AVX2 gnu::target("avx2")

namespace perfgauge::workloads::detail {

#if defined(__x86_64__)
namespace {

constexpr std::size_t kChunkBytes = 64;
constexpr unsigned kKeyBits = 12;
constexpr unsigned kLanes = 4;

/// For the continuation bits of 12 bytes: bytes 0-3 the start of varint 0..3 (0x80 where there
/// is none: vpshufb then writes zeros), byte 4 how many varints, byte 5 the bytes they take.
constexpr std::uint64_t step_entry(unsigned more) {
    std::uint64_t starts = 0x80808080;
    unsigned count = 0, pos = 0;
    while (count < kLanes) {
        unsigned last = pos;  // the varint's last byte: the first one without continuation
        while (last < kKeyBits && ((more >> last) & 1) != 0)
            ++last;
        if (last >= kKeyBits || last - pos + 1 > 5)
            break;
        starts =
            (starts & ~(std::uint64_t{0xff} << (8 * count))) | (std::uint64_t{pos} << (8 * count));
        ++count;
        pos = last + 1;
    }
    return starts | (std::uint64_t{count} << 32) | (std::uint64_t{pos} << 40);
}

constexpr auto kSteps = [] {
    std::array<std::uint64_t, 1u << kKeyBits> table{};
    for (unsigned more = 0; more < table.size(); ++more)
        table[more] = step_entry(more);
    return table;
}();

/// One varint per 64-bit lane, starting at the lane's first byte, its last byte within the
/// first 5 (unused lanes are zero: they give 0). Returns the values in 64-bit lanes.
[[PERFGAUGE_AVX2]] __m256i merge(__m256i bytes) {
    // Keep the bytes up to the first one with a clear high bit: with s = that bit alone (the
    // lowest clear high bit), s ^ (s - 1) covers exactly those bytes. No borrow crosses lanes,
    // as every lane has a stop bit.
    const __m256i stop_bits = _mm256_andnot_si256(bytes, _mm256_set1_epi8(char(0x80)));
    const __m256i upto =
        _mm256_xor_si256(stop_bits, _mm256_sub_epi64(stop_bits, _mm256_set1_epi64x(1)));
    const __m256i groups = _mm256_and_si256(_mm256_and_si256(bytes, upto), _mm256_set1_epi8(0x7f));
    // Pairs of bytes to 14 bits (b0 + 128 * b1), pairs of those to 28 bits, then the two halves
    // of the lane: lo + (hi << 32) + (hi << 28) has lo + (hi << 28) in its low 32 bits, and
    // the bits above 32 (the 5th byte's top 3) are cut off.
    const __m256i g14 = _mm256_maddubs_epi16(_mm256_set1_epi16(short(0x8001)), groups);
    const __m256i g28 = _mm256_madd_epi16(g14, _mm256_set1_epi32(0x40000001));
    const __m256i value = _mm256_add_epi64(g28, _mm256_slli_epi64(_mm256_srli_epi64(g28, 32), 28));
    return _mm256_and_si256(value, _mm256_set1_epi64x(0xffffffff));
}

/// Decodes varints from the 64 bytes at p (p + 64 <= end) while at least 4 more are wanted
/// (`limit`); stops at the first varint a step cannot take. Adds their values to `sum` (64-bit
/// lanes), moves p past them and returns how many.
[[PERFGAUGE_AVX2]] std::size_t chunk(const std::uint8_t*& p, std::size_t limit, __m256i& sum) {
    const auto lo = static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
    const auto hi = static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))));
    const std::uint64_t more = lo | (std::uint64_t{hi} << 32);  // bit i: byte i continues
    // Lane j's bytes come from byte j of the step's starts: in the upper half (lanes 2, 3),
    // bytes 2 and 3 of the same 32 bits, which vpbroadcastd put there too.
    const __m256i lane_of_byte =
        _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0);
    const __m256i byte_in_lane = _mm256_set1_epi64x(0x0706050403020100);
    std::size_t pos = 0, n = 0;
    // Steps read 12 mask bits and the 16 bytes at p + pos (within the padding past p + 64).
    while (pos <= kChunkBytes - kKeyBits && limit - n >= kLanes) {
        const std::uint64_t step = kSteps[(more >> pos) & ((1u << kKeyBits) - 1)];
        const auto count = static_cast<std::size_t>((step >> 32) & 0xff);
        if (count == 0)
            break;
        const __m256i window =
            _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + pos)));
        // Indexes past byte 15 wrap within the window; those bytes lie after the varint's end.
        const __m256i index = _mm256_add_epi8(
            _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(step & 0xffffffff)),
                                lane_of_byte),
            byte_in_lane);
        sum = _mm256_add_epi64(sum, merge(_mm256_shuffle_epi8(window, index)));
        pos += (step >> 40) & 0xff;
        n += count;
    }
    p += pos;
    return n;
}

[[PERFGAUGE_AVX2]] std::uint64_t horizontal_sum(__m256i v) {
    const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(half)) +
           static_cast<std::uint64_t>(_mm_extract_epi64(half, 1));
}

VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
    return Unrolled::decode(p, end);
}
std::uint64_t repeat(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t times) {
    return repeat_loop<Unrolled>(p, end, times);
}

[[PERFGAUGE_AVX2, gnu::flatten]] VarintParse parse(const std::uint8_t* p, const std::uint8_t* end,
                                                   std::size_t count) {
    VarintParse result;
    const std::uint8_t* const start = p;
    __m256i sum = _mm256_setzero_si256();
    std::uint64_t scalar_sum = 0;
    while (result.parsed < count) {
        if (static_cast<std::size_t>(end - p) >= kChunkBytes) [[likely]] {
            const std::size_t n = chunk(p, count - result.parsed, sum);
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
    result.sum = scalar_sum + horizontal_sum(sum);
    result.consumed = static_cast<std::size_t>(p - start);
    return result;
}

}  // namespace
#endif

const VarintVariant kAvx2Variant = {
    "avx2",
    "AVX2 blocks: 64-byte continuation mask, a 4096-entry table per 12 bytes, vpshufb into "
    "64-bit lanes, multiply-add merge (scalar one-shot)",
    "avx2", PERFGAUGE_X86_ONLY(decode, parse, repeat)};

}  // namespace perfgauge::workloads::detail
