# cmake -DTYPE=... -DFLAGS=... -DTYPE_FLAGS=... [-DARG1=...] -DSRC=... -P ieeemath.cmake: prints the build
# type's flags after lab_ieee_math() (tests/cmake/ieeemath.sh).
set(CMAKE_BUILD_TYPE "${TYPE}")
set(CMAKE_C_FLAGS "${FLAGS}")
set(CMAKE_C_COMPILER_ARG1 "${ARG1}") # CC="gcc -ffast-math": the words after the compiler
string(TOUPPER "${TYPE}" _t)
set(CMAKE_C_FLAGS_${_t} "${TYPE_FLAGS}")
include(${SRC}/cmake/IeeeMath.cmake)
lab_ieee_math()
message(STATUS "flags: ${CMAKE_C_FLAGS_${_t}}")
