# Texts of the build for build_info.h (cmake/BuildInfo.cmake); tested by
# tests/cmake/buildstrings.sh.

# value as the body of a C string literal: a flag that holds '"' or '\\' (-DNAME="\"x\"") broke
# the build, and a '\\b' in it became a control byte in run.json.
function(lab_c_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  # ISO C (-std=c11) reads trigraphs in a literal: "??/" is a backslash, "??=" a '#'
  string(REPLACE "?" "\\?" value "${value}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# The sanitizers C flags turn on, comma-separated: every -fsanitize= counts, in order, and
# -fno-sanitize= takes back what it names ("all": every one). "-fsanitize=address
# -fsanitize=undefined" is address,undefined; the first alone was taken before.
function(lab_sanitize_seen out flags)
  separate_arguments(words UNIX_COMMAND "${flags}")
  set(san)
  foreach(w IN LISTS words)
    if(w MATCHES "^-fsanitize=(.+)$")
      string(REPLACE "," ";" add "${CMAKE_MATCH_1}")
      list(APPEND san ${add})
    elseif(w MATCHES "^-fno-sanitize=(.+)$")
      string(REPLACE "," ";" del "${CMAKE_MATCH_1}")
      if("all" IN_LIST del)
        set(san)
      elseif(san)
        list(REMOVE_ITEM san ${del})
      endif()
    endif()
  endforeach()
  if(san)
    list(REMOVE_DUPLICATES san)
  endif()
  string(REPLACE ";" "," san "${san}")
  set(${out} "${san}" PARENT_SCOPE)
endfunction()
