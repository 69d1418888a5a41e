# lab_auto_arch(ARCH_OUT TUNE_OUT COMPILER_ID COMPILER MARCH [FLAGS]): what -march=MARCH means to
# this compiler, for run.json's lab.auto_march. ARCH is the CPU the compiler names (gcc's
# -Q --help=target, clang's -### "-target-cpu"), followed by +isa for each vector ISA that MARCH
# enables beyond that CPU (the __AVX512F__-style macros of the two compared): a compiler older
# than the CPU names an older or generic one for native (gcc 12 on Zen 5 says znver3, clang 14
# says x86-64) and still enables what the CPU has, so the name alone hid AVX-512.
# FLAGS: the build's own -m options (lab_user_isa_flags), which the auto files are compiled with
# too: -mavx2 in CMAKE_C_FLAGS makes -march=x86-64's auto files AVX2 code, and ARCH says so;
# each ISA of the named CPU they take away is -isa after those (-march=haswell with -mno-avx:
# haswell-avx-avx2-fma).
# "unknown" when the compiler does not say.
function(lab_auto_arch arch_out tune_out compiler_id compiler march)
  set(extra ${ARGN})
  set(arch "unknown")
  set(tune "unknown")
  if(compiler_id STREQUAL "GNU")
    execute_process(COMMAND ${compiler} ${extra} -march=${march} -Q --help=target
                    OUTPUT_VARIABLE q ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND q MATCHES "\n  -march=[ \t]+([^ \t\n]+)")
      set(arch "${CMAKE_MATCH_1}")
    endif()
    if(rc EQUAL 0 AND q MATCHES "\n  -mtune=[ \t]+([^ \t\n]+)")
      set(tune "${CMAKE_MATCH_1}")
    endif()
  elseif(compiler_id MATCHES "Clang")
    execute_process(COMMAND ${compiler} ${extra} -march=${march} "-###" -x c -c /dev/null -o /dev/null
                    OUTPUT_VARIABLE q ERROR_VARIABLE q RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND q MATCHES "\"-target-cpu\" \"([^\"]+)\"")
      set(arch "${CMAKE_MATCH_1}")
      set(tune "${CMAKE_MATCH_1}")
    endif()
    if(rc EQUAL 0 AND q MATCHES "\"-tune-cpu\" \"([^\"]+)\"")
      set(tune "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT arch STREQUAL "unknown" AND (NOT arch STREQUAL march OR extra))
    lab_auto_arch_isas(want ${compiler} ${march} ${extra})
    lab_auto_arch_isas(have ${compiler} ${arch})
    if(want AND have)
      foreach(isa IN LISTS want)
        if(NOT isa IN_LIST have)
          string(APPEND arch "+${isa}")
        endif()
      endforeach()
      foreach(isa IN LISTS have) # what the build's -mno-avx and the like take away
        if(NOT isa IN_LIST want)
          string(APPEND arch "-${isa}")
        endif()
      endforeach()
    endif()
  endif()
  set(${arch_out} "${arch}" PARENT_SCOPE)
  set(${tune_out} "${tune}" PARENT_SCOPE)
endfunction()

# lab_auto_isa(OUT COMPILER MARCH [FLAGS]): the widest of the lab's own ISA variants (avx512,
# avx2 (with FMA), sse2) the auto files built with -march=MARCH after the -m FLAGS may use,
# for run.json's lab.auto_march.isa (the roofline puts an auto point under that variant's peak
# when peak did not measure auto); "avx" when they may use 256-bit vectors of no variant's set
# (AVX without AVX2 and FMA: sandybridge, ivybridge, haswell -mno-fma: their code is wider
# than sse2's peak, and no variant measured its own); "" when the compiler does not say.
function(lab_auto_isa out compiler march)
  lab_auto_arch_isas(isas ${compiler} ${march} ${ARGN})
  set(isa "")
  if("avx512f" IN_LIST isas)
    set(isa "avx512")
  elseif("avx2" IN_LIST isas AND "fma" IN_LIST isas)
    set(isa "avx2")
  elseif("avx" IN_LIST isas)
    set(isa "avx")
  elseif("sse2" IN_LIST isas)
    set(isa "sse2")
  endif()
  set(${out} "${isa}" PARENT_SCOPE)
endfunction()

# lab_auto_vectors(OUT COMPILER_ID COMPILER MARCH [FLAGS]): the width of the vectors the auto files'
# loops use, "512-bit", "256-bit" or "128-bit", from a loop of doubles compiled as they are
# (-O3, the vectorizer on, -march=MARCH after the -m FLAGS) and read in its assembly; "" when the
# compiler does not say. A target may allow AVX-512 and prefer 256-bit vectors (gcc 12's
# skylake-avx512, icelake-server and sapphirerapids; clang 14's x86-64-v4 too;
# -mprefer-vector-width=256): its code is AVX-512 on ymm registers, half the width its ISA
# names, and its roof is the 256-bit ceiling's.
function(lab_auto_vectors out compiler_id compiler march)
  set(probe ${CMAKE_BINARY_DIR}/gen/lab_vectors_probe.c)
  file(WRITE ${probe}
       "void lab_vectors_probe(double *restrict a, const double *restrict b, long n)\n"
       "{\n\tfor (long i = 0; i < n; i++)\n\t\ta[i] = a[i] * b[i] + 1.0;\n}\n")
  set(vec -ftree-loop-vectorize -fvect-cost-model=dynamic)
  if(compiler_id MATCHES "Clang")
    set(vec -fvectorize)
  endif()
  execute_process(COMMAND ${compiler} ${ARGN} -march=${march} -O3 -ffp-contract=off ${vec}
                          -S -o - ${probe}
                  OUTPUT_VARIABLE s ERROR_QUIET RESULT_VARIABLE rc)
  set(width "")
  if(NOT rc EQUAL 0)
  elseif(s MATCHES "[^a-z]zmm[0-9]") # AT&T (%zmm0) or Intel syntax (-masm=intel: zmm0)
    set(width "512-bit")
  elseif(s MATCHES "[^a-z]ymm[0-9]")
    set(width "256-bit")
  elseif(s MATCHES "[^a-z]xmm[0-9]")
    set(width "128-bit")
  endif()
  set(${out} "${width}" PARENT_SCOPE)
endfunction()

# lab_auto_isa_width(ISA_VAR VECTORS): the widest variant whose vectors are as wide as the auto
# files' (lab_auto_vectors): AVX-512 code on 256-bit vectors counts as avx2 (AVX-512 CPUs have
# AVX2 and FMA), on 128-bit ones as sse2; otherwise ISA_VAR stays.
function(lab_auto_isa_width isa_var vectors)
  if(${isa_var} STREQUAL "avx512" AND vectors STREQUAL "256-bit")
    set(${isa_var} "avx2" PARENT_SCOPE)
  elseif(${isa_var} MATCHES "^avx" AND vectors STREQUAL "128-bit")
    set(${isa_var} "sse2" PARENT_SCOPE)
  endif()
endfunction()

# The vector ISAs -march=MARCH (after the -m FLAGS) enables (from the predefined macros), into
# OUT; empty when the compiler does not answer. sse2 is always in it on x86-64, so an answer is
# never empty.
function(lab_auto_arch_isas out compiler march)
  execute_process(COMMAND ${compiler} ${ARGN} -march=${march} -dM -E -x c /dev/null
                  OUTPUT_VARIABLE m ERROR_QUIET RESULT_VARIABLE rc)
  set(isas)
  if(rc EQUAL 0)
    # the vector extensions a compiler may vectorize with: two native builds on CPUs that differ
    # in AVX-512 VNNI or VBMI alone recorded one arch, and compare saw no difference
    foreach(pair SSE2:sse2 SSE4_2:sse4.2 AVX:avx AVX2:avx2 FMA:fma AVX512F:avx512f
                 AVX512BW:avx512bw AVX512DQ:avx512dq AVX512VL:avx512vl AVX512CD:avx512cd
                 AVX512IFMA:avx512ifma AVX512VBMI:avx512vbmi AVX512VBMI2:avx512vbmi2
                 AVX512VNNI:avx512vnni AVX512BITALG:avx512bitalg
                 AVX512VPOPCNTDQ:avx512vpopcntdq AVX512BF16:avx512bf16 AVX512FP16:avx512fp16
                 AVX512VP2INTERSECT:avx512vp2intersect AVXVNNI:avxvnni GFNI:gfni VAES:vaes
                 VPCLMULQDQ:vpclmulqdq)
      string(REPLACE ":" ";" pair "${pair}")
      list(GET pair 0 macro)
      list(GET pair 1 isa)
      if(m MATCHES "#define __${macro}__ ")
        list(APPEND isas ${isa})
      endif()
    endforeach()
  endif()
  set(${out} ${isas} PARENT_SCOPE)
endfunction()

# lab_user_isa_flags(OUT FLAGS): the -m options of a flags string (CMAKE_C_FLAGS) but -march and
# -mcpu, whose later per-file values win: -mavx2, -mno-avx512f, -mfma, ... stay in force after a
# file's own -march (gcc and clang let an explicit ISA option override any -march, in either
# order), so the auto files are built with them and the ISA files clear them (lab_isa_flags).
# -mtune too: an explicit one outlives -march (the auto files were recorded "tune generic" where
# -mtune=znver3 tuned them).
function(lab_user_isa_flags out flags)
  separate_arguments(words UNIX_COMMAND "${flags}")
  set(found)
  set(takes_next OFF)
  foreach(w IN LISTS words)
    if(takes_next) # -mllvm's argument: left behind, clang's LLVM read the next option as it
      list(APPEND found ${w})
      set(takes_next OFF)
    elseif(w STREQUAL "-mllvm")
      list(APPEND found ${w})
      set(takes_next ON)
    elseif(w MATCHES "^-m" AND NOT w MATCHES "^-m(arch|cpu)=")
      list(APPEND found ${w})
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
