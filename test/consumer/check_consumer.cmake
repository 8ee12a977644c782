# Installs perfgauge from BUILD_DIR into WORK_DIR/prefix, then configures, builds and runs the
# consumer project against it, both with every component and with only `harness` while Google
# Benchmark cannot be found (CMAKE_DISABLE_FIND_PACKAGE_benchmark), where asking for `gbench`
# must fail. Any failing step fails the test.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
# Configures and builds the consumer in WORK_DIR/<build> with the extra cache arguments.
function(consume build)
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/${build} -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${ARGN})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${build})
endfunction()
consume(build)
run(${WORK_DIR}/build/consumer)
message(STATUS "consumer ran: ${last_output}")
if(NOT last_output MATCHES "groups=2 first=task-clock vendor=[^ ]* samples_ok=1 ns_per_item_positive=1"
   OR NOT last_output MATCHES "sum +3 ")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()
# The same program built against the harness component alone, Google Benchmark unfindable
# (it ran above: building it is what this checks).
consume(build-harness-only -DPERFGAUGE_COMPONENTS=harness -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)

# The gbench component is the one that needs Google Benchmark: asking for it without must fail,
# and say why.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build-gbench -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DPERFGAUGE_COMPONENTS=gbench
                        -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "benchmark")
  message(FATAL_ERROR "COMPONENTS gbench without Google Benchmark did not fail (${rc}):\n${out}\n${err}")
endif()

# Internal headers (the simulated backend, the runner's column building) are not installed.
foreach(internal event_plan.hpp simulation.hpp simulation_valgrind.hpp native_columns.hpp)
  if(EXISTS ${WORK_DIR}/prefix/include/perfgauge/harness/${internal})
    message(FATAL_ERROR "internal header installed: perfgauge/harness/${internal}")
  endif()
endforeach()
