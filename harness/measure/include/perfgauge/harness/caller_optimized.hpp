// PERFGAUGE_CALLER_OPTIMIZED: whether the translation unit that includes this header is
// compiled with optimization (GCC and Clang define __OPTIMIZE__ from -O1, -Os and -Og up).
// perfgauge's own code is compiled optimized whatever its user does, so Session and the
// Google Benchmark adapter take the user's answer through a default argument made of this
// macro: a default argument is written out where the header is included, in the caller's
// translation unit. A literal, not an inline function: one emitted out of line at -O0 could be
// merged by the linker with the library's own (optimized) copy.
#pragma once

#ifndef PERFGAUGE_CALLER_OPTIMIZED
#ifdef __OPTIMIZE__
#define PERFGAUGE_CALLER_OPTIMIZED true
#else
#define PERFGAUGE_CALLER_OPTIMIZED false
#endif
#endif
