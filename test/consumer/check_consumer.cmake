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

# The fleet scripts are installed, executable, where docs/fleet.md says (issue 53, item 3), and
# run from there (their usage on --help).
foreach(script measure-and-store.sh slurm-submit.sh)
  set(installed_script ${WORK_DIR}/prefix/share/perfgauge/fleet/${script})
  execute_process(COMMAND test -x ${installed_script} RESULT_VARIABLE executable)
  execute_process(COMMAND ${installed_script} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT executable EQUAL 0 OR NOT rc EQUAL 0 OR NOT out MATCHES "usage: ")
    message(FATAL_ERROR "share/perfgauge/fleet/${script} is not installed as a program that runs "
                        "(${executable}, ${rc}): ${out}")
  endif()
endforeach()

# Every installed header includes only installed headers: a perfgauge header it names must be
# in the install tree, else a user's #include of it fails (issue 37, item 4).
file(GLOB_RECURSE installed RELATIVE ${WORK_DIR}/prefix/include
     ${WORK_DIR}/prefix/include/perfgauge/*.h ${WORK_DIR}/prefix/include/perfgauge/*.hpp)
if(NOT installed)
  message(FATAL_ERROR "no header installed under ${WORK_DIR}/prefix/include/perfgauge")
endif()
set(missing "")
foreach(header ${installed})
  file(STRINGS ${WORK_DIR}/prefix/include/${header} includes
       REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]perfgauge/")
  foreach(line ${includes})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]*)[>\"].*" "\\1" named "${line}")
    if(NOT EXISTS ${WORK_DIR}/prefix/include/${named})
      list(APPEND missing "${header} includes ${named}, which is not installed")
    endif()
  endforeach()
endforeach()
if(missing)
  list(JOIN missing "\n  " listed)
  message(FATAL_ERROR "installed headers include headers that are not installed:\n  ${listed}")
endif()
list(LENGTH installed count)
message(STATUS "${count} installed headers include only installed ones")
# Configures and builds the consumer in WORK_DIR/<build> with the extra cache arguments.
function(consume build)
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/${build} -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${ARGN})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${build})
endfunction()
# Built at -O0 (CMake's default build type adds no -O): Session's report and the adapter's
# Google Benchmark context must say "built without optimization", read from the consumer's own
# __OPTIMIZE__ through the installed headers (issue 50, item 6).
consume(build -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O0)
run(${WORK_DIR}/build/consumer)
message(STATUS "consumer ran: ${last_output}")
if(NOT last_output MATCHES "groups=2 first=task-clock vendor=[^ ]* samples_ok=1 ns_per_item_positive=1"
   OR NOT last_output MATCHES "sum +3 ")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()
set(unoptimized "built without optimization: ")
if(NOT last_output MATCHES "\n${unoptimized}")
  message(FATAL_ERROR "the consumer built at -O0 did not say '${unoptimized}':\n${last_output}")
endif()
# The adapter's word is in Google Benchmark's JSON context.
function(check_gbench_context build expected)
  run(${WORK_DIR}/${build}/consumer_gbench --benchmark_format=json --benchmark_min_time=0.001)
  string(JSON said ERROR_VARIABLE missing GET "${last_output}" context perfgauge_unoptimized)
  if(expected AND NOT said MATCHES "^${unoptimized}")
    message(FATAL_ERROR "${build}: no perfgauge_unoptimized context (${missing}):\n${last_output}")
  elseif(NOT expected AND NOT missing)
    message(FATAL_ERROR "${build}: perfgauge_unoptimized in its context: ${said}")
  endif()
endfunction()
check_gbench_context(build TRUE)
# The same at -O2: nothing said.
consume(build-O2 -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=-O2)
run(${WORK_DIR}/build-O2/consumer)
if(last_output MATCHES "${unoptimized}" OR NOT last_output MATCHES "sum +3 ")
  message(FATAL_ERROR "unexpected output of the consumer built at -O2:\n${last_output}")
endif()
check_gbench_context(build-O2 FALSE)
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

# A source folder's include/ holds only what is installed, and internal/ nothing that is
# (harness/CMakeLists.txt): the folder a header sits in says whether users may include it.
get_filename_component(source_dir ${README} DIRECTORY)
file(GLOB header_dirs LIST_DIRECTORIES true ${source_dir}/pmu/include ${source_dir}/workloads/*/include
     ${source_dir}/harness/*/include ${source_dir}/harness/*/internal
     ${source_dir}/harness/*/*/include ${source_dir}/harness/*/*/internal)
