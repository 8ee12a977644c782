# What a build of perfgauge's own code costs, beyond the build type's flags; the answers stay
# the same (docs/testing.md, "Which code is built how"; figures in docs/measurements.md).
#
# GCC's garbage collector: by default cc1plus collects its heap whenever it has grown by a few
# tens of MB, about a tenth of a heavy file's compile time (-ftime-report: "garbage
# collection"). PERFGAUGE_OWN_CODE_OPTIONS lets it grow to 1 GiB first: a unity batch of 16
# then takes up to about 0.9 GB instead of 0.7 (the results library's one batch, below, 1.2
# GB), and the objects are byte for byte the same. Only for perfgauge's own code (the
# top-level CMakeLists.txt): the measured workloads' compile lines stay exactly
# scripts/build.sh release's.
set(PERFGAUGE_OWN_CODE_OPTIONS "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND PERFGAUGE_OWN_CODE_OPTIONS --param=ggc-min-expand=100
       --param=ggc-min-heapsize=1048576)
endif()

# The reporting code at -O1 in optimised builds, and in a unity build one batch per target: the
# result model, statistics, comparisons and writers (results), the history store, the typed
# requests and the command's option parsing and rendering (cli). Over half the binary's compile
# time, most of it optimising the same {fmt}, nlohmann/json and standard-library templates in
# batch after batch, for code whose speed shows in no figure perfgauge prints: -O1 compiles it
# in about a third less time, and one batch instead of three (results) instantiates each
# template once. The measuring path keeps the build type's -O2 and its batches of 16 (measure,
# pmu, stat, sim, system, selftest, orchestrate, pipeline, gbench: objects byte for byte as
# before), and the measured workloads their -O3, file by file: what perfgauge measures and
# how it measures it do not change. Nor do the figures it prints: on x86-64, whose baseline has
# no FMA, no optimisation level changes a floating-point result without -ffast-math (on arm64,
# -O2 may fuse a multiply and an add that -O1 leaves apart: a last bit), and the before/after
# scripts found the binaries' outputs the same (docs/testing.md).
option(PERFGAUGE_CHEAP_REPORTING
       "Build the reporting code (results, history, request, cli) at -O1, in one unity batch each"
       ON)

# perfgauge_reporting_code(TARGET...): these targets are reporting code (above).
function(perfgauge_reporting_code)
  if(NOT PERFGAUGE_CHEAP_REPORTING)
    return()
  endif()
  foreach(target ${ARGN})
    # After the build type's -O2 or -O3 on the command line: the last -O wins.
    target_compile_options(${target} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-O1>)
    # 0: all the target's batched sources in one (those compiled alone stay alone).
    set_target_properties(${target} PROPERTIES UNITY_BUILD_BATCH_SIZE 0)
  endforeach()
endfunction()
