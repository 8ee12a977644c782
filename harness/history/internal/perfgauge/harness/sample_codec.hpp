// How a run's samples are kept compactly in the history store: every sample, bit for bit.
// The doubles are split into byte planes (all first bytes, then all second bytes, ...: samples
// of one benchmark share sign, exponent and leading mantissa bits, so most planes are nearly
// constant) and the planes deflated with zlib. Pure.
#pragma once

#include <span>
#include <stdexcept>
#include <vector>

namespace perfgauge::harness {

class SampleCodecError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Format 1: one byte 1, the count as 4 bytes little-endian, then the deflated byte planes.
std::vector<unsigned char> encode_samples(std::span<const double> samples);
/// The samples encode_samples was given; SampleCodecError when `bytes` are not its output.
std::vector<double> decode_samples(std::span<const unsigned char> bytes);

}  // namespace perfgauge::harness
