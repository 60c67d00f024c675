# Chuhan - a xiangqi engine.
#   make                  optimised ./chuhan for this machine
#   make test             build and run the whole test suite (installs libcmocka-dev and
#                         librsvg2-bin, for rendering the analysis graphs, if missing)
#   make check-layers     each folder includes only the layers below it (make test runs it)
#   make bench            benchmark figures (perft speed, search bench; make bench-smp: SMP scaling)
#   make net-generation   one generation of the net: data, training, gate (eval/nets/README.md; NET_ARGS=...)
#   make perft-full       every depth of every perft reference position
#   make test-gui         XBoard under Xvfb plays Chuhan against itself; the game is checked
#   make install PREFIX=/usr/local
#   make SPSA=1           the SPSA build: the search's tunables as UCI options, for chuhan spsa
#                         (build/CONFIG-spsa/chuhan; ./chuhan is left alone; TUNE=1 is its old name)
#   make test-spsa        the SPSA build's own tests (its options, the setter, a search they change;
#                         test-tune is its old name)
#   make MPI=1            the same ./chuhan against Open MPI, for clusters: mpirun -np N chuhan
#                         (installs libopenmpi-dev/openmpi-bin if missing)
#   make test-mpi         the MPI build under mpirun -np 2: protocol tests, a match, dead ranks
#   make TARGET=windows   chuhan.exe, cross-compiled with MinGW-w64 (installs it; zstd is
#                         built from Debian's source package: tests/windows/zstd.sh)
#   make test-windows     chuhan.exe under Wine: protocol pipe tests, bench nodes = Linux's
#   make TARGET=linux-arm64  ./chuhan-arm64, static AArch64 Linux (Android GUIs, Raspberry Pi),
#                         cross-compiled by Debian's gcc-aarch64-linux-gnu (installs it; zstd
#                         is built from Debian's source package, as for Windows)
#   make test-arm64       the arm64 build and its test suite under qemu-aarch64: perft, bench
#                         nodes = x86-64's, protocol tests, a match
#   make TARGET=wasm      chuhan.js + chuhan.wasm in build/emcc-wasm, a Web Worker for web pages
#                         (threads where the page is cross-origin isolated, chuhan-single.js
#                         otherwise), with Debian's emscripten (installs it; zstd as above)
#   make test-wasm        the wasm builds in headless Chromium: a game over UCI, stop, bench nodes
#   make dist             release archives in build/dist: Linux and Windows, portable and BMI2;
#                         Linux arm64; the WebAssembly npm package
# Options: ARCH=native|x86-64|x86-64-popcnt|x86-64-bmi2|armv8-a  PEXT=auto|0|1  MPI=0|1  SPSA=0|1
#          TARGET=linux|windows|linux-arm64|wasm
#          SANITIZE=address,undefined|thread  DEBUG=1  WERROR=0  CC=clang  BUILD_TAG=name

ARCH     ?= native
PEXT     ?= auto
SANITIZE ?=
DEBUG    ?= 0
WERROR   ?= 1
PREFIX   ?= /usr/local
CC       ?= cc
MPI      ?= 0
SPSA     ?= $(if $(TUNE),$(TUNE),0)
TARGET   ?= linux

# TARGET=windows: the same sources cross-compiled by Debian's MinGW-w64
# with the POSIX thread model (winpthreads: the search's pthreads and C11
# atomics as they are), linked statically so that chuhan.exe needs no DLL.
# What differs between the systems lives in engine/util, one module each
# (pages, clock, proc, host, file, charset): NAME_posix.c or NAME_windows.c
# is compiled, never both.
ifeq ($(TARGET),windows)
  ifneq ($(origin CC),command line)
    CC := x86_64-w64-mingw32-gcc-posix
  endif
  CROSS_AR := x86_64-w64-mingw32-ar
  CROSS_DEPS := tests/windows/deps.sh
  ZSTD_CROSS := build/zstd-windows
  EXE := .exe
  PLATFORM_OUT := %_posix.c
  ifeq ($(MPI),1)
    $(error MPI=1 is for Linux clusters: TARGET=windows builds without it)
  endif
else ifeq ($(TARGET),linux)
  EXE :=
  PLATFORM_OUT := %_windows.c %_wasm.c
