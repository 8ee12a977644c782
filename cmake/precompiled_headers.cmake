# Precompiled headers for the targets with many translation units. On the 2-core machines this
# project is built on, parsing <nlohmann/json.hpp>, {fmt}, GoogleTest and the standard library
# again in every file was about a third of each file's compile time.
option(PERFGAUGE_PCH "Precompile the heavy standard and third-party headers" ON)

set(PERFGAUGE_PCH_HEADERS
    <algorithm> <cmath> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set>
    <sstream> <string> <string_view> <vector>
    <fmt/format.h> <nlohmann/json.hpp>)

# perfgauge_precompile_headers(target [TESTS]): TESTS adds GoogleTest to the list.
function(perfgauge_precompile_headers target)
  cmake_parse_arguments(ARG "TESTS" "" "" ${ARGN})
  if(NOT PERFGAUGE_PCH)
    return()
  endif()
  set(headers ${PERFGAUGE_PCH_HEADERS})
  if(ARG_TESTS)
    list(APPEND headers <gtest/gtest.h>)
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
