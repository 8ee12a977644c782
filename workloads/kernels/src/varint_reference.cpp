// Encoder, reference decoder, PaddedBytes and the variant registry.
#include <cstring>
#include <new>

#include "perfgauge/workloads/varint.hpp"
#include "varint_variant_list.hpp"

namespace perfgauge::workloads {

std::string_view status_name(VarintStatus status) {
    switch (status) {
        case VarintStatus::ok:
            return "ok";
        case VarintStatus::truncated:
            return "truncated";
        case VarintStatus::malformed:
            return "malformed";
    }
    return "?";
}

std::size_t varint32_size(std::uint32_t value) {
    std::size_t n = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++n;
    }
    return n;
}

namespace {

std::size_t encode_varint64(std::uint64_t value, std::uint8_t* out) {
    std::size_t n = 0;
    while (value >= 0x80) {
        out[n++] = static_cast<std::uint8_t>(value | 0x80);
        value >>= 7;
    }
    out[n++] = static_cast<std::uint8_t>(value);
    return n;
}

}  // namespace

std::size_t encode_varint32(std::uint32_t value, std::uint8_t* out) {
    return encode_varint64(value, out);
}

std::size_t encode_varint_int32(std::int32_t value, std::uint8_t* out) {
    // protobuf sign-extends int32 to 64 bits before encoding: -1 takes 10 bytes.
    return encode_varint64(static_cast<std::uint64_t>(static_cast<std::int64_t>(value)), out);
}

VarintDecoded decode_varint32_reference(const std::uint8_t* p, const std::uint8_t* end) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < kMaxVarintBytes; ++i) {
        if (p + i == end)
            return {0, 0, VarintStatus::truncated};
        const std::uint64_t byte = p[i];
        if (i < 5)
            value |= (byte & 0x7f) << (7 * i);
        if ((byte & 0x80) == 0) {
            return {static_cast<std::uint32_t>(value & 0xffffffffu),
                    static_cast<std::uint32_t>(i + 1), VarintStatus::ok};
        }
    }
    return {0, 0, VarintStatus::malformed};
}

VarintParse parse_varints_reference(const std::uint8_t* p, const std::uint8_t* end,
                                    std::size_t count) {
    VarintParse result;
    for (; result.parsed < count; ++result.parsed) {
        const VarintDecoded d = decode_varint32_reference(p + result.consumed, end);
        if (d.status != VarintStatus::ok) {
            result.status = d.status;
            break;
        }
        result.sum += d.value;
        result.consumed += d.length;
    }
    return result;
}

std::span<const VarintVariant> varint_variants() {
    static const VarintVariant all[] = {detail::kBranchyVariant, detail::kBmi2Variant,
                                        detail::kUnrolledVariant, detail::kAvx2Variant,
                                        detail::kAvx512Variant};
    return all;
}

const VarintVariant* find_varint_variant(std::string_view name) {
    for (const auto& v : varint_variants()) {
        if (v.name == name)
            return &v;
    }
    return nullptr;
}

namespace {
// A page, not just a cache line: every buffer then starts at the same offset in its page
// whatever the heap held before, so memcpy's source and destination keep one relative alignment
// in every process. At 64 bytes their distance modulo 4096 followed the allocation history, and
// it matters: a standalone loop of 4 KiB copies took 69-70 TSC ticks with the destination 0-448
// bytes past the source (modulo 4096), 72-73 at 3072-3264.
constexpr std::align_val_t kPaddedAlignment{4096};
}  // namespace

PaddedBytes::PaddedBytes(std::size_t size) : size_(size) {
    // Exactly size + padding bytes, so that AddressSanitizer catches a read one byte beyond.
    const std::size_t total = size + kVarintPadding;
    auto* p = static_cast<std::uint8_t*>(::operator new[](total, kPaddedAlignment));
    std::memset(p, 0, total);
    bytes_.reset(p);
}

void PaddedBytes::Free::operator()(std::uint8_t* p) const {
    ::operator delete[](p, kPaddedAlignment);
}

}  // namespace perfgauge::workloads
