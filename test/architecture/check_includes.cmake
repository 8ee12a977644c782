# The architecture's include rules, checked on the sources (what CMake's link graph cannot
# see: a folder may link a library for one reason and still must not include some of its
# headers):
#   - workloads reach no pmu header: they describe code to measure; counters (and callgrind's
#     client requests) are the harness's and pmu's;
#   - measure includes no writer: it measures and fills the results model; tables, JSON text and
#     every report are the results library's writers. Session::report, public API, hands its
#     model to the one writer made for it (session_report.hpp) and includes no other.
function(forbid_includes folder pattern why)
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.hpp)
  if(NOT sources)
    message(FATAL_ERROR "no sources under ${folder} (moved?)")
  endif()
  set(found "")
  foreach(source ${sources})
    file(STRINGS ${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]${pattern}")
    foreach(line ${lines})
      file(RELATIVE_PATH name ${SOURCE_DIR} ${source})
      list(APPEND found "${name}: ${line}")
    endforeach()
  endforeach()
  if(found)
    list(JOIN found "\n  " listed)
    message(FATAL_ERROR "${folder} includes ${why}:\n  ${listed}")
  endif()
  message(STATUS "${folder}: no ${why}")
endfunction()

forbid_includes(workloads "perfgauge/pmu/" "pmu header")
forbid_includes(harness/measure
                "perfgauge/harness/(text_table|json_text|run_report|stat_report|compare_report|side_by_side_report|run_answer|bmf|progress_line)\\.hpp"
                "writer header")