# TARGET=linux-arm64: AArch64 Linux by Debian's cross compiler, linked
# statically (the C library and libzstd in the file), so that one binary
# runs on any AArch64 Linux kernel: a Raspberry Pi's Debian and an Android
# GUI's app folder, which has no glibc.  ARCH is armv8-a, the baseline of
# every AArch64 CPU (NEON included); ./chuhan-arm64 is its copy.
else ifeq ($(TARGET),linux-arm64)
  ifneq ($(origin CC),command line)
    CC := aarch64-linux-gnu-gcc
  endif
  CROSS_AR := aarch64-linux-gnu-ar
  CROSS_DEPS := tests/arm64/deps.sh
  ZSTD_CROSS := build/zstd-linux-arm64
  CMOCKA_CROSS := build/cmocka-linux-arm64
  EXE :=
  ROOT_COPY := chuhan-arm64
  PLATFORM_OUT := %_windows.c %_wasm.c
  ifeq ($(origin ARCH),file)
    ARCH := armv8-a
  endif
  ifneq ($(ARCH),armv8-a)
    $(error TARGET=linux-arm64 is built for ARCH=armv8-a (every AArch64 CPU), not '$(ARCH)')
  endif
  ifeq ($(MPI),1)
    $(error MPI=1 is for x86-64 Linux clusters: TARGET=linux-arm64 builds without it)
  endif
else ifeq ($(TARGET),wasm)
  ifneq ($(origin CC),command line)
    CC := emcc
  endif
  CROSS_AR := emar
  CROSS_DEPS := tests/wasm/deps.sh
  override ARCH := wasm
  EXE := .js
  PLATFORM_OUT := %_windows.c engine/util/pages_posix.c
  ifeq ($(MPI),1)
    $(error MPI=1 is for Linux clusters: TARGET=wasm builds without it)
  endif
else
  $(error unknown TARGET '$(TARGET)': use linux, windows, linux-arm64 or wasm)
endif
ifeq ($(TARGET),windows)
  PLATFORM_OUT += %_wasm.c
endif
ROOT_COPY ?= chuhan$(EXE)

ifeq ($(ARCH),native)
  ARCH_FLAGS := -march=native
  # PEXT is microcoded (slow) on AMD before Zen 3 (family 25).
  PEXT_AUTO := $(shell grep -qw bmi2 /proc/cpuinfo 2>/dev/null && \
      ! (grep -q AuthenticAMD /proc/cpuinfo && grep -qE '^cpu family[[:space:]]*: (21|22|23)$$' /proc/cpuinfo) \
      && echo 1 || echo 0)
else ifeq ($(ARCH),x86-64)
  ARCH_FLAGS := -march=x86-64
  PEXT_AUTO := 0
else ifeq ($(ARCH),x86-64-popcnt)
  ARCH_FLAGS := -march=x86-64-v2
  PEXT_AUTO := 0
else ifeq ($(ARCH),x86-64-bmi2)
  ARCH_FLAGS := -march=x86-64-v3
  PEXT_AUTO := 1
else ifeq ($(ARCH),armv8-a)
  ARCH_FLAGS := -march=armv8-a
  PEXT_AUTO := 0
else ifeq ($(ARCH),wasm)
  # WebAssembly's 128-bit SIMD, which every current browser runs
  ARCH_FLAGS := -msimd128
  PEXT_AUTO := 0
else
  $(error unknown ARCH '$(ARCH)': use native, x86-64, x86-64-popcnt, x86-64-bmi2 or armv8-a)
endif
ifeq ($(PEXT),auto)
  USE_PEXT := $(PEXT_AUTO)
else
  USE_PEXT := $(PEXT)
endif

CFLAGS_BASE := -std=gnu11 -pthread -Wall -Wextra -Wshadow -Wmissing-declarations -MMD -MP
ifeq ($(WERROR),1)
  CFLAGS_BASE += -Werror
endif
ifeq ($(DEBUG),1)
  OPT := -O1 -g
else
  OPT := -O3 -g -DNDEBUG
endif
ifneq ($(SANITIZE),)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=$(SANITIZE)
  ifneq ($(findstring undefined,$(SANITIZE)),)
    OPT += -fno-sanitize-recover=undefined
  endif
endif
ifeq ($(USE_PEXT),1)
  CFLAGS_BASE += -DUSE_PEXT -mbmi2
endif
# SPSA=1: the search's tunables (search/tunable_list.h) become variables
# that UCI options set, for chuhan spsa; the normal build compiles them in.
# TUNE=1, its old name, is still taken (scripts may use it); "tune" is the
# evaluation's Texel tuner's old name too, so the build has a name of its own.
ifeq ($(SPSA),1)
  CFLAGS_BASE += -DCHUHAN_SPSA
else ifneq ($(SPSA),0)
  $(error SPSA (or TUNE, its old name) must be 0 or 1, not '$(SPSA)')
endif

# Windows: C99 printf (%zu, %lld) from MinGW's own stdio, and the POSIX
# gmtime_r; the format checks, which take printf for Microsoft's, are the
# Linux build's job.  The main thread gets the 8 MB stack the search
# threads have (Windows gives 1 MB).
ifeq ($(TARGET),windows)
  CFLAGS_BASE += -D__USE_MINGW_ANSI_STDIO=1 -D_POSIX_THREAD_SAFE_FUNCTIONS -Wno-format
  LDFLAGS += -static -Wl,--stack,8388608
