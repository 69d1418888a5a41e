# Provenance of the build: version, compiler and flags, written into build_info.h at configure.
# The git sha and dirty flag go into build_git.h at every build (cmake/GitInfo.cmake, target
# lab_git_info): at configure only, they stayed the configure's through a later `cmake --build`.
set(LAB_GIT_INFO_H ${CMAKE_BINARY_DIR}/gen/build_git.h)
set(_git_info -DSRC=${CMAKE_SOURCE_DIR} -DOUT=${LAB_GIT_INFO_H} -P
              ${CMAKE_CURRENT_LIST_DIR}/GitInfo.cmake)
execute_process(COMMAND ${CMAKE_COMMAND} ${_git_info})
add_custom_target(lab_git_info COMMAND ${CMAKE_COMMAND} ${_git_info} BYPRODUCTS ${LAB_GIT_INFO_H}
                  VERBATIM)
string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
set(LAB_C_FLAGS_ALL "${LAB_C_FLAGS_GIVEN} ${CMAKE_C_FLAGS_${_bt}}")
string(STRIP "${LAB_C_FLAGS_ALL}" LAB_C_FLAGS_ALL)
# A sanitizer given in the C flags (-fsanitize=address) instead of LAB_SANITIZE is one too: the
# build says so in run.json, lab run and lab analyze alike.
include(${CMAKE_CURRENT_LIST_DIR}/BuildStrings.cmake)
set(LAB_SANITIZE_SEEN "${LAB_SANITIZE}")
if(NOT LAB_SANITIZE_SEEN)
  lab_sanitize_seen(LAB_SANITIZE_SEEN "${LAB_C_FLAGS_ALL}")
endif()
# What -march=${LAB_AUTO_MARCH} means to this compiler (native is the build machine, and a
# compiler older than the CPU picks something else: gcc 12 on Zen 5 says znver3 + AVX-512).
# The build's own -m options (-mavx2 in CMAKE_C_FLAGS) are in the auto files too, and said.
include(${CMAKE_CURRENT_LIST_DIR}/AutoArch.cmake)
lab_user_isa_flags(LAB_AUTO_EXTRA "${LAB_C_FLAGS_GIVEN} ${CMAKE_C_FLAGS_${_bt}}")
lab_auto_arch(LAB_AUTO_ARCH LAB_AUTO_TUNE "${CMAKE_C_COMPILER_ID}" ${CMAKE_C_COMPILER}
              ${LAB_AUTO_MARCH} ${LAB_AUTO_EXTRA})
lab_auto_isa(LAB_AUTO_ISA ${CMAKE_C_COMPILER} ${LAB_AUTO_MARCH} ${LAB_AUTO_EXTRA})
lab_auto_vectors(LAB_AUTO_VECTORS "${CMAKE_C_COMPILER_ID}" ${CMAKE_C_COMPILER} ${LAB_AUTO_MARCH}
                 ${LAB_AUTO_EXTRA})
lab_auto_isa_width(LAB_AUTO_ISA "${LAB_AUTO_VECTORS}")
string(REPLACE ";" " " LAB_AUTO_EXTRA "${LAB_AUTO_EXTRA}")
set(_extra)
if(LAB_AUTO_EXTRA)
  set(_extra " with ${LAB_AUTO_EXTRA} from the C flags")
endif()
set(_vectors)
if(LAB_AUTO_VECTORS)
  set(_vectors ", ${LAB_AUTO_VECTORS} vectors")
endif()
message(STATUS "auto kernel variants: -march=${LAB_AUTO_MARCH}${_extra} (arch ${LAB_AUTO_ARCH}, tune ${LAB_AUTO_TUNE}${_vectors}, widest variant ${LAB_AUTO_ISA})")
# Each value into a C string literal whole (BuildStrings.cmake).
foreach(_v PROJECT_VERSION CMAKE_C_COMPILER_ID CMAKE_C_COMPILER_VERSION LAB_C_FLAGS_ALL
           CMAKE_BUILD_TYPE LAB_SANITIZE_SEEN LAB_AUTO_MARCH LAB_AUTO_EXTRA LAB_AUTO_ARCH
           LAB_AUTO_TUNE LAB_AUTO_ISA LAB_AUTO_VECTORS)
  lab_c_string(CSTR_${_v} "${${_v}}")
endforeach()
configure_file(${CMAKE_SOURCE_DIR}/cmake/build_info.h.in ${CMAKE_BINARY_DIR}/gen/build_info.h @ONLY)