set(public_headers "")
set(internal_headers "")
foreach(dir ${header_dirs})
  file(GLOB_RECURSE headers ${dir}/perfgauge/*)
  if(dir MATCHES "/internal$")
    list(APPEND internal_headers ${headers})
  else()
    list(APPEND public_headers ${headers})
  endif()
endforeach()
if(NOT internal_headers)
  message(FATAL_ERROR "no internal header found under ${source_dir}/harness/*/internal")
endif()
set(misplaced "")
foreach(header ${public_headers} ${internal_headers})
  string(REGEX REPLACE "^.*/(include|internal)/(perfgauge/.*)$" "\\2" name "${header}")
  string(REGEX MATCH "/internal/perfgauge/" internal "${header}")
  if(internal AND EXISTS ${WORK_DIR}/prefix/include/${name})
    list(APPEND misplaced "${header} is internal, yet installed as ${name}")
  elseif(NOT internal AND NOT EXISTS ${WORK_DIR}/prefix/include/${name})
    list(APPEND misplaced "${header} is under include/, yet not installed (move it to internal/)")
  endif()
endforeach()
if(misplaced)
  list(JOIN misplaced "\n  " listed)
  message(FATAL_ERROR "headers in the wrong folder:\n  ${listed}")
endif()

# The README's own example, built as the README says: its CMake snippet (which must be
# readme/CMakeLists.txt, word for word) and its region example, with no C++ standard set by
# the consumer, so the installed targets must ask for C++20 themselves.
file(READ ${README} readme)
string(REGEX MATCH "<!-- cmake-example -->\n```cmake\n([^`]*)```\n<!-- /cmake-example -->" _ "${readme}")
set(readme_cmake "${CMAKE_MATCH_1}")
file(READ ${CONSUMER_DIR}/readme/CMakeLists.txt consumer_cmake)
if(NOT readme_cmake STREQUAL consumer_cmake)
  message(FATAL_ERROR "README.md's CMake snippet (between the cmake-example markers) is not "
                      "test/consumer/readme/CMakeLists.txt:\n${readme_cmake}")
endif()
if(consumer_cmake MATCHES "CMAKE_CXX_STANDARD|cxx_std_")
  message(FATAL_ERROR "the README consumer must not choose the C++ standard itself")
endif()
string(REGEX MATCH "<!-- region-example -->\n```cpp\n(.*)```\n<!-- /region-example -->" _ "${readme}")
if(NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "README.md lost its region example (between the region-example markers)")
endif()
file(WRITE ${WORK_DIR}/readme-src/main.cpp "${CMAKE_MATCH_1}")
file(COPY ${CONSUMER_DIR}/readme/CMakeLists.txt DESTINATION ${WORK_DIR}/readme-src)
set(CONSUMER_DIR ${WORK_DIR}/readme-src)
consume(build-readme)
run(${WORK_DIR}/build-readme/app)
if(NOT last_output MATCHES "marked +3 ")
  message(FATAL_ERROR "unexpected output of the README example: ${last_output}")
endif()
# The README's CMake snippet builds optimized code (its default build type is Release).
if(last_output MATCHES "${unoptimized}")
  message(FATAL_ERROR "the README example was built without optimization:\n${last_output}")
endif()
message(STATUS "README example ran:\n${last_output}")