endif
ifeq ($(TARGET),linux-arm64)
  LDFLAGS += -static
endif
# The cross builds' libraries, built by the cross compiler (see deps).
ifneq ($(ZSTD_CROSS),)
  CFLAGS_BASE += -I$(ZSTD_CROSS)/include $(if $(CMOCKA_CROSS),-I$(CMOCKA_CROSS)/include)
endif

# TARGET=wasm: Debian's emscripten builds chuhan.js, chuhan.wasm and (the
# pthreads' own script) chuhan.worker.js, a Web Worker that speaks the
# protocols through postMessage (engine/web/start.js: lines in, lines out;
# engine/util/webinput_wasm.c: the protocol reads them as stdin).  The
# search threads are pthreads on shared memory, which a browser gives only
# to a cross-origin isolated page; main() runs on a pthread of its own
# (PROXY_TO_PTHREAD), so that the worker's thread stays free for messages.
# Elsewhere chuhan.js loads chuhan-single.js and chuhan-single.wasm, the
# same engine built without pthreads (WASM_SINGLE=1, a folder of its own,
# copied beside): its threads are fibers on the worker's one thread,
# switched cooperatively (engine/util/coop.h, over Asyncify), and Threads
# is 1.  Memory grows to 2 GB (Hash up to 1024 MB; Threads up to 32, each
# with its 8 MB stack).  zstd is compiled by emcc from Debian's source
# package (tests/windows/zstd.sh), the book and the net are in the .wasm
# (engine/util/embed.h).  emcc's own scripts need Debian's node modules.
WASM_SINGLE ?= 0
ENGINE_NAME := chuhan
ifeq ($(TARGET),wasm)
  export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
  WASM_LDFLAGS := -O3 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=8MB \
      -sENVIRONMENT=worker -sEXIT_RUNTIME=1 -sMODULARIZE=1 --extern-post-js engine/web/start.js \
      -sEXPORTED_FUNCTIONS=_main,_webinput_push,_malloc,_free -sEXPORTED_RUNTIME_METHODS=stringToUTF8,lengthBytesUTF8
  ifeq ($(WASM_SINGLE),1)
    ZSTD_CROSS := build/zstd-wasm-single
    ENGINE_NAME := chuhan-single
    CFLAGS_BASE := $(filter-out -pthread,$(CFLAGS_BASE)) -DCHUHAN_COOP -include engine/util/coop.h -DENGINE_THREADS_MAX=1
    WASM_LDFLAGS += -sEXPORT_NAME=ChuhanSingle -sASYNCIFY=1
  else
    ZSTD_CROSS := build/zstd-wasm
    ZSTD_CC_FLAGS := -pthread
    CFLAGS_BASE += -DENGINE_THREADS_MAX=32
    WASM_LDFLAGS += -sEXPORT_NAME=Chuhan -sPROXY_TO_PTHREAD -Wno-pthreads-mem-growth
    PLATFORM_OUT += engine/util/coop_wasm.c
  endif
  CFLAGS_BASE += -I$(ZSTD_CROSS)/include -DENGINE_HASH_MAX_MB=1024
  LDFLAGS += $(WASM_LDFLAGS)
endif

override CFLAGS := $(CFLAGS_BASE) $(ARCH_FLAGS) $(OPT) -I. $(EXTRA_CFLAGS)
LDFLAGS_ALL := $(if $(filter 1,$(WASM_SINGLE)),,-pthread) $(if $(SANITIZE),-fsanitize=$(SANITIZE)) $(LDFLAGS)
# MPI=1: engine/cluster/comm_mpi.c in place of engine/cluster/comm_none.c
# (the one file that knows MPI), compiled and linked with the flags of Open
# MPI's wrapper, read when first used: after `deps` has installed it.
MPI_CFLAGS = $(shell mpicc --showme:compile)
MPI_LIBS = $(if $(filter 1,$(MPI)),$(shell mpicc --showme:link))
# STATIC_ZSTD=1 (make dist): libzstd linked in, so that the binary needs
# only the C library on the machine it is copied to.
comma := ,
STATIC_ZSTD ?= 0
ZSTD_LIB := $(if $(filter 1,$(STATIC_ZSTD)),-Wl$(comma)-Bstatic -lzstd -Wl$(comma)-Bdynamic,-lzstd)
LIBS = $(if $(ZSTD_CROSS),$(ZSTD_CROSS)/lib/libzstd.a,$(ZSTD_LIB)) -lm $(MPI_LIBS)
CMOCKA_LIB := $(if $(CMOCKA_CROSS),$(CMOCKA_CROSS)/lib/libcmocka.a,-lcmocka)
ifeq ($(MPI),1)
  COMM_OUT := engine/cluster/comm_none.c
