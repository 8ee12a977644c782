# The architecture's one-way rules, checked on CMake's own dependency graph (--graphviz) of a
# scratch configuration of the source tree:
#   - the results library (model, statistics, compare, writers, reader) links no counter code:
#     pmu's header-only vocabulary is allowed, the perfgauge_pmu library is not;
#   - workloads depend on the measuring interface, not on the simulated backend or stat;
#   - the workloads' kernels (decoders, data sets: workloads/kernels) link nothing of perfgauge:
#     the suite above them (workloads/suite) is what knows the runner;
#   - orchestration (a run's measuring processes) starts processes and merges their results:
#     it measures nothing itself, so it links neither measure, sim nor stat;
#   - run's and stat's stages (pipeline) sit below the command line: they link none of its
#     plumbing (perfgauge_cli_readonly);
#   - the commands that only read results (compare, export, plot) and the command line's
#     plumbing they share live in perfgauge_cli_readonly, which links neither measure, sim nor
#     stat: reading a result never reaches counter or measuring code.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR}
                        -DCMAKE_BUILD_TYPE=Release --graphviz=${WORK_DIR}/deps.dot
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the scratch tree failed:\n${err}")
endif()

function(forbid target forbidden)
  set(file ${WORK_DIR}/deps.dot.${target})
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "no dependency graph for ${target} (renamed?)")
  endif()
  file(READ ${file} graph)
  foreach(dep ${forbidden})
    if(graph MATCHES "label = \"${dep}\\\\n")
      message(FATAL_ERROR "${target} depends on ${dep}:\n${graph}")
    endif()
  endforeach()
  message(STATUS "${target}: none of ${forbidden}")
endfunction()

# Fails when `target` depends on any perfgauge library or target but itself (and the warning
# flags every target takes, perfgauge_warnings).
function(forbid_perfgauge target)
  set(file ${WORK_DIR}/deps.dot.${target})
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "no dependency graph for ${target} (renamed?)")
  endif()
  file(STRINGS ${file} labels REGEX "label = \"perfgauge")
  list(FILTER labels EXCLUDE REGEX "label = \"(${target}|perfgauge_warnings)(\\\\n|\")")
  if(labels)
    file(READ ${file} graph)
    message(FATAL_ERROR "${target} depends on perfgauge code:\n${graph}")
  endif()
  message(STATUS "${target}: nothing of perfgauge")
endfunction()

forbid(perfgauge_results "perfgauge_pmu;perfgauge_measure;perfgauge_system;perfgauge_stat;perfgauge_sim")
forbid(perfgauge_workloads "perfgauge_sim;perfgauge_stat")
forbid_perfgauge(perfgauge_workload_kernels)
forbid(perfgauge_orchestrate "perfgauge_measure;perfgauge_sim;perfgauge_stat")
forbid(perfgauge_pipeline "perfgauge_cli_readonly")
forbid(perfgauge_cli_readonly "perfgauge_measure;perfgauge_sim;perfgauge_stat")
file(REMOVE_RECURSE ${WORK_DIR})
