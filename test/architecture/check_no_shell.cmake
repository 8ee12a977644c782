# No shell between perfgauge and the programs it runs (issue 52): popen() and system() hand a
# command line to /bin/sh, which re-splits and re-expands it, leaves its child unreaped when the
# caller forgets pclose, and hides the program's exec failure behind the shell's exit status 127.
# harness/ starts every child through system's child_process.hpp (PendingChild: an argv, no
# shell, reaped by RAII; `git rev-parse` for history add is harness/system's git_head).
cmake_policy(SET CMP0007 NEW)
include(${CMAKE_CURRENT_LIST_DIR}/source_scan.cmake)
find_code_uses("(^|[^A-Za-z0-9_.>])(popen|pclose|system)[ \t]*\\(" found harness)
if(found)
  list(JOIN found "\n  " listed)
  message(FATAL_ERROR "popen()/system() used in harness/ (start children with "
                      "harness::PendingChild, child_process.hpp: an argv, no shell):\n  ${listed}")
endif()
message(STATUS "no popen() or system() in harness")
