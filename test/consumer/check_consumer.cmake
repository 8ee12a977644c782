# Installs perfgauge from BUILD_DIR into WORK_DIR/prefix, then configures, builds and runs the
# consumer project against it. Any failing step fails the test.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
message(STATUS "consumer ran: ${last_output}")
if(NOT last_output MATCHES "groups=2 first=task-clock vendor=[^ ]* samples_ok=1 ns_per_item_positive=1"
   OR NOT last_output MATCHES "sum +3 ")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()

# Internal headers (the simulated backend, the runner's column building) are not installed.
foreach(internal event_plan.hpp simulation.hpp native_columns.hpp)
  if(EXISTS ${WORK_DIR}/prefix/include/perfgauge/harness/${internal})
    message(FATAL_ERROR "internal header installed: perfgauge/harness/${internal}")
  endif()
endforeach()
