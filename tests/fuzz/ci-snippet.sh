# SPDX-License-Identifier: GPL-3.0-or-later
# For .ci/run (to be merged there): build the libFuzzer target with clang and run it for a
# bounded time over the committed corpus. Sourced or pasted into a POSIX sh script that has
# already installed the build dependencies; needs clang (libFuzzer ships with it on Debian).
#
#   fuzz.config runs fuzz_config -max_total_time=$LAB_FUZZ_TIME (default 60 s) with
#   -rss_limit_mb=2048 -timeout=10 over tests/fuzz/corpus; new inputs and crash-* files land in
#   build-fuzz/tests/fuzz/, never in the source tree.

if ! command -v clang >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y --no-install-recommends clang
	else
		echo "ci: the fuzz step needs clang: sudo apt-get install clang" >&2
		exit 1
	fi
fi
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DLAB_FUZZ=ON -DLAB_OPENMP=OFF -DLAB_FUZZ_TIME="${LAB_FUZZ_TIME:-60}"
cmake --build build-fuzz -j2 --target fuzz_config
if ! (cd build-fuzz && ctest -L fuzz --output-on-failure); then
	# Keep what libFuzzer found next to the log: the crash input reproduces with
	#   build-fuzz/tests/fuzz/fuzz_config build-fuzz/tests/fuzz/crash-<sha1>
	ls -l build-fuzz/tests/fuzz/crash-* build-fuzz/tests/fuzz/leak-* \
		build-fuzz/tests/fuzz/timeout-* build-fuzz/tests/fuzz/oom-* 2>/dev/null
	exit 1
fi
