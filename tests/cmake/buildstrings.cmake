# cmake -DMODE=cstr -DVALUE=TEXT -DOUT=FILE.c -P buildstrings.cmake: writes a C program that
#   prints TEXT through lab_c_string's literal;
# cmake -DMODE=sanitize -DFLAGS="C flags" -P buildstrings.cmake: prints "sanitize=LIST".
# For tests/cmake/buildstrings.sh.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/BuildStrings.cmake)
if(MODE STREQUAL "cstr")
  lab_c_string(lit "${VALUE}")
  file(WRITE "${OUT}" "#include <stdio.h>\nint main(void) { fputs(\"${lit}\", stdout); return 0; }\n")
else()
  lab_sanitize_seen(san "${FLAGS}")
  message("sanitize=${san}")
endif()
