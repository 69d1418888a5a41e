# cmake -DID=GNU|Clang -DCC=compiler -DMARCH=value [-DEXTRA="-m options" | -DFLAGS="C flags"]
#   -P autoarch.cmake:
# prints "arch=... tune=... isa=..." as cmake/AutoArch.cmake reads -march=MARCH after the build's -m
# options EXTRA, for tests/cmake/autoarch.sh.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/AutoArch.cmake)
separate_arguments(extra UNIX_COMMAND "${EXTRA}")
if(DEFINED FLAGS) # a whole CMAKE_C_FLAGS: its -m options as BuildInfo.cmake picks them
  lab_user_isa_flags(extra "${FLAGS}")
endif()
lab_auto_arch(arch tune "${ID}" "${CC}" "${MARCH}" ${extra})
lab_auto_isa(isa "${CC}" "${MARCH}" ${extra})
if(DEFINED TMP) # -DTMP=dir: the width of the vectors too, and the isa it leaves
  set(CMAKE_BINARY_DIR "${TMP}")
  file(MAKE_DIRECTORY "${TMP}/gen")
  lab_auto_vectors(vectors "${ID}" "${CC}" "${MARCH}" ${extra})
  lab_auto_isa_width(isa "${vectors}")
  message("vectors=${vectors} isa=${isa}")
else()
  message("arch=${arch} tune=${tune} isa=${isa}")
endif()
