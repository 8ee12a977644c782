// The variants, one translation unit each (the BMI2 one carries target attributes).
#pragma once

#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads::detail {

extern const VarintVariant kBranchyVariant;
extern const VarintVariant kUnrolledVariant;
extern const VarintVariant kBmi2Variant;

}  // namespace perfgauge::workloads::detail
