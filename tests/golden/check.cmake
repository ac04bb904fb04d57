# SPDX-License-Identifier: MIT
# Golden-file test of netcc-sim: run it on short.scn and compare its table (stdout without the
# lines naming output paths) and every CSV it writes with the files in this directory.
# Regenerate after an intended change with -DUPDATE=ON (see docs/contributing.md).
# Inputs: SIM (netcc-sim), SRC (this directory), OUT (scratch directory), CCS (controllers).
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${SIM}" "${SRC}/short.scn" --cc "${CCS}" --out "${OUT}" --quiet
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "netcc-sim exited with ${rc}:\n${out}")
endif()
# Lines naming output paths, and the speed lines (wall-clock time), are not compared.
string(REGEX REPLACE "(csv|plot|plots skipped|speed)[^\n]*\n" "" table "${out}")
string(REPLACE "," ";" cc_list "${CCS}")
if(UPDATE)
  file(WRITE "${SRC}/short.table" "${table}")
  foreach(cc ${cc_list})
    file(COPY_FILE "${OUT}/short_${cc}.csv" "${SRC}/short_${cc}.csv")
  endforeach()
  message(STATUS "golden files updated")
  return()
endif()
file(READ "${SRC}/short.table" want)
if(NOT table STREQUAL want)
  message(FATAL_ERROR "netcc-sim table differs from short.table:\n--- got\n${table}--- want\n${want}")
endif()
foreach(cc ${cc_list})
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/short_${cc}.csv"
                          "${SRC}/short_${cc}.csv" RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "short_${cc}.csv differs from the golden file")
  endif()
endforeach()
message(STATUS "netcc-sim output matches the golden files")
