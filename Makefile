# The README's two commands. CMake does the real work; this only strings the steps together.
#   make quick   install what is missing, build, run the built-in quick experiment set
#   make test    build and run the whole test suite (ends with ctest's summary and one line
#                of what was skipped and how to get it), except the QEMU NUMA guest (label
#                vm): make test-vm
#   make install  put lab into PREFIX/bin (default /usr/local; PREFIX=$HOME/.local needs no root)
#   make fuzz-long  run every libFuzzer target for FUZZ_HOURS hours each (default 2), or for
#                FUZZ_RUNS inputs each, growing the corpora in tests/fuzz/corpus* (or in
#                FUZZ_NEW/corpus*, the committed ones then only read) (clang; a find is left as
#                build-fuzz/tests/fuzz/crash-*)
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= 2
CMAKE_FLAGS ?=
ifeq ($(CI),true)
CMAKE_FLAGS += -DLAB_WERROR=ON
endif

.PHONY: all deps build quick test test-vm install clean format fuzz-long

all: build

deps:
	@scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

quick: build
	$(BUILD)/lab/lab run

# ctest's status is make's; after its summary one line says what was skipped, why, and what
# installs what those tests need (scripts/test_skipped.py reads ctest's JUnit file).
test: build
	@rm -f $(abspath $(BUILD))/ctest-junit.xml; rc=0; cd $(BUILD) && ctest -j$(JOBS) -LE vm --output-on-failure \
		--output-junit $(abspath $(BUILD))/ctest-junit.xml || rc=$$?; \
	python3 $(CURDIR)/scripts/test_skipped.py $(abspath $(BUILD))/ctest-junit.xml; exit $$rc

test-vm: build
	cd $(BUILD) && ctest -L vm --output-on-failure

FUZZ_HOURS ?= 2
FUZZ_BUILD ?= build-fuzz
FUZZ_DIR = tests/fuzz
# FUZZ_RUNS=N bounds each target by inputs (-runs=N) instead of FUZZ_HOURS: 10 million in all is
# FUZZ_RUNS=2500000 over the four targets.
FUZZ_RUNS ?=
# fuzz_config keeps what it found in memory (about 1 GB by 500 000 inputs, 5-10 minutes on a
# 2-vCPU guest): its inputs go to processes of at most this many each (FUZZ_RUNS), or of at most
# this many seconds (FUZZ_HOURS), below -rss_limit_mb.
FUZZ_CONFIG_CHUNK = 500000
FUZZ_CONFIG_CHUNK_S = 300
FUZZ_LIMIT = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$$(( $(FUZZ_HOURS) * 3600 )))
# FUZZ_NEW=DIR: new inputs go to DIR/corpus*, the committed corpora are read as seeds only.
FUZZ_NEW ?=
fz_corpus = $(if $(FUZZ_NEW),$(FUZZ_NEW)/$(1) $(FUZZ_DIR)/$(1),$(FUZZ_DIR)/$(1))

# Long runs add what they find straight to the committed corpora (first directory); commit the
# small, new inputs that raise coverage (libFuzzer -merge=1 keeps the corpus minimal).
fuzz-long:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DLAB_FUZZ=ON -DLAB_OPENMP=OFF >/dev/null
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_config fuzz_samples fuzz_runjson fuzz_csv
	$(if $(FUZZ_NEW),mkdir -p $(addprefix $(FUZZ_NEW)/,corpus corpus-samples corpus-runjson corpus-csv))
	left=$(if $(FUZZ_RUNS),$(FUZZ_RUNS),$$(( $(FUZZ_HOURS) * 3600 ))); \
	chunk=$(if $(FUZZ_RUNS),$(FUZZ_CONFIG_CHUNK),$(FUZZ_CONFIG_CHUNK_S)); \
	while [ $$left -gt 0 ]; do \
		n=$$(( left > chunk ? chunk : left )); \
		$(FUZZ_BUILD)/$(FUZZ_DIR)/fuzz_config $(if $(FUZZ_RUNS),-runs,-max_total_time)=$$n \
			-rss_limit_mb=2048 -timeout=10 -dict=$(FUZZ_DIR)/config.dict \
			-artifact_prefix=$(FUZZ_BUILD)/$(FUZZ_DIR)/ $(call fz_corpus,corpus) || exit 1; \
		left=$$(( left - n )); \
	done
	for t in samples runjson csv; do \
		$(FUZZ_BUILD)/$(FUZZ_DIR)/fuzz_$$t $(FUZZ_LIMIT) \
			-rss_limit_mb=2048 -timeout=10 -max_len=262144 -len_control=100 \
			-dict=$(FUZZ_DIR)/results.dict -artifact_prefix=$(FUZZ_BUILD)/$(FUZZ_DIR)/ \
			$(call fz_corpus,corpus-$$t) || exit 1; \
	done

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

# Puts lab into $(PREFIX)/bin (default /usr/local; PREFIX=$$HOME/.local needs no root).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
