// The protobuf-style unrolled decoder (varint_unrolled.hpp) as a measured variant.
#include "varint_unrolled.hpp"

#include "varint_variant_list.hpp"

namespace perfgauge::workloads::detail {

namespace {

VarintDecoded decode(const std::uint8_t* p, const std::uint8_t* end) {
    return Unrolled::decode(p, end);
}
VarintParse parse(const std::uint8_t* p, const std::uint8_t* end, std::size_t count) {
    return parse_loop<Unrolled>(p, end, count);
}
std::uint64_t repeat(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t times) {
    return repeat_loop<Unrolled>(p, end, times);
}

}  // namespace

const VarintVariant kUnrolledVariant = {
    "unrolled", "protobuf-style unrolled byte steps (ReadVarint32FromArray)", "", decode, parse,
    repeat};

}  // namespace perfgauge::workloads::detail
