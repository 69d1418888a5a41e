# lab_kernel_file(FILE [ISA scalar|sse2|sse42|avx|avx2|avx512] [OPENMP] [TARGET tgt])
#
# Per-file compile flags for one kernel source, so a SIMD variant is compiled for its ISA and
# nothing else is: the rest of the lab stays baseline x86-64 and runs on any CPU. Call it in the
# directory that creates the target that compiles FILE (or name that target with TARGET).
#   ISA avx2    -mavx2 -mfma                      (lab_env_require_cpu: LAB_CPU_AVX2 | LAB_CPU_FMA)
#   ISA avx512  -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx2 -mfma   (LAB_CPU_AVX512)
#   ISA avx     -mavx;  ISA sse42  -msse4.2;  ISA sse2  -msse2 (the x86-64 baseline)
#   ISA scalar  -march=x86-64, auto-vectorization off, so a "scalar" variant really is scalar
#   OPENMP      the OpenMP flags (and links OpenMP into TARGET); in a build without OpenMP
#               (LAB_OPENMP=OFF) the file compiles without them and its kernel, flagged
#               LAB_KF_OPENMP, is skipped: keep omp_* calls behind `#ifdef _OPENMP` there.
# Rules for an ISA file: put only the variant's run functions (and what they alone call) in it;
# the descriptor, check() and setup stay in a baseline file, because any code in an ISA file may
# use the ISA's instructions and would fault (SIGILL) on a CPU that lacks them before check()
# could skip the point. Functions from headers must be `static inline` there, never a plain
# `inline` that the linker could merge with a baseline copy.
# lab_isa_flags(OUT ISA COMPILER_ID): the flags of one ISA for a compiler (GNU or Clang), so
# the isa tests can build the same files with another compiler than the configured one.
# On x86 every vector ISA's flags start from -march=x86-64: the file's options come after
# CMAKE_C_FLAGS, so a -march=x86-64-v4 given for the whole build no longer makes the "sse2"
# variant AVX-512 code (it did: vpternlogq in stream_sse2, xmm16-31 in simd_avx2) while the lab
# labels and compares it as SSE2. scalar too: the baseline every speedup is measured against is
# the same code in every build (with a global -march=x86-64-v4 clang made the scalar dot and
# saxpy FMA chains, each step the FMA's latency, not the add's; test_isa and test_disasm check
# it holds no vector ISA and no VEX encoding). -mno-sse3 then clears every ISA above SSE2 that
# an explicit option turned on (-mavx2 -mfma in CMAKE_C_FLAGS outlive any later -march, and made
# the scalar and sse2 files AVX2 code); the variant's own options come after it and win.
function(lab_isa_flags out isa compiler)
  set(base)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    # -mfpmath=sse: -mfpmath=387 in CMAKE_C_FLAGS made the scalar baseline x87 code
    set(base -march=x86-64 -mno-sse3 -mfpmath=sse)
  endif()
  if(NOT isa OR isa STREQUAL "none")
    set(flags)
  elseif(isa STREQUAL "scalar")
    if(compiler MATCHES "Clang")
      set(flags ${base} -fno-vectorize -fno-slp-vectorize)
    else()
      # -fno-tree-vectorize leaves a vectorizer named on its own before it on (GCC's rule for
      # the umbrella option): -ftree-loop-vectorize in CMAKE_C_FLAGS made the scalar sum,
      # dot and saxpy SSE2 code, and every SIMD speedup 40 % too small
      set(flags ${base} -fno-tree-vectorize -fno-tree-loop-vectorize -fno-tree-slp-vectorize)
    endif()
  elseif(isa STREQUAL "sse2")
    set(flags ${base} -msse2)
  elseif(isa STREQUAL "sse42")
    set(flags ${base} -msse4.2)
  elseif(isa STREQUAL "avx")
    set(flags ${base} -mavx)
  elseif(isa STREQUAL "avx2")
    set(flags ${base} -mavx2 -mfma)
  elseif(isa STREQUAL "avx512")
    set(flags ${base} -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx2 -mfma)
  else()
    message(FATAL_ERROR "ISA ${isa}: unknown (allowed scalar, sse2, sse42, avx, avx2, avx512)")
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

function(lab_kernel_file file)
  cmake_parse_arguments(K "OPENMP" "ISA;TARGET" "" ${ARGN})
  if(K_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lab_kernel_file(${file}): unknown arguments ${K_UNPARSED_ARGUMENTS}")
  endif()
  lab_isa_flags(flags "${K_ISA}" "${CMAKE_C_COMPILER_ID}")
  if(K_OPENMP)
    if(LAB_OPENMP)
      list(APPEND flags ${OpenMP_C_FLAGS})
      if(K_TARGET)
        target_link_libraries(${K_TARGET} PUBLIC OpenMP::OpenMP_C)
      endif()
    else()
      list(APPEND flags -Wno-unknown-pragmas)
    endif()
  endif()
  set(scope)
  if(K_TARGET)
    set(scope TARGET_DIRECTORY ${K_TARGET})
  endif()
  set_property(SOURCE ${file} ${scope} APPEND PROPERTY COMPILE_OPTIONS ${flags})
endfunction()

# lab_baseline_file(FILE): FILE compiled for baseline x86-64 whatever the build's flags: the
# scalar flags, and the general-purpose extensions an explicit -m option could have turned on
# cleared too. For the code that asks the CPU what it has before code built for the build's
# -march runs (harness/cpuid_isa.c, lab/cpu_guard.c). Call it where FILE's target is made.
function(lab_baseline_file file)
  lab_isa_flags(flags scalar "${CMAKE_C_COMPILER_ID}")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    list(APPEND flags -mtune=generic -mno-popcnt -mno-lzcnt -mno-bmi -mno-bmi2 -mno-tbm
         -mno-movbe -mno-adx -mno-prfchw)
  endif()
  set_property(SOURCE ${file} APPEND PROPERTY COMPILE_OPTIONS ${flags})
endfunction()
