// The variants, one translation unit each (BMI2, AVX2 and AVX-512 carry target attributes).
#pragma once

#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads::detail {

extern const VarintVariant kBranchyVariant;
extern const VarintVariant kUnrolledVariant;
extern const VarintVariant kBmi2Variant;
extern const VarintVariant kAvx2Variant;
extern const VarintVariant kAvx512Variant;

}  // namespace perfgauge::workloads::detail
