# SPDX-License-Identifier: MIT
# examples/scenarios/ holds one file per built-in scenario, equal to `netcc-sim show <name>`
# (the built-in's keys that differ from the defaults), and each file runs (--dry-run).
# Regenerate after changing a built-in:
#   for n in $(netcc-sim list | ...); do netcc-sim show $n > examples/scenarios/$n.scn; done
# Inputs: SIM (netcc-sim), DIR (examples/scenarios), OUT (scratch directory).
execute_process(COMMAND "${SIM}" list OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "netcc-sim list exited with ${rc}")
endif()
string(REGEX MATCH "scenarios:\n(.*)controllers:" block "${listing}")
string(REGEX MATCHALL "\n  [A-Za-z0-9._-]+" names "\n${CMAKE_MATCH_1}")
set(count 0)
foreach(entry ${names})
  string(STRIP "${entry}" name)
  math(EXPR count "${count} + 1")
  set(file "${DIR}/${name}.scn")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} is missing: netcc-sim show ${name} > ${file}")
  endif()
  execute_process(COMMAND "${SIM}" show "${name}" OUTPUT_VARIABLE want RESULT_VARIABLE rc)
  file(READ "${file}" got)
  if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
    message(FATAL_ERROR "${file} differs from netcc-sim show ${name}:\n--- file\n${got}--- show\n${want}")
  endif()
  execute_process(COMMAND "${SIM}" "${file}" --dry-run --out "${OUT}/${name}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "netcc-sim ${file} --dry-run: ${err}")
  endif()
endforeach()
file(GLOB files "${DIR}/*.scn")
list(LENGTH files nfiles)
if(count EQUAL 0 OR NOT nfiles EQUAL count)
  message(FATAL_ERROR "${nfiles} files in ${DIR} for ${count} built-in scenarios")
endif()
message(STATUS "${count} scenario files match the built-ins")