else ifeq ($(MPI),0)
  COMM_OUT := engine/cluster/comm_mpi.c
else
  $(error MPI must be 0 or 1, not '$(MPI)')
endif

# One build folder per configuration, so sanitizer and release objects never mix.
CONFIG := $(notdir $(firstword $(CC)))-$(ARCH)$(if $(filter 1,$(WASM_SINGLE)),-single)$(if $(filter 1,$(USE_PEXT)),-pext)$(if $(filter 1,$(MPI)),-mpi)$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))$(if $(filter 1,$(DEBUG)),-debug)$(if $(filter 1,$(SPSA)),-spsa)
# BUILD_TAG=name keeps a separate build folder (and leaves ./chuhan alone),
# for several builds of one tree at once.
BUILD_TAG ?=
BUILD := build/$(CONFIG)$(if $(BUILD_TAG),-$(BUILD_TAG))

SRC_DIRS := engine engine/util engine/board engine/rules engine/records engine/cluster engine/protocol engine/cli search eval eval/nnue book bench bench/tools
SRCS := $(filter-out $(COMM_OUT) $(PLATFORM_OUT),$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
MAIN_SRC := engine/cli/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/engine/cli/main.o
TEST_SRCS := $(wildcard tests/*.c)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)

ENGINE := $(BUILD)/$(ENGINE_NAME)$(EXE)
TESTS := $(BUILD)/chuhan-tests

.PHONY: all deps test check-layers bench bench-smp perft-full install clean
.DEFAULT_GOAL := all

# ./chuhan is replaced by a rename, never written in place: a GUI or a match
# may be running it ("Text file busy"); and only when it differs, so that a
# second make does nothing.
all: deps $(ENGINE)
ifeq ($(TARGET),wasm)
	@echo "$(ENGINE): the WebAssembly build$(if $(filter 1,$(WASM_SINGLE)),, (the .wasm, .worker.js and chuhan-single.js and .wasm beside it))"
else ifeq ($(SANITIZE)$(BUILD_TAG)$(filter 1,$(SPSA)),)
	@cmp -s $(ENGINE) $(ROOT_COPY) || { cp $(ENGINE) $(ROOT_COPY).new && mv -f $(ROOT_COPY).new $(ROOT_COPY) && \
	    echo "./$(ROOT_COPY): the $(ARCH) build$(if $(filter native,$(ARCH)),, (not the native one)), $(ENGINE)"; }
endif

# The cross builds: the compiler from Debian, libzstd (and, for the arm64
# tests, cmocka) compiled by it from Debian's source packages.
ifneq ($(ZSTD_CROSS),)
deps: $(ZSTD_CROSS)/lib/libzstd.a
$(ZSTD_CROSS)/lib/libzstd.a:
	@sh $(CROSS_DEPS) build
	sh tests/windows/zstd.sh $(ZSTD_CROSS) "$(strip $(CC) $(ZSTD_CC_FLAGS))" $(CROSS_AR)
else
deps:
	@MPI=$(MPI) sh tests/deps.sh
endif
# Under make -j the compilers wait for the libraries' headers; the tests'
# own library (cmocka) is installed only for them.
$(LIB_OBJS) $(MAIN_OBJ) $(TEST_OBJS): | deps
$(TEST_OBJS): | test-deps
.PHONY: test-deps
ifneq ($(CMOCKA_CROSS),)
test-deps: $(CMOCKA_CROSS)/lib/libcmocka.a
$(CMOCKA_CROSS)/lib/libcmocka.a: | deps
	sh tests/arm64/cmocka.sh $(CMOCKA_CROSS) $(CC) $(CROSS_AR)
else
test-deps:
	@TEST=1 MPI=$(MPI) sh tests/deps.sh
endif

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(OBJ_CFLAGS) -c $< -o $@
$(BUILD)/engine/cluster/comm_mpi.o: OBJ_CFLAGS = $(MPI_CFLAGS)

# The start-up check of the CPU (engine/util/cpu.c) is built for plain
# x86-64, whatever ARCH, so that it runs where the rest of the binary
# would die of an illegal instruction (off x86, for the compiler's
# default: the check is empty there).
CPU_MARCH = $(if $(filter x86_64-% i386-% i686-%,$(shell $(CC) -dumpmachine)),-march=x86-64)
$(BUILD)/engine/util/cpu.o: engine/util/cpu.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -mbmi2 -march=%,$(CFLAGS)) $(CPU_MARCH) -DCHUHAN_ARCH='"$(ARCH)"' -c $< -o $@

# The version `chuhan --version` and the protocols' id name give: the
# release in engine/init.h, then where the tree was built from: a tag
# v<release> at HEAD gives the release alone, otherwise +g<commit>
# (and .dirty with uncommitted changes); without git, the release.  Only
# engine/init.o is built again when it changes.
RELEASE := $(shell sed -n 's/^\#define CHUHAN_VERSION "\([^"]*\)".*/\1/p' engine/init.h)
GIT_HEAD := $(shell git rev-parse --short HEAD 2>/dev/null)
GIT_TAGGED := $(shell git describe --tags --exact-match --match 'v$(RELEASE)' 2>/dev/null)
GIT_DIRTY := $(shell git status --porcelain --untracked-files=no 2>/dev/null | head -1)
VERSION := $(RELEASE)$(if $(GIT_HEAD),$(if $(GIT_TAGGED),,+g$(GIT_HEAD))$(if $(GIT_DIRTY),.dirty))
TARGET_NAME := $(if $(filter windows,$(TARGET)),Windows,$(if $(filter wasm,$(TARGET)),WebAssembly,Linux))
$(BUILD)/version.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION) $(ARCH) $(TARGET_NAME)' | cmp -s - $@ || echo '$(VERSION) $(ARCH) $(TARGET_NAME)' >$@
$(BUILD)/engine/init.o: $(BUILD)/version.txt
$(BUILD)/engine/init.o: OBJ_CFLAGS = -DCHUHAN_BUILD='"$(VERSION)"' -DCHUHAN_BUILD_INFO='"$(ARCH), $(TARGET_NAME)"'
.PHONY: FORCE version engine-path
FORCE:
version:
	@echo $(VERSION)
engine-path:
	@echo $(ENGINE)

$(ENGINE): $(LIB_OBJS) $(MAIN_OBJ) $(if $(filter wasm,$(TARGET)),engine/web/start.js)
	$(CC) $(filter %.o,$^) -o $@ $(LDFLAGS_ALL) $(LIBS)

# The threads-less build, made in its own folder and copied beside chuhan.js,
# which loads it where the page is not isolated.
ifeq ($(TARGET)$(WASM_SINGLE),wasm0)
SINGLE_BUILD := build/$(subst -$(ARCH),-$(ARCH)-single,$(CONFIG))$(if $(BUILD_TAG),-$(BUILD_TAG))
all: $(BUILD)/chuhan-single.js
.PHONY: wasm-single
wasm-single:
	@$(MAKE) --no-print-directory TARGET=wasm WASM_SINGLE=1 BUILD_TAG=$(BUILD_TAG) $(SINGLE_BUILD)/chuhan-single.js
$(BUILD)/chuhan-single.js: wasm-single
	@mkdir -p $(BUILD)
	@cmp -s $(SINGLE_BUILD)/chuhan-single.wasm $(BUILD)/chuhan-single.wasm || cp $(SINGLE_BUILD)/chuhan-single.wasm $(BUILD)/
	@cmp -s $(SINGLE_BUILD)/chuhan-single.js $@ || cp $(SINGLE_BUILD)/chuhan-single.js $@
endif

$(TESTS): $(LIB_OBJS) $(TEST_OBJS)
	$(CC) $^ -o $@ $(LDFLAGS_ALL) $(LIBS) $(CMOCKA_LIB)

test: all $(TESTS) check-layers
	@TEST=1 MPI=$(MPI) sh tests/deps.sh
	CHUHAN_BIN=$(ENGINE) CHUHAN_DATA=tests/data $(TESTS)

# A folder is a layer and includes only the layers below it (the list is in
# the script; engine/README.md, The layers): it fails naming each include
# that climbs.
check-layers:
	@sh tests/check-layers.sh .

# The benchmark figures: move generation speed (perft 5 of the start
# position, bulk-counted), then the search bench, whose last line is its
# node count (the regression signature).  `make bench-smp` adds SMP scaling.
bench: all
	@./chuhan perft 5 | tail -3 | sed 's/^/perft(5) start position: /'
	./chuhan bench

bench-smp: all
	./chuhan smp 2

perft-full: all
	./chuhan perft --suite tests/data/perft.txt

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 chuhan $(DESTDIR)$(PREFIX)/bin/chuhan

clean:
	rm -rf build chuhan chuhan.exe chuhan-arm64

# ---- Built-in data ------------------------------------------------------------
# book/default_book.c embeds book/default.book and eval/weights.c embeds
# eval/weights.txt with .incbin (engine/util/embed.h): their objects depend on
# the files, so that a rebuilt book or new weights are built in again.
# `make default-book` rebuilds the book from the CCPD master games (CC BY 4.0,
# see README.md, License, and engine/records/README.md) with the engine
# built here.
BOOK_FLAGS ?= --max-ply 30 --min-games 3
$(BUILD)/book/default_book.o: book/default.book
$(BUILD)/eval/nnue/nnue_default.o: $(wildcard eval/nets/*.nnue)
$(BUILD)/eval/weights.o: eval/weights.txt
.PHONY: default-book
default-book: $(ENGINE)
	$(ENGINE) book build -o book/default.book $(BOOK_FLAGS) tests/data/ccpd-master-games.pgn.zst
# ------------------------------------------------------------------------------

# ---- The net (eval/nets/README.md) ------------------------------------------
# `make net-generation` (or `make net`): one generation of the net, end to
# end (bench/tools/net-generation.sh: data, training, gate), its data in the
# user's cache ($XDG_CACHE_HOME/chuhan, else ~/.cache/chuhan) or NET_ARGS'
# --data-dir; each step resumes where it stopped.
NET_ARGS ?=
.PHONY: net net-generation
net net-generation: all
	bash bench/tools/net-generation.sh --engine ./chuhan$(EXE) $(NET_ARGS)
# ------------------------------------------------------------------------------

# ---- Real-client test (tests/gui) --------------------------------------------
# `make test-gui`: XBoard under Xvfb plays a whole game of xiangqi between two
# copies of the engine built here, and the saved game is checked (finished,
# every move legal, no false claim); output in build/gui-test.  Installs
# xboard, xvfb and imagemagick with apt-get when missing; when they cannot be
# installed the script says "test-gui: SKIPPED" and exits 77 (.ci/run skips).
.PHONY: test-gui
test-gui: all
	CHUHAN_BIN=$(ENGINE) bash tests/gui/xboard-selfplay.sh
# ------------------------------------------------------------------------------

-include $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJS:.o=.d)

# ---- The cluster (make MPI=1, tests/mpi) ----------------------------------------
# `make test-mpi`: the MPI build (in its own folder; ./chuhan is left alone)
# under mpirun -np 2: the protocol tests, a match over two ranks, and ranks
# that die or hang (tests/mpi/cluster-test.sh; logs in build/mpi-test).
# Installs Open MPI when missing; when it cannot be installed it says
# "test-mpi: SKIPPED" and exits 77 (.ci/run skips).
.PHONY: test-mpi test-mpi-run
test-mpi:
	@MPI=1 sh tests/deps.sh || { echo "test-mpi: SKIPPED: Open MPI (libopenmpi-dev, openmpi-bin) cannot be installed"; exit 77; }
	@$(MAKE) --no-print-directory MPI=1 test-mpi-run
test-mpi-run: $(ENGINE) $(TESTS)
	bash tests/mpi/cluster-test.sh $(ENGINE) $(TESTS)
# ------------------------------------------------------------------------------

# ---- Windows (TARGET=windows, tests/windows) ------------------------------------
# `make test-windows`: chuhan.exe, the portable x86-64 Windows build (in its
# own folder; ./chuhan.exe is left alone), under Wine against the Linux build
# and test binary: the protocol tests, bench nodes equal, Big5/GBK records,
# refusals (tests/windows/test.sh; logs in build/windows-test).  Installs
# MinGW-w64 and Wine when missing; when they cannot be installed it says
# "test-windows: SKIPPED" and exits 77 (.ci/run skips).
WIN_BUILD := build/x86_64-w64-mingw32-gcc-posix-x86-64
.PHONY: test-windows
test-windows: all $(TESTS)
	@sh tests/windows/deps.sh test || { echo "test-windows: SKIPPED: MinGW-w64 or Wine cannot be installed"; exit 77; }
	@$(MAKE) --no-print-directory TARGET=windows ARCH=x86-64 BUILD_TAG= $(WIN_BUILD)/chuhan.exe
	bash tests/windows/test.sh $(WIN_BUILD)/chuhan.exe $(ENGINE) $(TESTS)
# ------------------------------------------------------------------------------

# ---- WebAssembly (TARGET=wasm, tests/wasm) ---------------------------------------
# `make test-wasm`: the WebAssembly build (in its own folder; ./chuhan is
# left alone) in headless Chromium, from a page served with the isolation
# headers and again without them (the single-thread build): a whole game
# against itself over UCI by postMessage, every move checked, stop during
# go infinite, UCCI and xboard, and bench nodes equal to the native
# build's (tests/wasm/test.sh; logs in build/wasm-test).  Installs
# emscripten and Chromium when missing; when they cannot be installed it
# says "test-wasm: SKIPPED" and exits 77 (.ci/run skips).
WASM_BUILD := build/emcc-wasm
.PHONY: test-wasm
test-wasm: all
	@sh tests/wasm/deps.sh test || { echo "test-wasm: SKIPPED: emscripten or Chromium cannot be installed"; exit 77; }
	@$(MAKE) --no-print-directory TARGET=wasm BUILD_TAG= all
	bash tests/wasm/test.sh $(WASM_BUILD) $(ENGINE)
# ------------------------------------------------------------------------------

# ---- ARM64 (TARGET=linux-arm64, tests/arm64) ------------------------------------
# `make test-arm64`: the static AArch64 build and its test suite (in their
# own folder; ./chuhan-arm64 is left alone) under QEMU's user mode, against
# the x86-64 build and test binary: perft exact, bench nodes equal, the
# arm64 suite's architecture-dependent groups, the protocol tests, a match
# of two arm64 engines (tests/arm64/test.sh; logs in build/arm64-test).
# Installs the cross compiler and qemu-user when missing; when they cannot
# be installed it says "test-arm64: SKIPPED" and exits 77 (.ci/run skips).
ARM64_BUILD := build/aarch64-linux-gnu-gcc-armv8-a
.PHONY: test-arm64
test-arm64: all $(TESTS)
	@sh tests/arm64/deps.sh test || { echo "test-arm64: SKIPPED: the AArch64 cross compiler or qemu-user cannot be installed"; exit 77; }
	@$(MAKE) --no-print-directory TARGET=linux-arm64 ARCH=armv8-a BUILD_TAG= $(ARM64_BUILD)/chuhan $(ARM64_BUILD)/chuhan-tests
	bash tests/arm64/test.sh $(ARM64_BUILD)/chuhan $(ARM64_BUILD)/chuhan-tests $(ENGINE) $(TESTS)
# ------------------------------------------------------------------------------

# ---- Release archives (tests/release) -------------------------------------------
# `make dist`: build/dist/chuhan-VERSION-{linux,windows}-x86-64[-bmi2].{tar.gz,zip}
# and chuhan-VERSION-linux-arm64.tar.gz, each a folder with the binary,
# README.md and LICENSE, and the WebAssembly npm package
# chuhan-wasm-VERSION.tgz (engine/web): six builds, the Linux ones in their own folders
# (BUILD_TAG=dist; ./chuhan is left alone), libzstd linked in.  `make
# test-dist` unpacks the portable Linux archive and runs it from another
# folder (the arm64 one under QEMU, the Windows ones under Wine when it is
# installed).
.PHONY: dist test-dist
dist:
	bash tests/release/dist.sh build/dist $(VERSION)
test-dist: dist
	bash tests/release/test.sh build/dist $(VERSION)
# ------------------------------------------------------------------------------

# ---- Hardening: fuzz targets (tests/fuzz) ------------------------------------
# `make fuzz`: one libFuzzer binary per target, build/fuzz-.../fuzz-<target>,
# built by clang with AddressSanitizer and UndefinedBehaviorSanitizer (clang
# and libFuzzer are installed with apt-get when missing: tests/fuzz/deps.sh).
# `make fuzz-smoke`: every target replays its seeds and regression inputs,
# then fuzzes for FUZZ_SECONDS (about a minute in all; CI).
# `make fuzz-long`: every target for FUZZ_RUNS executions (10 million),
# FUZZ_JOBS at a time, in a UBSan-only -O2 build (several times faster);
# then the default build replays each corpus, and a table sums up (hours
# on 2 cores: tests/README.md, Fuzzing).  One target by hand:
# tests/fuzz/run.sh long TARGET [RUNS].  The targets' code
# (FUZZ_TARGET_SRCS) is also linked into the test suite, which replays the
# same inputs without libFuzzer.
FUZZ_CC ?= clang
FUZZ_TARGETS := fen uci ucci cecp pgn book reader
FUZZ_SECONDS ?= 8
FUZZ_BASE := build/fuzz-$(notdir $(firstword $(FUZZ_CC)))-$(ARCH)$(if $(filter 1,$(USE_PEXT)),-pext)
FUZZ_BUILD := $(FUZZ_BASE)$(if $(BUILD_TAG),-$(BUILD_TAG))
FUZZ_RUNS ?= 10000000
FUZZ_JOBS ?= 2
# FUZZ_SANITIZE=undefined FUZZ_OPT=-O2 BUILD_TAG=fast: a build several times
# faster, for long runs whose corpus is then replayed by the default build.
FUZZ_SANITIZE ?= address,undefined
FUZZ_OPT ?= -O1
FUZZ_CFLAGS := $(CFLAGS_BASE) $(ARCH_FLAGS) $(FUZZ_OPT) -g -fno-omit-frame-pointer -fsanitize=$(FUZZ_SANITIZE) \
               -fno-sanitize-recover=undefined -I. $(EXTRA_CFLAGS)
FUZZ_TARGET_SRCS := tests/fuzz/targets.c tests/fuzz/reader.c
FUZZ_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_TARGET_SRCS:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/tests/fuzz/wrap.o
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)
.PHONY: fuzz fuzz-deps fuzz-smoke fuzz-long
.SECONDARY: $(FUZZ_OBJS)
fuzz: $(FUZZ_BINS)
$(FUZZ_OBJS) $(FUZZ_BINS): | fuzz-deps
fuzz-deps:
	@sh tests/fuzz/deps.sh $(FUZZ_CC)
	@CC=$(FUZZ_CC) sh tests/deps.sh
fuzz-smoke: fuzz
	sh tests/fuzz/run.sh smoke $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
# the slowest targets first, so that the jobs end together
# (the reader in a build whose lines end at 512 bytes: at the real 64 kB an
# input streams hundreds of kB, 50 times slower, through the same code)
fuzz-long: fuzz
	$(MAKE) fuzz FUZZ_SANITIZE=undefined FUZZ_OPT=-O2 BUILD_TAG=fast
	$(MAKE) $(FUZZ_BASE)-small/fuzz-reader FUZZ_SANITIZE=undefined FUZZ_OPT=-O2 BUILD_TAG=small \
	    EXTRA_CFLAGS=-DPROC_LINE_MAX=512
	sh tests/fuzz/run.sh campaign $(FUZZ_BASE)-fast $(FUZZ_BUILD) $(FUZZ_RUNS) $(FUZZ_JOBS) \
	    cecp pgn ucci book uci fen reader=$(FUZZ_BASE)-small
# Comparisons are traced (libFuzzer's hints for matching input bytes) only
# in the code that reads input; in the board, search and evaluation code
# they see no input byte and took three quarters of a FEN execution.
FUZZ_NO_CMP := engine/board/% engine/rules/rules search/% eval/%
$(FUZZ_NO_CMP:%=$(FUZZ_BUILD)/%.o): FUZZ_COV := -fno-sanitize-coverage=trace-cmp
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_COV) -c $< -o $@
$(FUZZ_BUILD)/book/default_book.o: book/default.book
$(FUZZ_BUILD)/eval/nnue/nnue_default.o: $(wildcard eval/nets/*.nnue)
$(FUZZ_BUILD)/eval/weights.o: eval/weights.txt
$(FUZZ_BUILD)/fuzz-%: tests/fuzz/libfuzzer.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_TARGET=fuzz_$* $^ -o $@ \
	    -Wl,--wrap=tt_resize,--wrap=tt_clear,--wrap=tt_free,--wrap=pool_new,--wrap=pool_free,--wrap=pool_resize,--wrap=pool_start,--wrap=engine_go,--wrap=search_clear,--wrap=book_load_default,--wrap=book_free,--wrap=nnue_load_default,--wrap=nnue_free,--wrap=pages_alloc,--wrap=pages_free \
	    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=pthread_create,--wrap=pthread_join -pthread $(LIBS)
# The test suite replays the seeds and regression inputs (tests/test_fuzz.c).
$(TESTS): $(FUZZ_TARGET_SRCS:%.c=$(BUILD)/%.o)
-include $(FUZZ_OBJS:.o=.d) $(FUZZ_TARGET_SRCS:%.c=$(BUILD)/%.d)
# ------------------------------------------------------------------------------

# ---- The SPSA build (make SPSA=1, chuhan spsa) ----------------------------------
# `make test-spsa`: the SPSA build (in its own folder; ./chuhan is left
# alone) and its tests: the tunables listed as options and set by them,
# refused out of range, a search that they change (tests/test_tunables.c,
# whose SPSA-build half only that build compiles), and the SPSA driver;
# then its bench, which at the defaults must be the normal build's.
# `make test-tune` is its old name.
SPSA_BUILD := build/$(CONFIG)$(if $(filter 1,$(SPSA)),,-spsa)$(if $(BUILD_TAG),-$(BUILD_TAG))
.PHONY: test-spsa test-tune
test-tune: test-spsa
test-spsa:
	@$(MAKE) --no-print-directory SPSA=1 $(SPSA_BUILD)/chuhan $(SPSA_BUILD)/chuhan-tests
	CHUHAN_BIN=$(SPSA_BUILD)/chuhan CHUHAN_DATA=tests/data $(SPSA_BUILD)/chuhan-tests --groups=tunables,spsa
	@want=$$(sed -n 's/^#define BENCH_NODES \([0-9]*\).*/\1/p' bench/bench.h); \
	got=$$($(SPSA_BUILD)/chuhan bench 2>&1 | sed -n 's/^Nodes searched *: *//p'); \
	if [ "$$got" = "$$want" ]; then echo "test-spsa: at its defaults the SPSA build's bench is $$got, the normal one's"; \
	else echo "test-spsa: the SPSA build's bench is '$$got', not BENCH_NODES $$want"; exit 1; fi
# ------------------------------------------------------------------------------
