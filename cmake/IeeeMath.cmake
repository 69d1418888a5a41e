# lab_ieee_math(): IEEE arithmetic whatever the C flags ask. -Ofast made isnan() false
# everywhere, so the analyzer refused every results directory (an empty counter column was "not
# a number in [0, inf]"); -funsafe-math-optimizations or -fassociative-math let `auto` reorder
# a one-accumulator float sum into vector lanes (10x faster) where ch28 teaches that it cannot;
# clang's -ffp-model=fast and -fno-honor-nans made isnan() false as -Ofast did.
# -fno-fast-math goes after the build type's flags (the last of the two on a compile line), so
# it wins (gcc and clang undo these with it) and run.json's build flags show it.
# LAB_C_FLAGS_GIVEN: the C flags with the words after the compiler in CC (CC="gcc -ffast-math
# -mavx512f"), which CMake keeps in CMAKE_C_COMPILER_ARG1 and puts on every compile line ahead of
# the flags; this check, the build's record and the auto files' -m options read them (they were
# read nowhere: fast math got through and run.json named flags the code was not built with).
macro(lab_ieee_math)
  string(STRIP "${CMAKE_C_COMPILER_ARG1} ${CMAKE_C_FLAGS}" LAB_C_FLAGS_GIVEN)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _lab_bt)
  if("${LAB_C_FLAGS_GIVEN} ${CMAKE_C_FLAGS_${_lab_bt}}" MATCHES
     "-Ofast|-ffast-math|-ffinite-math-only|-funsafe-math-optimizations|-fassociative-math|-freciprocal-math|-ffp-model=(fast|aggressive)|-fno-honor-(nans|infinities)")
    message(WARNING "lab: the C flags ask for fast math; the lab needs IEEE arithmetic (NaN and "
                    "infinities for missing values and verification, float sums in their "
                    "order) and adds -fno-fast-math after them")
    string(APPEND CMAKE_C_FLAGS_${_lab_bt} " -fno-fast-math")
  endif()
endmacro()
