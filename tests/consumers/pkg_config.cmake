# SPDX-License-Identifier: MIT
# Compile and run the consumer with flags from the installed netcc.pc (cmake -P script).
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${PREFIX}/share/pkgconfig")
execute_process(COMMAND "${PKG_CONFIG}" --cflags netcc OUTPUT_VARIABLE cflags
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(cflags UNIX_COMMAND "${cflags}")
execute_process(COMMAND "${CXX}" -std=c++20 ${cflags} "${SRC}" -o "${OUT}" COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${OUT}" COMMAND_ERROR_IS_FATAL ANY)
