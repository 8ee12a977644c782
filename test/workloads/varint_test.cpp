// Every decoder variant against the reference decoder and against known encodings: fixed
// widths, random values, the edge values, negative int32 (10 bytes), bits above 32, malformed
// input, truncation at every byte, and padding content that must not matter. Streams long
// enough for the SIMD variants' blocks: every distribution, cut at every byte, with long and
// malformed varints at every position of a block, and every count.
#include "perfgauge/workloads/varint.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/datasets.hpp"
#include "perfgauge/workloads/variant_availability.hpp"

namespace perfgauge::workloads {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes encode(std::uint32_t v) {
    Bytes out(5);
    out.resize(encode_varint32(v, out.data()));
    return out;
}

Bytes encode_int32(std::int32_t v) {
    Bytes out(kMaxVarintBytes);
    out.resize(encode_varint_int32(v, out.data()));
    return out;
}

// `data` in a buffer of exactly its size plus the padding, the padding filled with `fill`.
PaddedBytes padded(const Bytes& data, std::uint8_t fill) {
    PaddedBytes buffer(data.size());
    if (!data.empty())
        std::memcpy(buffer.data(), data.data(), data.size());
    std::memset(buffer.data() + data.size(), fill, kVarintPadding);
    return buffer;
}

TEST(VarintEncoding, KnownBytes) {
    EXPECT_EQ(encode(0), (Bytes{0x00}));
    EXPECT_EQ(encode(1), (Bytes{0x01}));
    EXPECT_EQ(encode(127), (Bytes{0x7f}));
    EXPECT_EQ(encode(128), (Bytes{0x80, 0x01}));
    EXPECT_EQ(encode(300), (Bytes{0xac, 0x02}));  // the protobuf documentation's example
    EXPECT_EQ(encode(0xffffffffu), (Bytes{0xff, 0xff, 0xff, 0xff, 0x0f}));
    EXPECT_EQ(encode_int32(-1),
              (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
    EXPECT_EQ(encode_int32(5), (Bytes{0x05}));
    for (const std::uint32_t v : {0u, 127u, 128u, 16383u, 16384u, 2097151u, 2097152u, 268435455u,
                                  268435456u, 0xffffffffu}) {
        EXPECT_EQ(encode(v).size(), varint32_size(v)) << v;
    }
}

TEST(VarintReference, EdgeCases) {
    const auto decode = [](const Bytes& b) {
        const auto buffer = padded(b, 0xff);
        return decode_varint32_reference(buffer.data(), buffer.end());
    };
    EXPECT_EQ(decode({0xac, 0x02}), (VarintDecoded{300, 2, VarintStatus::ok}));
    // Bits 32..34 in the 5th byte are dropped.
    EXPECT_EQ(decode({0xff, 0xff, 0xff, 0xff, 0x7f}),
              (VarintDecoded{0xffffffffu, 5, VarintStatus::ok}));
    EXPECT_EQ(decode(encode_int32(-2)), (VarintDecoded{0xfffffffeu, 10, VarintStatus::ok}));
    EXPECT_EQ(decode({}).status, VarintStatus::truncated);
    EXPECT_EQ(decode(Bytes(9, 0x80)).status, VarintStatus::truncated);
    EXPECT_EQ(decode(Bytes(10, 0x80)).status, VarintStatus::malformed);
    Bytes eleven(10, 0x80);
    eleven.push_back(0x01);
    EXPECT_EQ(decode(eleven).status, VarintStatus::malformed);
}

class VarintVariantTest : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        variant_ = find_varint_variant(GetParam());
        ASSERT_NE(variant_, nullptr);
        const auto why = unavailable_reason(*variant_, harness::detect_cpu());
        if (!why.empty())
            GTEST_SKIP() << why;
    }

    // Same result as the reference, whatever the padding holds.
    void expect_agrees(const Bytes& data, const std::string& what) {
        for (const std::uint8_t fill : {0x00, 0x80, 0xff}) {
            const auto buffer = padded(data, fill);
            const auto expected = decode_varint32_reference(buffer.data(), buffer.end());
            EXPECT_EQ(variant_->decode(buffer.data(), buffer.end()), expected)
                << what << " padding " << int(fill);
            EXPECT_EQ(variant_->parse(buffer.data(), buffer.end(), 1),
                      parse_varints_reference(buffer.data(), buffer.end(), 1))
                << what;
        }
    }

    const VarintVariant* variant_ = nullptr;
};

TEST_P(VarintVariantTest, EdgeValues) {
    for (const std::uint32_t v : {0u, 1u, 127u, 128u, (1u << 14) - 1, 1u << 14, 1u << 21,
                                  (1u << 28) - 1, 1u << 28, 0xffffffffu}) {
        const auto buffer = padded(encode(v), 0xff);
        EXPECT_EQ(
            variant_->decode(buffer.data(), buffer.end()),
            (VarintDecoded{v, static_cast<std::uint32_t>(varint32_size(v)), VarintStatus::ok}))
            << v;
    }
}

TEST_P(VarintVariantTest, NegativeInt32TakesTenBytes) {
    for (const std::int32_t v : {-1, -2, -128, -300, INT32_MIN}) {
        const auto buffer = padded(encode_int32(v), 0x80);
        EXPECT_EQ(variant_->decode(buffer.data(), buffer.end()),
                  (VarintDecoded{static_cast<std::uint32_t>(v), 10, VarintStatus::ok}))
            << v;
    }
}

TEST_P(VarintVariantTest, BitsAbove32AreDropped) {
    expect_agrees({0xff, 0xff, 0xff, 0xff, 0x7f}, "5th byte 0x7f");
    expect_agrees({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, "6 bytes");
    expect_agrees({0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, "9 bytes");
}

TEST_P(VarintVariantTest, MalformedAndTruncated) {
    expect_agrees(Bytes(10, 0x80), "10 continuation bytes");
    expect_agrees(Bytes(12, 0xff), "12 continuation bytes");
    expect_agrees({}, "empty");
    const auto buffer = padded(Bytes(10, 0x80), 0x00);
    EXPECT_EQ(variant_->decode(buffer.data(), buffer.end()).status, VarintStatus::malformed);
}

TEST_P(VarintVariantTest, TruncatedAtEveryBytePosition) {
    std::vector<Bytes> encodings;
    for (const std::uint32_t v : {128u, 1u << 14, 1u << 21, 1u << 28, 0xffffffffu})
        encodings.push_back(encode(v));
    encodings.push_back(encode_int32(-1));
    for (const auto& full : encodings) {
        for (std::size_t cut = 0; cut < full.size(); ++cut) {
            const Bytes part(full.begin(), full.begin() + static_cast<long>(cut));
            for (const std::uint8_t fill : {0x00, 0xff}) {
                const auto buffer = padded(part, fill);
                EXPECT_EQ(variant_->decode(buffer.data(), buffer.end()).status,
                          VarintStatus::truncated)
                    << full.size() << "-byte varint cut to " << cut;
            }
        }
    }
}

TEST_P(VarintVariantTest, FixedWidthsAndRandomValues) {
    std::mt19937_64 rng(7);
    for (int width = 1; width <= 5; ++width) {
        const std::uint64_t lo = width == 1 ? 0 : std::uint64_t{1} << (7 * (width - 1));
        const std::uint64_t hi = width == 5 ? 0xffffffffu : (std::uint64_t{1} << (7 * width)) - 1;
        for (int i = 0; i < 2000; ++i) {
            const auto v = static_cast<std::uint32_t>(lo + rng() % (hi - lo + 1));
            const auto bytes = encode(v);
            ASSERT_EQ(bytes.size(), static_cast<std::size_t>(width));
            expect_agrees(bytes, std::to_string(v));
        }
    }
    for (int i = 0; i < 5000; ++i) {
        Bytes random(1 + rng() % 12);
        for (auto& b : random)
            b = static_cast<std::uint8_t>(rng() & (rng() % 2 ? 0xff : 0x7f));
        expect_agrees(random, "random bytes");
    }
}

TEST_P(VarintVariantTest, ParsesEndOnEndAndStopsAtTheFirstError) {
    Bytes stream;
    std::uint64_t sum = 0;
    std::mt19937 rng(3);
    for (int i = 0; i < 1000; ++i) {
        const std::uint32_t v = rng() >> (rng() % 32);
        sum += v;
        for (auto b : encode(v))
            stream.push_back(b);
    }
    for (auto b : encode_int32(-7))
        stream.push_back(b);
    sum += static_cast<std::uint32_t>(-7);
    auto buffer = padded(stream, 0xff);
    auto got = variant_->parse(buffer.data(), buffer.end(), 1001);
    EXPECT_EQ(got, (VarintParse{sum, stream.size(), 1001, VarintStatus::ok}));
    // Asking for one more runs into the end of the data.
    got = variant_->parse(buffer.data(), buffer.end(), 1002);
    EXPECT_EQ(got.status, VarintStatus::truncated);
    EXPECT_EQ(got.parsed, 1001u);
    // A malformed varint in the middle stops the parse there.
    Bytes broken(stream.begin(), stream.begin() + 100);
    const auto prefix = padded(broken, 0);
    const auto good = parse_varints_reference(prefix.data(), prefix.end(), 1000);
    broken.resize(good.consumed);
    for (int i = 0; i < 10; ++i)
        broken.push_back(0x80);
    broken.push_back(0x01);
    buffer = padded(broken, 0xff);
    got = variant_->parse(buffer.data(), buffer.end(), 1000);
    EXPECT_EQ(got.status, VarintStatus::malformed);
    EXPECT_EQ(got.parsed, good.parsed);
    EXPECT_EQ(got.consumed, good.consumed);
}

TEST_P(VarintVariantTest, RepeatDecodesTheSameVarint) {
    const auto buffer = padded(encode(300), 0);
    EXPECT_EQ(variant_->repeat(buffer.data(), buffer.end(), 1000), 1000u * (300 + 2));
    // value + length is summed in 64 bits (the fuzzer found a 32-bit wrap here).
    const auto largest = padded(encode(0xffffffffu), 0);
    EXPECT_EQ(variant_->repeat(largest.data(), largest.end(), 2), 2 * (0xffffffffull + 5));
}

// Parsing the whole of `data` (and asking for one varint more than it holds) agrees with the
// reference, whatever the padding holds.
void expect_parse_agrees(const VarintVariant& v, const Bytes& data, const std::string& what) {
    for (const std::uint8_t fill : {0x00, 0xff}) {
        const auto buffer = padded(data, fill);
        const std::size_t all = data.size() + 1;
        EXPECT_EQ(v.parse(buffer.data(), buffer.end(), all),
                  parse_varints_reference(buffer.data(), buffer.end(), all))
            << what << ", padding " << int(fill);
    }
}

Bytes arena_bytes(Distribution d, std::size_t min_bytes, std::uint64_t seed) {
    const auto arena = make_varint_arena(d, min_bytes, seed);
    return Bytes(arena.bytes.data(), arena.bytes.end());
}

TEST_P(VarintVariantTest, StreamsOfEveryDistributionCutAtEveryByte) {
    for (const Distribution d : all_distributions()) {
        const Bytes stream = arena_bytes(d, 300, 11);
        for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
            expect_parse_agrees(
                *variant_, Bytes(stream.begin(), stream.begin() + long(cut)),
                std::string(distribution_name(d)) + " cut to " + std::to_string(cut));
        }
    }
}

TEST_P(VarintVariantTest, LongAndMalformedVarintsAtEveryPositionOfABlock) {
    const Bytes stream = arena_bytes(Distribution::log_uniform, 200, 5);
    std::vector<Bytes> intruders = {encode_int32(-1),
                                    encode_int32(INT32_MIN),
                                    Bytes(10, 0x80),
                                    {0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
                                    {0xff, 0xff, 0xff, 0xff, 0x7f}};
    for (const auto& intruder : intruders) {
        for (std::size_t at = 0; at <= 130; ++at) {
            Bytes data(stream.begin(), stream.begin() + long(at));
            data.insert(data.end(), intruder.begin(), intruder.end());
            data.insert(data.end(), stream.begin() + long(at), stream.end());
            expect_parse_agrees(
                *variant_, data,
                std::to_string(intruder.size()) + " bytes at " + std::to_string(at));
        }
    }
}

TEST_P(VarintVariantTest, StopsAfterEveryCount) {
    for (const Distribution d : {Distribution::fixed1, Distribution::log_uniform}) {
        const auto arena = make_varint_arena(d, 400, 3);
        for (std::size_t count = 0; count <= arena.count; ++count) {
            EXPECT_EQ(variant_->parse(arena.bytes.data(), arena.bytes.end(), count),
                      parse_varints_reference(arena.bytes.data(), arena.bytes.end(), count))
                << distribution_name(d) << " count " << count;
        }
    }
}

TEST_P(VarintVariantTest, LargeStreamsOfEveryDistribution) {
    for (const Distribution d : all_distributions()) {
        const auto arena = make_varint_arena(d, 1 << 20, 17);
        const auto expected =
            parse_varints_reference(arena.bytes.data(), arena.bytes.end(), arena.count);
        ASSERT_EQ(expected.parsed, arena.count);
        EXPECT_EQ(variant_->parse(arena.bytes.data(), arena.bytes.end(), arena.count), expected)
            << distribution_name(d);
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, VarintVariantTest,
                         ::testing::Values("branchy", "bmi2", "unrolled", "avx2", "avx512"));

TEST(VarintVariants, RegistryIsComplete) {
    ASSERT_GE(varint_variants().size(), 3u);
    EXPECT_EQ(varint_variants()[0].name, "branchy");
    EXPECT_EQ(find_varint_variant("nope"), nullptr);
    for (const auto& v : varint_variants()) {
        EXPECT_NE(v.decode, nullptr);
        EXPECT_NE(v.parse, nullptr);
        EXPECT_NE(v.repeat, nullptr);
    }
}

TEST(VarintVariants, AvailabilityFollowsTheCpu) {
    const VarintVariant& bmi2 = *find_varint_variant("bmi2");
    harness::CpuInfo cpu;
    cpu.vendor = "AuthenticAMD";
    cpu.model_name = "old CPU";
    EXPECT_NE(unavailable_reason(bmi2, cpu).find("needs BMI2"), std::string::npos);
    EXPECT_EQ(unavailable_reason(*find_varint_variant("branchy"), cpu), "");
    cpu.bmi2 = true;
    cpu.family = 0x17;  // Zen 2
    EXPECT_EQ(unavailable_reason(bmi2, cpu), "");
    EXPECT_NE(caveat(bmi2, cpu).find("microcoded"), std::string::npos);
    cpu.family = 0x19;  // Zen 3
    EXPECT_EQ(caveat(bmi2, cpu), "");

    const VarintVariant& avx2 = *find_varint_variant("avx2");
    const VarintVariant& avx512 = *find_varint_variant("avx512");
    EXPECT_NE(unavailable_reason(avx2, cpu).find("needs AVX2"), std::string::npos);
    EXPECT_NE(unavailable_reason(avx512, cpu).find("needs AVX-512"), std::string::npos);
    cpu.avx2 = true;
    cpu.avx512_vbmi2 = true;
    EXPECT_EQ(unavailable_reason(avx2, cpu), "");
    EXPECT_EQ(unavailable_reason(avx512, cpu), "");  // natively; under valgrind it says why not
    cpu.bmi2 = false;                                // the AVX-512 variant uses pdep too
    EXPECT_NE(unavailable_reason(avx512, cpu).find("BMI2"), std::string::npos);
}

TEST(VarintVariants, PextIsMicrocodedOnlyOnZen1And2) {
    harness::CpuInfo cpu;
    cpu.vendor = "AuthenticAMD";
    cpu.family = 0x17;
    EXPECT_TRUE(pext_is_microcoded(cpu));
    cpu.family = 0x19;
    EXPECT_FALSE(pext_is_microcoded(cpu));
    cpu.vendor = "GenuineIntel";
    cpu.family = 0x6;
    EXPECT_FALSE(pext_is_microcoded(cpu));
}

TEST(VarintVariants, DoctorIsaChecksWarnAboutMissingOrSlowPext) {
    harness::CpuInfo cpu;
    ASSERT_EQ(isa_checks(cpu).size(), 1u);
    EXPECT_EQ(isa_checks(cpu)[0].level, harness::CheckLevel::warn);
    EXPECT_NE(isa_checks(cpu)[0].finding.find("not available"), std::string::npos);
    cpu.bmi2 = true;
    cpu.vendor = "AuthenticAMD";
    cpu.family = 0x17;
    EXPECT_NE(isa_checks(cpu)[0].finding.find("microcoded"), std::string::npos);
    cpu.family = 0x1a;
    EXPECT_EQ(isa_checks(cpu)[0].level, harness::CheckLevel::ok);
}

TEST(PaddedBytes, AlignedZeroedAndShrinkable) {
    // Page-aligned whatever was allocated before (a small block first shifts the heap), so
    // that memcpy's source and destination keep one relative alignment in every process.
    const auto shift = std::make_unique<char[]>(24);
    PaddedBytes b(100);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 4096, 0u);
    PaddedBytes large(3 << 20);  // mmapped by malloc
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.data()) % 4096, 0u);
    for (std::size_t i = 0; i < 100 + kVarintPadding; ++i)
        ASSERT_EQ(b.data()[i], 0);
    b.shrink(10);
    EXPECT_EQ(b.size(), 10u);
    b.shrink(50);  // never grows
    EXPECT_EQ(b.size(), 10u);
}

}  // namespace
}  // namespace perfgauge::workloads
