# SPDX-License-Identifier: MIT
# netcc-p4 on bad input: exit 2, one line naming the key, the value and the rule, and no
# files written. Run with -DEXE=<netcc-p4> -DOUT=<a directory that must stay absent>.
file(REMOVE_RECURSE "${OUT}")
# Each case: arguments ; the text the one line must hold.
set(cases
    "--set|bolt.mtu=0|--function|bolt@bolt.mtu = 0 B: must be in [1, 65535] B"
    "--set|p4.link_rate=33G|--function|bolt@p4.link_rate = 33000000000 bps: must be 10, 25"
    "--set|bolt.mtu=big@bolt.mtu = big: must be an integer"
    "--set|no.such=1@no.such = 1: unknown key"
    "--function|nope@function = nope: must be one of"
    "--set|dcqcn_np.mode=later@dcqcn_np.mode = later: must be suppress or schedule"
    "--set|p4.flows=1000@p4.flows = 1000: must be a power of two")
foreach(c ${cases})
  string(REPLACE "@" ";" parts "${c}")
  list(GET parts 0 args)
  list(GET parts 1 want)
  string(REPLACE "|" ";" args "${args}")
  execute_process(COMMAND "${EXE}" --out "${OUT}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "netcc-p4 ${args}: exit ${rc}, want 2")
  endif()
  string(FIND "${err}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "netcc-p4 ${args}: stderr '${err}' lacks '${want}'")
  endif()
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines n)
  if(NOT n EQUAL 1 OR NOT out STREQUAL "")
    message(FATAL_ERROR "netcc-p4 ${args}: want one line on stderr and nothing on stdout")
  endif()
  if(EXISTS "${OUT}")
    message(FATAL_ERROR "netcc-p4 ${args}: wrote ${OUT} despite the error")
  endif()
endforeach()
message(STATUS "netcc-p4: every bad input rejected with one line and exit 2, nothing written")
