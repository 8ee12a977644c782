// The branchy decoder: a byte loop that stops at the first byte with its high bit clear. Every
// length is a data-dependent branch, which is what makes it slow on unpredictable lengths.
#include "varint_loops.hpp"
#include "varint_variant_list.hpp"

namespace perfgauge::workloads::detail {

namespace {

struct Branchy {
    static VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
        std::uint32_t value = 0;
        for (unsigned i = 0; i < kMaxVarintBytes; ++i) {
            const std::uint32_t byte = p[i];  // may be padding; finish_padded sorts that out
            if (i < 5)
                value |= (byte & 0x7fu) << (7 * i);  // unsigned: bits above 32 fall off
            if (byte < 0x80)
                return finish_padded(value, i + 1, p, end);
        }
        return finish_padded(0, kMaxVarintBytes + 1, p, end);
    }
};

VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
    return Branchy::decode(p, end);
}
VarintParse parse(const std::uint8_t* p, const std::uint8_t* end, std::size_t count) {
    return parse_loop<Branchy>(p, end, count);
}
std::uint64_t repeat(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t times) {
    return repeat_loop<Branchy>(p, end, times);
}

}  // namespace

const VarintVariant kBranchyVariant = {
    "branchy", "byte loop, one data-dependent branch per byte", "", decode, parse, repeat};

}  // namespace perfgauge::workloads::detail
