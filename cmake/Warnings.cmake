# The warning set of STYLE.md, each flag probed so an older or newer compiler keeps building.
include(CheckCCompilerFlag)
set(LAB_WARNING_FLAGS)
foreach(flag -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes
             -Wold-style-definition -Wvla -Wpointer-arith -Wwrite-strings -Wundef
             -Wimplicit-fallthrough)
  string(MAKE_C_IDENTIFIER "HAVE${flag}" var)
  check_c_compiler_flag(${flag} ${var})
  if(${var})
    list(APPEND LAB_WARNING_FLAGS ${flag})
  endif()
endforeach()
if(LAB_WERROR)
  list(APPEND LAB_WARNING_FLAGS -Werror)
endif()
