# The man page (perfgauge.1) and bash completion, made by scripts/cli_docs.py from the built
# binary's own --help (so they cannot drift from it) and installed with it. They need the
# binary to run on the build machine and Debian's python3: a cross build, or a machine without
# /usr/bin/python3, builds and installs without them and says so.
if(CMAKE_CROSSCOMPILING)
  message(STATUS "perfgauge: no man page or completion in a cross build (the binary cannot run here)")
elseif(NOT EXISTS /usr/bin/python3)
  message(STATUS "perfgauge: no man page or completion: /usr/bin/python3 is missing")
else()
  set(_man ${PROJECT_BINARY_DIR}/harness/perfgauge.1)
  set(_completion ${PROJECT_BINARY_DIR}/harness/perfgauge.bash-completion)
  add_custom_command(
    OUTPUT ${_man} ${_completion}
    COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/scripts/cli_docs.py $<TARGET_FILE:perfgauge>
            --man ${_man} --completion ${_completion}
    DEPENDS perfgauge ${PROJECT_SOURCE_DIR}/scripts/cli_docs.py
    COMMENT "Man page and bash completion from perfgauge --help"
    VERBATIM)
  add_custom_target(perfgauge_cli_docs ALL DEPENDS ${_man} ${_completion})
  install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          RENAME perfgauge)
endif()
