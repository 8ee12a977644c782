cmake_minimum_required(VERSION 3.25)  # IN_LIST, list handling as the build has it
# One bounded JSON reader (issue 49): nothing in the product parses JSON but
# harness/results/readers/src/json_reader.cpp (parse_json_bounded), so that its nesting limit
# holds for every reader - a new json::parse elsewhere would take a 100,000-deep value that a
# recursive dump, copy or comparison later overflows the stack on. Tests may parse what they
# wrote (test/ is not checked), and so may a writer that re-reads the text it rendered a line
# before (writers include no reader: docs/design.md's layers), listed here.
set(renders_then_parses harness/results/writers/src/side_by_side_report.cpp)
file(GLOB_RECURSE sources ${SOURCE_DIR}/harness/*.cpp ${SOURCE_DIR}/harness/*.hpp
     ${SOURCE_DIR}/pmu/*.cpp ${SOURCE_DIR}/pmu/*.hpp ${SOURCE_DIR}/workloads/*.cpp
     ${SOURCE_DIR}/workloads/*.hpp)
if(NOT sources)
  message(FATAL_ERROR "no sources under ${SOURCE_DIR} (moved?)")
endif()
set(found "")
foreach(source ${sources})
  if(source MATCHES "/harness/results/readers/src/json_reader\\.cpp$")
    continue()
  endif()
  file(RELATIVE_PATH name ${SOURCE_DIR} ${source})
  if(name IN_LIST renders_then_parses)
    continue()
  endif()
  file(STRINGS ${source} lines REGEX "json::(parse|sax_parse|from_cbor|from_msgpack)[ \t]*\\(")
  foreach(line ${lines})
    string(REPLACE ";" "" line "${line}")  # a list separator to CMake
    string(STRIP "${line}" line)
    list(APPEND found "${name}: ${line}")
  endforeach()
endforeach()
if(found)
  list(JOIN found "\n  " listed)
  message(FATAL_ERROR "JSON parsed outside the bounded reader (use parse_json_bounded, "
                      "perfgauge/harness/json_reader.hpp):\n  ${listed}")
endif()
message(STATUS "every JSON reader goes through parse_json_bounded")
