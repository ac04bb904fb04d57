# SPDX-License-Identifier: MIT
# Golden-file test of netcc-sim: run it on every scenario <name>.scn in this directory and compare
# its table (stdout without the lines naming output paths) with <name>.table and every CSV it
# writes (<name>_<cc>.csv) with the files here. The scenarios cover the star (short.scn) and the
# three-tier fat-tree with a shared buffer (fattree.scn); the g++ and clang++ builds must both
# reproduce them byte for byte.
# Regenerate after an intended change with -DUPDATE=ON (see docs/contributing.md).
# Inputs: SIM (netcc-sim), SRC (this directory), OUT (scratch directory), CCS (controllers).
file(REMOVE_RECURSE "${OUT}")
file(GLOB scenarios RELATIVE "${SRC}" "${SRC}/*.scn")
list(SORT scenarios)
if(NOT scenarios)
  message(FATAL_ERROR "no golden scenarios (*.scn) in ${SRC}")
endif()
string(REPLACE "," ";" cc_list "${CCS}")
foreach(scn ${scenarios})
  string(REGEX REPLACE "\\.scn$" "" name "${scn}")
  execute_process(COMMAND "${SIM}" "${SRC}/${scn}" --cc "${CCS}" --out "${OUT}" --quiet
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "netcc-sim exited with ${rc} on ${scn}:\n${out}")
  endif()
  # Lines naming output paths, and the speed lines (wall-clock time), are not compared.
  string(REGEX REPLACE "(csv|plot|plots skipped|speed)[^\n]*\n" "" table "${out}")
  if(UPDATE)
    file(WRITE "${SRC}/${name}.table" "${table}")
    foreach(cc ${cc_list})
      file(COPY_FILE "${OUT}/${name}_${cc}.csv" "${SRC}/${name}_${cc}.csv")
    endforeach()
    message(STATUS "golden files of ${scn} updated")
    continue()
  endif()
  file(READ "${SRC}/${name}.table" want)
  if(NOT table STREQUAL want)
    message(FATAL_ERROR
            "netcc-sim table of ${scn} differs from ${name}.table:\n--- got\n${table}--- want\n${want}")
  endif()
  foreach(cc ${cc_list})
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/${name}_${cc}.csv"
                            "${SRC}/${name}_${cc}.csv" RESULT_VARIABLE diff)
    if(NOT diff EQUAL 0)
      message(FATAL_ERROR "${name}_${cc}.csv differs from the golden file")
    endif()
  endforeach()
endforeach()
if(NOT UPDATE)
  message(STATUS "netcc-sim output matches the golden files (${scenarios})")
endif()
