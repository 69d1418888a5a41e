# cmake -DID=GNU|Clang -DCC=compiler -DMARCH=value [-DEXTRA="-m options"] -P autoarch.cmake:
# prints "arch=... tune=..." as cmake/AutoArch.cmake reads -march=MARCH after the build's -m
# options EXTRA, for tests/cmake/autoarch.sh.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/AutoArch.cmake)
separate_arguments(extra UNIX_COMMAND "${EXTRA}")
lab_auto_arch(arch tune "${ID}" "${CC}" "${MARCH}" ${extra})
message("arch=${arch} tune=${tune}")
