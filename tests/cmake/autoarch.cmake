# cmake -DID=GNU|Clang -DCC=compiler -DMARCH=value -P autoarch.cmake: prints
# "arch=... tune=..." as cmake/AutoArch.cmake reads -march=MARCH, for tests/cmake/autoarch.sh.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/AutoArch.cmake)
lab_auto_arch(arch tune "${ID}" "${CC}" "${MARCH}")
message("arch=${arch} tune=${tune}")
