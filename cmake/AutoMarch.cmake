# lab_check_auto_march(): whether the compiler takes -march=${LAB_AUTO_MARCH} (the auto kernel
# variants' target), into LAB_HAVE_AUTO_MARCH; stops the configure with the reason when it does
# not, except for native (a compiler without -march=native then builds auto for its default).
# The check's cache entry is named after the exact value (an MD5 of it): an existing build
# reconfigured with another LAB_AUTO_MARCH checks the new value instead of reusing the old one's
# answer (gcc 12 then failed in the middle of the build on -march=znver4, which it does not
# know). A name made a C identifier of the value gave x86-64 and x86_64 one entry, so the typo
# passed the configure on the good value's answer.
include(CheckCCompilerFlag)
# lab_auto_march_given(): an empty LAB_AUTO_MARCH stops the configure with one message (each
# check of it failed on its own, one with "Function invoked with incorrect arguments").
function(lab_auto_march_given)
  if(LAB_AUTO_MARCH STREQUAL "")
    message(FATAL_ERROR "LAB_AUTO_MARCH is empty: the auto kernel variants need a target "
                        "(native, the default; x86-64 for the baseline; x86-64-v3, haswell, "
                        "znver3, ...); no value turns them off")
  endif()
  # one -march value: a space or ';' passed the check as two flags, then -march= took the
  # whole text in the middle of the build
  if(LAB_AUTO_MARCH MATCHES "[ \t;]")
    message(FATAL_ERROR "LAB_AUTO_MARCH='${LAB_AUTO_MARCH}': allowed one -march value, without "
                        "spaces or ';' (native, x86-64, x86-64-v3, haswell, znver3, ...)")
  endif()
endfunction()
function(lab_check_auto_march)
  string(MD5 key "${LAB_AUTO_MARCH}")
  string(MAKE_C_IDENTIFIER "LAB_HAVE_MARCH_${LAB_AUTO_MARCH}" var)
  string(SUBSTRING "${key}" 0 12 key)
  set(var "${var}_${key}")
  check_c_compiler_flag(-march=${LAB_AUTO_MARCH} ${var})
  if(NOT ${var} AND NOT LAB_AUTO_MARCH STREQUAL "native")
    message(FATAL_ERROR "LAB_AUTO_MARCH=${LAB_AUTO_MARCH}: ${CMAKE_C_COMPILER} does not accept "
                        "-march=${LAB_AUTO_MARCH} (try native, x86-64-v3, haswell, znver3, ...)")
  endif()
  set(LAB_HAVE_AUTO_MARCH ${${var}} PARENT_SCOPE)
endfunction()
