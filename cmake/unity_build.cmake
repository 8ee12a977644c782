# Unity ("jumbo") builds: with PERFGAUGE_UNITY=ON each library's and the command's sources are
# compiled in batches of 16 (the reporting code's in one batch per target:
# cmake/compile_cost.cmake; the test drivers' in batches of 8: test/ is added with its own
# size, CMakeLists.txt), so the {fmt} and nlohmann/json templates a file uses are
# instantiated and optimised once per batch instead of once per file. Most of a batch's time
# is optimising and generating code (68% of the command's largest batch, -ftime-report); the
# same files in batches of 16 instead of 8 took 23% less CPU for the command's first 16 and
# 8-20% less for the results library (docs/measurements.md). scripts/test.sh turns it
# on: on the 2-core CI machine the harness libraries took about a third less compile time
# (docs/measurements.md). It is off by default because an edit then recompiles its batch.
#
# Files in one batch share a translation unit, so two of them may not define the same name in
# an anonymous namespace; the few that do are compiled alone (perfgauge_unity_alone below)
# rather than renamed. The measured workloads (workloads/) and the programs the tests measure
# never take part; the test drivers do (test/CMakeLists.txt), their shared helpers defined once
# in test/support/.
option(PERFGAUGE_UNITY "Compile each target's sources in batches (faster full builds)" OFF)
if(PERFGAUGE_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
endif()

# perfgauge_unity_alone(SOURCE...): compile these sources on their own in a unity build.
function(perfgauge_unity_alone)
  set_source_files_properties(${ARGN} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                              PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
