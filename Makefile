# hwprof build. `make` builds the library and CLI into build/;
# `make check` installs what is missing, builds twice (gcc -O2, and clang with
# ASan+UBSan into build-san/) and runs every test against both builds.
# New .c files are picked up automatically: src/<concern>/*.c go into the
# library, src/cli/*.c into the CLI, tests/unit/test_*.c become test programs,
# tests/tools/*.c test helper programs, fuzz/fuzz_*.c fuzz targets.

BUILD   ?= build
SAN     ?= 0
ifeq ($(SAN),1)
CC      := clang
OPT     := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
CC      ?= cc
OPT     ?= -O2 -g
endif

# libtraceevent (src/trace/): tracepoint formats and their print-fmt text
TEP_CFLAGS := $(shell pkg-config --cflags libtraceevent 2>/dev/null)
TEP_LIBS   := $(or $(shell pkg-config --libs libtraceevent 2>/dev/null),-ltraceevent)
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter
CFLAGS  := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -fPIC -fvisibility=hidden \
           -Iinclude -Isrc $(TEP_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS  := -lzstd -lz -ldw -lelf -liberty -lZydis $(TEP_LIBS) -lpthread -lm

LIB_SRC   := $(sort $(shell find src -name '*.c' -not -path 'src/cli/*'))
CLI_SRC   := $(sort $(wildcard src/cli/*.c))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
TOOL_SRC  := $(sort $(wildcard tests/tools/*.c))
FUZZ_SRC  := $(sort $(wildcard fuzz/fuzz_*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TESTS    := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOLS    := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
FUZZ_REPLAY := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)
BENCHES  := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

.PHONY: all lib cli tests check demo bench fuzz clean deps test-build
all: lib cli

lib: $(BUILD)/libhwprof.a $(BUILD)/libhwprof.so
cli: $(BUILD)/hwprof

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libhwprof.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/libhwprof.so: $(LIB_OBJ)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -shared -Wl,-soname,libhwprof.so.0 -o $@ $^ $(LDLIBS)

$(BUILD)/hwprof: $(CLI_OBJ) $(BUILD)/libhwprof.a
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libhwprof.a $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libhwprof.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -Itests -MMD -MP -o $@ $< $(BUILD)/libhwprof.a $(LDLIBS) -lcmocka

# Test helper programs may link oracles (libipt); never the library's runtime.
$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libhwprof.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -Itests -MMD -MP -o $@ $< $(BUILD)/libhwprof.a $(LDLIBS) -lipt

# Fuzz targets built with a replay main() (fuzz/driver.c) for `make check`.
$(BUILD)/fuzz/%: fuzz/%.c fuzz/driver.c $(BUILD)/libhwprof.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -MMD -MP -o $@ $< fuzz/driver.c $(BUILD)/libhwprof.a $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libhwprof.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -MMD -MP -o $@ $< $(BUILD)/libhwprof.a $(LDLIBS) -lipt

test-build: all $(TESTS) $(TOOLS) $(FUZZ_REPLAY)

deps:
	@./scripts/install-deps.sh

# builds use every CPU; the tests run one at a time
NPROC   := $(shell nproc 2>/dev/null || echo 2)

check: deps
	$(MAKE) -j$(NPROC) test-build BUILD=build
	$(MAKE) -j$(NPROC) test-build BUILD=build-san SAN=1
	@tests/run.sh build build-san

demo: deps
	$(MAKE) -j$(NPROC) all
	@./scripts/demo.sh

bench: deps
	$(MAKE) all $(BENCHES) $(TOOLS)
	@./bench/run.sh

# libFuzzer runs, bounded: FUZZ_SECONDS per target (default 60).
FUZZ_SECONDS ?= 60
fuzz: deps
	@./fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
