// The loops every padded decoder variant shares. A variant is a type with a static
// `decode(p, end)`; its entry points instantiate these templates so that the decoder is inlined
// into the loop (the BMI2 entry points add [[gnu::flatten]] so inlining crosses the target
// attribute).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads::detail {

/// Turns "the first byte with its high bit clear is byte number `length`" (1..10, or 11 when
/// none of the 10 has it), found by reading into the padding, into the contract's result.
inline VarintDecoded finish_padded(std::uint32_t value, unsigned length, const std::uint8_t* p,
                                   const std::uint8_t* end) {
    const auto available = static_cast<std::size_t>(end - p);
    if (length <= kMaxVarintBytes && length <= available) [[likely]]
        return {value, length, VarintStatus::ok};
    if (available < std::min<std::size_t>(length, kMaxVarintBytes))
        return {0, 0, VarintStatus::truncated};
    return {0, 0, VarintStatus::malformed};
}

template <class Decoder>
inline VarintParse parse_loop(const std::uint8_t* p, const std::uint8_t* end, std::size_t count) {
    VarintParse result;
    const std::uint8_t* const start = p;
    std::size_t i = 0;
    for (; i < count; ++i) {
        const VarintDecoded d = Decoder::decode(p, end);
        if (d.status != VarintStatus::ok) [[unlikely]] {
            result.status = d.status;
            break;
        }
        result.sum += d.value;
        p += d.length;
    }
    result.parsed = i;
    result.consumed = static_cast<std::size_t>(p - start);
    return result;
}

template <class Decoder>
inline std::uint64_t repeat_loop(const std::uint8_t* p, const std::uint8_t* end,
                                 std::uint64_t times) {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < times; ++i) {
        const std::uint8_t* q = p;
        asm volatile("" : "+r"(q));  // the compiler must decode again: it cannot see q == p
        const VarintDecoded d = Decoder::decode(q, end);
        sum += std::uint64_t{d.value} + d.length;  // in 64 bits: 0xffffffff + 5 must not wrap
    }
    return sum;
}

}  // namespace perfgauge::workloads::detail
