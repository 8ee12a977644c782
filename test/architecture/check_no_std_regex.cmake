# One matcher for every pattern (issue 49): std::regex backtracks (`(a|a)*b` on a 40-character
# name never returns) and recurses per character (a 50,000-character benchmark name overflowed
# the stack), so user patterns go through RE2 (harness/cli/common/user_pattern.hpp) and no source
# uses <regex> at all, tests included (a test that used it would make it look usable). A line
# counts unless the use is inside a // comment or a comment block's " * " line.
cmake_policy(SET CMP0007 NEW)
set(use_pattern "std::(w?regex|w?sregex|w?cregex|w?smatch|w?cmatch|regex_)|<regex>")
set(found "")
foreach(folder harness pmu workloads test)
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.hpp
                            ${SOURCE_DIR}/${folder}/*.h ${SOURCE_DIR}/${folder}/*.cc)
  if(NOT sources)
    message(FATAL_ERROR "no sources under ${folder} (moved?)")
  endif()
  foreach(source ${sources})
    file(READ ${source} text)
    if(NOT text MATCHES "${use_pattern}")
      continue()
    endif()
    # A list of lines: the text's own semicolons kept out of CMake's list separator.
    string(REPLACE ";" "<semicolon>" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    foreach(line ${lines})
      string(REGEX REPLACE "//.*$" "" code "${line}")
      string(REGEX MATCH "^[ \t]*\\*" block "${code}")
      if(block)
        continue()
      endif()
      string(REGEX MATCH "${use_pattern}" use "${code}")
      if(use)
        file(RELATIVE_PATH name ${SOURCE_DIR} ${source})
        string(REPLACE "<semicolon>" "," shown "${line}")
        list(APPEND found "${name}: ${shown}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(found)
  list(JOIN found "\n  " listed)
  message(FATAL_ERROR "std::regex used (match user patterns with cli::UserPattern, RE2; "
                      "scan perfgauge's own text without a regex):\n  ${listed}")
endif()
message(STATUS "no std::regex in harness, pmu, workloads or test")
