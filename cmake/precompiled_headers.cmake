# Precompiled headers for the targets with many translation units. On the 2-core machines this
# project is built on, parsing <nlohmann/json.hpp>, {fmt}, GoogleTest and the standard library
# again in every file was about a third of each file's compile time.
#
# One precompiled header is built per kind of target (library code; test drivers, which add
# GoogleTest and compile at -O0) and every target of that kind reuses it: one per target cost
# 21 compilations of the same headers, 157-163 s of a build's compile time (docs/measurements.md).
# GCC uses a precompiled header only if it was built with the same flags (optimisation level,
# sanitizers, the definitions its headers read): the users link the same header libraries as
# the owner, and -Winvalid-pch (CMake passes it; an error under PERFGAUGE_WERROR) says when one
# would not match.
option(PERFGAUGE_PCH "Precompile the heavy standard and third-party headers" ON)

set(PERFGAUGE_PCH_HEADERS
    <algorithm> <cmath> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set>
    <sstream> <string> <string_view> <vector>
    <fmt/format.h> <nlohmann/json.hpp>)

# The target that owns the precompiled header of one kind: an empty translation unit with the
# flags of the targets that reuse it.
function(perfgauge_pch_owner owner tests)
  if(TARGET ${owner})
    return()
  endif()
  set(source ${CMAKE_BINARY_DIR}/${owner}.cpp)
  file(WRITE ${source} "// Owns the precompiled header that the ${owner} users reuse.\n")
  add_library(${owner} OBJECT ${source})
  set_target_properties(${owner} PROPERTIES UNITY_BUILD OFF)
  set(headers ${PERFGAUGE_PCH_HEADERS})
  # perfgauge_warnings and -pthread too: -Wpedantic and -pthread change what GCC predefines
  # (__cpp_runtime_arrays, _REENTRANT), and Boost's targets give the command -pthread.
  target_link_libraries(${owner} PRIVATE fmt::fmt nlohmann_json::nlohmann_json perfgauge_warnings)
  target_compile_options(${owner} PRIVATE -pthread)
  if(tests)
    list(APPEND headers <gtest/gtest.h>)
    target_link_libraries(${owner} PRIVATE GTest::gtest)
    target_compile_options(${owner} PRIVATE -O0)
  endif()
  target_precompile_headers(${owner} PRIVATE ${headers})
endfunction()

# perfgauge_precompile_headers(target [TESTS]): TESTS for the test drivers (GoogleTest, -O0).
function(perfgauge_precompile_headers target)
  cmake_parse_arguments(ARG "TESTS" "" "" ${ARGN})
  if(NOT PERFGAUGE_PCH)
    return()
  endif()
  if(ARG_TESTS)
    set(owner perfgauge_pch_tests)
  else()
    set(owner perfgauge_pch_libraries)
  endif()
  perfgauge_pch_owner(${owner} ${ARG_TESTS})
  # BUILD_INTERFACE: the installed libraries' users need none of this.
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:fmt::fmt>
                        $<BUILD_INTERFACE:nlohmann_json::nlohmann_json>)
  target_compile_options(${target} PRIVATE -pthread)
  if(ARG_TESTS)
    target_link_libraries(${target} PRIVATE GTest::gtest)
  endif()
  target_precompile_headers(${target} REUSE_FROM ${owner})
endfunction()
