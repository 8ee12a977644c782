# What a build of perfgauge's own code costs, beyond the build type's flags; the answers stay
# the same (docs/testing.md, "Which code is built how"; figures in docs/measurements.md).
#
# GCC's garbage collector: by default cc1plus collects its heap whenever it has grown by a few
# tens of MB, about a tenth of a heavy file's compile time (-ftime-report: "garbage
# collection"). PERFGAUGE_OWN_CODE_OPTIONS lets it grow to 1 GiB first: a unity batch then
# takes up to about 0.9 GB instead of 0.7, and the objects are byte for byte the same. Only for
# perfgauge's own code (the top-level CMakeLists.txt): the measured workloads' compile lines
# stay exactly scripts/build.sh release's.
set(PERFGAUGE_OWN_CODE_OPTIONS "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND PERFGAUGE_OWN_CODE_OPTIONS --param=ggc-min-expand=100
       --param=ggc-min-heapsize=1048576)
endif()
