# The architecture's include rules, checked on the sources (what CMake's link graph cannot
# see: a folder may link a library for one reason and still must not include some of its
# headers):
#   - workloads reach no pmu header: they describe code to measure; counters (and callgrind's
#     client requests) are the harness's and pmu's;
#   - the workloads' kernels (workloads/kernels: decoders, data sets) include nothing of the
#     harness, of pmu or of the suite above them (workloads/suite);
#   - measure includes no writer: it measures and fills the results model; tables, JSON text and
#     every report are the results library's writers. Session::report, public API, hands its
#     model to the one writer made for it (session_report.hpp) and includes no other (but the
#     formats' enum, output_format.hpp, which its signature names);
#   - results' layers (harness/results/LAYER, a header's layer being the sub-folder it sits in,
#     so a new header falls under the rules by where it is put): the statistics include no model
#     header (they work on plain samples; the model is built on them); the model and the
#     statistics include no comparison, writer or reader; comparison includes no writer or reader
#     (verdicts and answers are data; the words for them are the writers'); readers include no
#     writer (json_text.hpp, the schema version both sides follow, is the model's); writers
#     include no reader (text is made by writers, parsed only by readers); and no results
#     file reaches another folder's private headers by a relative path;
#   - results includes no history header: history fills plain data (history_records.hpp,
#     report_model.hpp) that results' writers render, so the arrow points one way.
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

# The pattern of the headers GLOBS finds, included as PREFIX/NAME.hpp, leaving out the names in
# EXCEPT (a header's name is its file's without .hpp).
function(headers_pattern out prefix)
  cmake_parse_arguments(ARG "" "" "GLOBS;EXCEPT" ${ARGN})
  file(GLOB headers ${ARG_GLOBS})
  if(NOT headers)
    message(FATAL_ERROR "no header in ${ARG_GLOBS} (moved?)")
  endif()
  set(names "")
  foreach(header ${headers})
    get_filename_component(name ${header} NAME_WE)
    list(FIND ARG_EXCEPT ${name} excepted)
    if(excepted EQUAL -1)
      list(APPEND names ${name})
    endif()
  endforeach()
  list(JOIN names "|" alternatives)
  set(${out} "${prefix}/(${alternatives})\\.hpp" PARENT_SCOPE)
endfunction()

# The pattern of the headers of results' LAYER (its include/ and internal/), leaving out the
# names in EXCEPT.
function(layer_headers layer out)
  cmake_parse_arguments(ARG "" "" "EXCEPT" ${ARGN})
  set(folder ${SOURCE_DIR}/harness/results/${layer})
  headers_pattern(pattern perfgauge/harness
                  GLOBS ${folder}/include/perfgauge/harness/*.hpp
                        ${folder}/internal/perfgauge/harness/*.hpp
                  EXCEPT ${ARG_EXCEPT})
  set(${out} ${pattern} PARENT_SCOPE)
endfunction()

layer_headers(model model)
layer_headers(comparison comparison)
layer_headers(readers readers)
layer_headers(writers writers)
layer_headers(writers writers_but_session_report EXCEPT session_report output_format)

forbid_includes(workloads "perfgauge/pmu/" "pmu header")
headers_pattern(suite_headers perfgauge/workloads
                GLOBS ${SOURCE_DIR}/workloads/suite/include/perfgauge/workloads/*.hpp)
forbid_includes(workloads/kernels "perfgauge/(harness|pmu|gbench)/" "harness or pmu header")
forbid_includes(workloads/kernels "${suite_headers}" "suite header")
forbid_includes(workloads/kernels "(fmt|nlohmann|benchmark|valgrind)/" "library of the harness")
forbid_includes(harness/measure "${writers_but_session_report}" "writer header")
forbid_includes(harness/results/statistics "${model}" "model header")
foreach(layer model statistics)
  forbid_includes(harness/results/${layer} "${comparison}" "comparison header")
  forbid_includes(harness/results/${layer} "${writers}" "writer header")
  forbid_includes(harness/results/${layer} "${readers}" "reader header")
endforeach()
forbid_includes(harness/results/comparison "${writers}" "writer header")
forbid_includes(harness/results/comparison "${readers}" "reader header")
forbid_includes(harness/results/readers "${writers}" "writer header")
forbid_includes(harness/results/writers "${readers}" "reader header")
forbid_includes(harness/results "\\.\\./" "relative path out of its folder")
headers_pattern(history_headers perfgauge/harness
                GLOBS ${SOURCE_DIR}/harness/history/internal/perfgauge/harness/*.hpp)
forbid_includes(harness/results "${history_headers}" "history header")
