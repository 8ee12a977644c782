#include "perfgauge/harness/sample_codec.hpp"

#include <zlib.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

namespace perfgauge::harness {
namespace {

constexpr unsigned char kFormat = 1;
constexpr std::size_t kHeader = 5;

static_assert(std::endian::native == std::endian::little,
              "the byte planes are written in the little-endian order of x86 and arm64");

}  // namespace

std::vector<unsigned char> encode_samples(std::span<const double> samples) {
    if (samples.size() > std::numeric_limits<std::uint32_t>::max())
        throw SampleCodecError("too many samples for one entry of the history store");
    const std::size_t n = samples.size();
    std::vector<unsigned char> planes(n * sizeof(double));
    for (std::size_t i = 0; i < n; ++i) {
        unsigned char bytes[sizeof(double)];
        std::memcpy(bytes, &samples[i], sizeof(double));
        for (std::size_t b = 0; b < sizeof(double); ++b)
            planes[b * n + i] = bytes[b];
    }
    uLongf packed = compressBound(static_cast<uLong>(planes.size()));
    std::vector<unsigned char> out(kHeader + packed);
    out[0] = kFormat;
    const auto count = static_cast<std::uint32_t>(n);
    for (int b = 0; b < 4; ++b)
        out[1 + static_cast<std::size_t>(b)] = static_cast<unsigned char>(count >> (8 * b));
    if (compress2(out.data() + kHeader, &packed, planes.data(), static_cast<uLong>(planes.size()),
                  Z_BEST_COMPRESSION) != Z_OK)
        throw SampleCodecError("zlib could not compress samples");
    out.resize(kHeader + packed);
    return out;
}

std::vector<double> decode_samples(std::span<const unsigned char> bytes) {
    if (bytes.size() < kHeader || bytes[0] != kFormat)
        throw SampleCodecError("stored samples are not in a format this perfgauge reads");
    std::uint32_t count = 0;
    for (int b = 0; b < 4; ++b)
        count |= static_cast<std::uint32_t>(bytes[1 + static_cast<std::size_t>(b)]) << (8 * b);
    if (count == 0)
        return {};
    std::vector<unsigned char> planes(std::size_t{count} * sizeof(double));
    uLongf length = static_cast<uLongf>(planes.size());
    if (uncompress(planes.data(), &length, bytes.data() + kHeader,
                   static_cast<uLong>(bytes.size() - kHeader)) != Z_OK ||
        length != planes.size())
        throw SampleCodecError("stored samples are damaged (zlib could not inflate them)");
    std::vector<double> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        unsigned char v[sizeof(double)];
        for (std::size_t b = 0; b < sizeof(double); ++b)
            v[b] = planes[b * count + i];
        std::memcpy(&out[i], v, sizeof(double));
    }
    return out;
}

}  // namespace perfgauge::harness
