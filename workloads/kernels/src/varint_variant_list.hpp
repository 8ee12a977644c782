// The variants, one translation unit each (BMI2, AVX2 and AVX-512 carry target attributes).
#pragma once

#include "perfgauge/workloads/varint.hpp"

// The BMI2, AVX2 and AVX-512 variants are x86-64 code. Elsewhere they stay in the list with
// their names and descriptions but no functions: unavailable_reason() says why they cannot run,
// and callers check it before calling.
#if defined(__x86_64__)
#define PERFGAUGE_X86_ONLY(...) __VA_ARGS__
#else
#define PERFGAUGE_X86_ONLY(...) nullptr, nullptr, nullptr
#endif

namespace perfgauge::workloads::detail {

extern const VarintVariant kBranchyVariant;
extern const VarintVariant kUnrolledVariant;
extern const VarintVariant kBmi2Variant;
extern const VarintVariant kAvx2Variant;
extern const VarintVariant kAvx512Variant;

}  // namespace perfgauge::workloads::detail
