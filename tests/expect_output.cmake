# Runs a command and passes when it exits with an expected status AND its
# output (stdout and stderr together) matches a regular expression.
# CTest's PASS_REGULAR_EXPRESSION alone ignores the exit status: a program
# that prints the text and then fails would pass.
# Usage: cmake -DSTATUS=S -DREGEX=RE -P expect_output.cmake -- +COMMAND [+ARG...]
# S is the status, or several as 0|1. RE is a CMake regular expression, as
# PASS_REGULAR_EXPRESSION takes ('.' matches a newline too). A command ended
# by a signal never passes. The command's output is printed back, so that
# the test's FAIL_REGULAR_EXPRESSION (if any) still sees it.
set(cmd "")
set(seen_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(seen_dashes)
    # each word comes with a '+' in front (cmake would take a word such as
    # -L for its own option); a ';' in it stays (not a list separator)
    string(REGEX REPLACE "^\\+" "" arg "${CMAKE_ARGV${i}}")
    string(REPLACE ";" "\\;" arg "${arg}")
    list(APPEND cmd "${arg}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(seen_dashes TRUE)
  endif()
endforeach()
if(NOT STATUS MATCHES "^[0-9]+(\\|[0-9]+)*$" OR REGEX STREQUAL "" OR NOT cmd)
  message(FATAL_ERROR "usage: cmake -DSTATUS=N[|N...] -DREGEX=RE -P expect_output.cmake -- +COMMAND [+ARG...]")
endif()

execute_process(COMMAND ${cmd} RESULT_VARIABLE got
  OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
set(failed FALSE)
# RESULT_VARIABLE is the exit status, or a text such as "Segmentation
# fault" when a signal ended the command: never one of the numbers.
if(NOT got MATCHES "^(${STATUS})$")
  message("expect_output: exit status ${got}, want ${STATUS}")
  set(failed TRUE)
endif()
if(NOT out MATCHES "${REGEX}")
  message("expect_output: the output does not match: ${REGEX}")
  set(failed TRUE)
endif()
if(failed)
  list(JOIN cmd " " shown)
  message(FATAL_ERROR "expect_output: failed: ${shown}")
endif()
