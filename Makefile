# The README's two commands. CMake does the real work; this only strings the steps together.
#   make quick   install what is missing, build, run the built-in quick experiment set
#   make test    build and run the whole test suite (ends with ctest's summary), except the
#                QEMU NUMA guest (label vm): make test-vm
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=
ifeq ($(CI),true)
CMAKE_FLAGS += -DLAB_WERROR=ON
endif

.PHONY: all deps build quick test test-vm clean format

all: build

deps:
	@scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

quick: build
	$(BUILD)/lab/lab run

test: build
	cd $(BUILD) && ctest -j$(JOBS) -LE vm --output-on-failure

test-vm: build
	cd $(BUILD) && ctest -L vm --output-on-failure

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)
