# One matcher for every pattern (issue 49): std::regex backtracks (`(a|a)*b` on a 40-character
# name never returns) and recurses per character (a 50,000-character benchmark name overflowed
# the stack), so user patterns go through RE2 (harness/cli/common/user_pattern.hpp) and no source
# uses <regex> at all, tests included (a test that used it would make it look usable). A line
# counts unless the use is inside a // comment or a comment block's " * " line
# (source_scan.cmake).
cmake_policy(SET CMP0007 NEW)
include(${CMAKE_CURRENT_LIST_DIR}/source_scan.cmake)
find_code_uses("std::(w?regex|w?sregex|w?cregex|w?smatch|w?cmatch|regex_)|<regex>" found
               harness pmu workloads test)
if(found)
  list(JOIN found "\n  " listed)
  message(FATAL_ERROR "std::regex used (match user patterns with cli::UserPattern, RE2; "
                      "scan perfgauge's own text without a regex):\n  ${listed}")
endif()
message(STATUS "no std::regex in harness, pmu, workloads or test")
