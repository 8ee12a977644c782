// protobuf-style unrolled decoder (as in its ReadVarint32FromArray): one step per byte, with the
// continuation bit of each byte removed by subtraction instead of masking. Baseline x86-64, so
// the SIMD variants use it too, for what their blocks leave over (the last bytes of the data,
// varints longer than 5 bytes, errors) and for one-shot decoding.
#pragma once

#include "varint_loops.hpp"

namespace perfgauge::workloads::detail {

struct Unrolled {
    static VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
        std::uint32_t b = p[0];
        std::uint32_t value = b;
        if (b < 0x80)
            return finish_padded(value, 1, p, end);
        value -= 0x80;
        b = p[1];
        value += b << 7;
        if (b < 0x80)
            return finish_padded(value, 2, p, end);
        value -= 0x80u << 7;
        b = p[2];
        value += b << 14;
        if (b < 0x80)
            return finish_padded(value, 3, p, end);
        value -= 0x80u << 14;
        b = p[3];
        value += b << 21;
        if (b < 0x80)
            return finish_padded(value, 4, p, end);
        value -= 0x80u << 21;
        b = p[4];
        value += b << 28;  // wraps modulo 2^32: the bits above 32 are dropped, as intended
        if (b < 0x80)
            return finish_padded(value, 5, p, end);
        // Bytes 6..10 carry only bits above 32 (negative int32): skip them.
        for (unsigned i = 5; i < kMaxVarintBytes; ++i) {
            if (p[i] < 0x80)
                return finish_padded(value, i + 1, p, end);
        }
        return finish_padded(0, kMaxVarintBytes + 1, p, end);
    }
};

}  // namespace perfgauge::workloads::detail
