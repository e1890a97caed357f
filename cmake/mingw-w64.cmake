# Cross-compiling warpsim for 64-bit Windows with MinGW-w64 (Debian: apt-get install gcc-mingw-w64-x86-64):
#   cmake -S . -B build-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake && cmake --build build-mingw --target warpsim
# The posix flavour of the compiler: its winpthreads gives the pthreads that --jobs uses.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(WARPSIM_MINGW_PREFIX x86_64-w64-mingw32 CACHE STRING "the MinGW-w64 target triple")
find_program(CMAKE_C_COMPILER NAMES ${WARPSIM_MINGW_PREFIX}-gcc-posix ${WARPSIM_MINGW_PREFIX}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${WARPSIM_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${WARPSIM_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# the runtime libraries linked in, so warpsim.exe runs without MinGW's DLLs beside it
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
