// varint32 in protobuf wire format (base-128, little-endian groups of 7 bits, the high bit of
// each byte set when another byte follows): an encoder, a reference decoder, and the measured
// decoder variants.
//
// Decoding contract, shared by every variant (differential tests and the fuzzer hold them to
// it byte for byte):
//   * decode(p, end) reads the varint that starts at p; [p, end) is the data.
//   * A varint is 1 to 10 bytes long. Bits above 32 are discarded (protobuf's ReadVarint32):
//     the 5th byte may carry bits 32-34, and negative int32 values are written as 10 bytes
//     (sign-extended to 64 bits); both decode to the low 32 bits.
//   * status ok: value and length (1..10) are set, p + length <= end.
//   * status truncated: the data ends before a byte with the high bit clear (this includes
//     p == end). Checked before malformed: 3 continuation bytes then end-of-data is truncated.
//   * status malformed: the 10th byte still has its high bit set.
//   * Decoders may read up to kVarintPadding bytes past `end` (they read at most 10 bytes from
//     p, and p < end), so every buffer handed to them must have that many readable bytes after
//     the data. PaddedBytes allocates exactly that. The padding's content never changes a
//     result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace perfgauge::workloads {

inline constexpr std::size_t kMaxVarintBytes = 10;
/// Readable bytes every decoder needs after the end of the data (protobuf keeps 16 too).
inline constexpr std::size_t kVarintPadding = 16;

enum class VarintStatus : std::uint8_t { ok, truncated, malformed };
std::string_view status_name(VarintStatus status);

struct VarintDecoded {
    std::uint32_t value = 0;
    std::uint32_t length = 0;  ///< bytes consumed; 0 unless status is ok
    VarintStatus status = VarintStatus::truncated;
    friend bool operator==(const VarintDecoded&, const VarintDecoded&) = default;
};

/// Result of parsing `count` varints end on end.
struct VarintParse {
    std::uint64_t sum = 0;                   ///< sum of the decoded values (a checksum)
    std::size_t consumed = 0;                ///< bytes consumed by the varints parsed successfully
    std::size_t parsed = 0;                  ///< varints parsed successfully
    VarintStatus status = VarintStatus::ok;  ///< of the varint that stopped the parse
    friend bool operator==(const VarintParse&, const VarintParse&) = default;
};

/// Bytes `value` takes as a varint (1..5).
std::size_t varint32_size(std::uint32_t value);
/// Writes `value` at `out` (needs 5 bytes); returns the length (1..5).
std::size_t encode_varint32(std::uint32_t value, std::uint8_t* out);
/// Writes `value` as protobuf writes an int32 field: negative values take 10 bytes.
std::size_t encode_varint_int32(std::int32_t value, std::uint8_t* out);

/// The obviously correct decoder: one byte at a time, bounds-checked, no padding needed.
VarintDecoded decode_varint32_reference(const std::uint8_t* p, const std::uint8_t* end);
/// Parses `count` varints end on end with the reference decoder.
VarintParse parse_varints_reference(const std::uint8_t* p, const std::uint8_t* end,
                                    std::size_t count);

/// One measured decoder. The function pointers may only be called when the CPU has
/// `required_isa` (see variant_availability.hpp); they are compiled for it with function
/// target attributes, so the binary itself runs everywhere.
struct VarintVariant {
    std::string_view name;
    std::string_view description;
    /// "" (baseline x86-64), "bmi2" (BMI1 + BMI2), "avx2", or "avx512" (F, BW, VBMI, VBMI2,
    /// with BMI1 + BMI2)
    std::string_view required_isa;
    VarintDecoded (*decode)(const std::uint8_t* p, const std::uint8_t* end);
    /// Parses `count` varints end on end (each start depends on the previous length) and
    /// stops at the first error. The decoder is inlined into this loop.
    VarintParse (*parse)(const std::uint8_t* p, const std::uint8_t* end, std::size_t count);
    /// Decodes the varint at p `times` times (the address is hidden from the optimiser in
    /// every iteration); returns the sum of values and lengths.
    std::uint64_t (*repeat)(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t times);
};

/// Every variant, available here or not, in a stable order (branchy first).
std::span<const VarintVariant> varint_variants();
/// nullptr when no variant has this name.
const VarintVariant* find_varint_variant(std::string_view name);

/// Zero-initialised bytes with kVarintPadding readable bytes after size(), page (4096-byte)
/// aligned: the same offset in a page in every process, whatever was allocated before.
class PaddedBytes {
  public:
    PaddedBytes() = default;
    explicit PaddedBytes(std::size_t size);
    std::uint8_t* data() { return bytes_.get(); }
    const std::uint8_t* data() const { return bytes_.get(); }
    const std::uint8_t* end() const { return bytes_.get() + size_; }
    std::size_t size() const { return size_; }
    /// Forgets the bytes after new_size (<= size()): they become part of the padding.
    void shrink(std::size_t new_size) { size_ = new_size < size_ ? new_size : size_; }

  private:
    struct Free {
        void operator()(std::uint8_t* p) const;
    };
    std::unique_ptr<std::uint8_t[], Free> bytes_;
    std::size_t size_ = 0;
};

}  // namespace perfgauge::workloads
