# SPDX-License-Identifier: BSD-2-Clause
# ember - always-on eBPF profiler.  Chain: .bpf.c -> .bpf.o -> .skel.h -> .o -> binary.

OUTPUT ?= build
CC ?= cc
CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/;s/ppc64le/powerpc/;s/mips.*/mips/')
VMLINUX_H ?=
PREFIX ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0

ifneq ($(SANITIZE),)
OUTPUT := build/san
SANFLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -O1
endif

WARNFLAGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla \
	-Wwrite-strings -Wno-unused-parameter
ifeq ($(WERROR),1)
WARNFLAGS += -Werror
endif
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 $(WARNFLAGS) -fno-omit-frame-pointer $(SANFLAGS) \
	-DEMBER_VERSION='"$(VERSION)"' -I$(OUTPUT) -I. -D_GNU_SOURCE
override LDFLAGS += $(SANFLAGS)
LDLIBS := -lbpf -lelf -ldw -lz -llzma -liberty -lpthread -lm
# The ember CLI starts often on small inputs: elfutils and its compressors linked in, so the
# dynamic loader has less to map and relocate (--version: see tests/bench/bench-render.sh).
EMBER_LDLIBS := -Wl,-Bstatic -ldw -lelf -lz -llzma -lbz2 -Wl,-Bdynamic -lbpf \
	-liberty -lpthread -lm
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror=undef -I$(OUTPUT) -I.

# Packages the build and the tests need (Debian names).
BUILD_PKGS := gcc clang llvm libbpf-dev bpftool libelf-dev libdw-dev libdebuginfod-dev zlib1g-dev liblzma-dev libbz2-dev \
	libiberty-dev pkg-config make
TEST_PKGS := g++ bpftrace libcap2-bin linux-perf libxml2-utils chromium golang-go perl gzip util-linux python3 man-db groff-base systemd time libc6-dbg libjemalloc2 \
	debuginfod clang-format xz-utils binutils curl libclang-rt-dev

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
# One static library per module folder, listed so that each depends only on those after it.
MODULES := cli daemon daemon/config daemon/collect symbolize render collapse lib
lib_name = $(OUTPUT)/lib$(subst /,-,$(1)).a
LIBS := $(foreach m,$(MODULES),$(call lib_name,$(m)))
MAINS := daemon/main.c cli/ember.c
module_objs = $(patsubst %.c,$(OUTPUT)/%.o,$(filter-out $(MAINS),$(wildcard $(1)/*.c)))
ALL_HEADERS := $(wildcard bpf/*.h $(addsuffix /*.h,$(MODULES)))
UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_*.c))
# Inputs that once crashed a fuzzer, replayed as unit tests (tests/fuzz/replay.c).
UNIT_TESTS += $(patsubst tests/fuzz/crashers/%,$(OUTPUT)/tests/test_replay_%,$(wildcard tests/fuzz/crashers/*))
WORKLOADS := $(patsubst tests/workloads/%.c,$(OUTPUT)/workloads/%,$(wildcard tests/workloads/*.c))
FUZZERS := $(patsubst tests/fuzz/%.c,$(OUTPUT)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
BENCH_TOOLS := $(patsubst tests/bench/%.c,$(OUTPUT)/bench/%,$(wildcard tests/bench/*.c))

.PHONY: all run test test-unit test-golden test-integration bench fuzz install uninstall clean \
	deps deps-test format check-format sanitize regen-golden regen-config
.DELETE_ON_ERROR:
.SECONDARY:

all: deps $(OUTPUT)/emberd $(OUTPUT)/ember

# Install missing build packages when root; otherwise say what to run.
deps:
	@tests/deps.sh $(BUILD_PKGS)

deps-test:
	@tests/deps.sh $(BUILD_PKGS) $(TEST_PKGS)

$(OUTPUT) $(OUTPUT)/bpf $(addprefix $(OUTPUT)/,$(MODULES)) $(OUTPUT)/tests $(OUTPUT)/workloads \
$(OUTPUT)/fuzz $(OUTPUT)/bench:
	$(Q)mkdir -p $@

ifeq ($(VMLINUX_H),)
$(OUTPUT)/vmlinux.h: | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@
else
$(OUTPUT)/vmlinux.h: $(VMLINUX_H) | $(OUTPUT)
	$(Q)cp $< $@
endif

$(OUTPUT)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(OUTPUT)/vmlinux.h | $(OUTPUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(OUTPUT)/%.skel.h: $(OUTPUT)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# Only the collectors include BPF skeletons; render/ embeds its script.
$(OUTPUT)/%.o: %.c $(ALL_HEADERS) render/flamegraph.js | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -c $< -o $@

$(call module_objs,daemon/collect): $(SKELS)

$(foreach m,$(MODULES),$(eval $(call lib_name,$(m)): $(call module_objs,$(m))))
$(OUTPUT)/lib%.a: | $(OUTPUT)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(if $^,ar rcs $@ $^,printf '!<arch>\n' > $@)

$(OUTPUT)/emberd: $(OUTPUT)/daemon/main.o $(LIBS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(OUTPUT)/ember: $(OUTPUT)/cli/ember.o $(LIBS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(EMBER_LDLIBS) -o $@

# Unit tests: one binary per module, linked against every library.
$(OUTPUT)/tests/%: tests/unit/%.c tests/unit/harness.h $(LIBS) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< $(LIBS) $(LDLIBS) -o $@

$(OUTPUT)/tests/test_replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_input.h \
		$(wildcard tests/fuzz/crashers/%/*) $(LIBS) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< tests/fuzz/replay.c $(LIBS) $(LDLIBS) -o $@

# Benchmark drivers that call the daemon's modules directly.
$(OUTPUT)/bench/%: tests/bench/%.c $(LIBS) | $(OUTPUT)/bench
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< $(LIBS) $(LDLIBS) -o $@

# Symbolizer fixtures: binaries of known layout (PIE, non-PIE, stripped with debug files, C++).
SYM_FIXTURES := $(wildcard tests/fixtures/sym/*)
$(OUTPUT)/fixtures/sym/stamp: $(SYM_FIXTURES)
	$(call msg,FIXTURE,$(@D))
	$(Q)CLANG=$(CLANG) tests/fixtures/sym/build.sh $(abspath tests/fixtures/sym) $(abspath $(@D))

$(OUTPUT)/tests/test_symbolize $(OUTPUT)/tests/test_elfsyms $(OUTPUT)/tests/test_debuginfod: $(OUTPUT)/fixtures/sym/stamp
$(OUTPUT)/tests/test_addr2line: $(OUTPUT)/workloads/inlined

# Unwind-table fixtures: plain gcc -O2, as distributions build (tests/fixtures/cfi/build.sh).
$(OUTPUT)/fixtures/cfi/stamp: $(wildcard tests/fixtures/cfi/*)
	$(call msg,FIXTURE,$(@D))
	$(Q)tests/fixtures/cfi/build.sh $(abspath tests/fixtures/cfi) $(abspath $(@D))

$(OUTPUT)/tests/test_cfi: $(OUTPUT)/fixtures/cfi/stamp

# Test workloads keep every frame: clang, frame pointers, no sibling calls.
$(OUTPUT)/workloads/%: tests/workloads/%.c | $(OUTPUT)/workloads
	$(call msg,CC,$@)
	$(Q)$(CLANG) -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-inline \
		$< -o $@ -lpthread -lm

# ...except nofp*: built as distributions build, gcc -O2 and no frame pointers (t140, t150).
$(OUTPUT)/workloads/nofp $(OUTPUT)/workloads/nofp_offcpu: $(OUTPUT)/workloads/%: tests/workloads/%.c \
		| $(OUTPUT)/workloads
	$(call msg,CC,$@)
	$(Q)gcc -O2 -g -fomit-frame-pointer $< -o $@ -lpthread

# memshare (t151) the same way, its C++ part by g++; -fno-builtin keeps every malloc/free pair.
$(OUTPUT)/workloads/memshare: $(wildcard tests/workloads/memshare*) | $(OUTPUT)/workloads
	$(call msg,CC,$@)
	$(Q)g++ -O2 -fno-builtin -fomit-frame-pointer -x c tests/workloads/memshare.c -x c++ \
		tests/workloads/memshare_new.cc -o $@

# Fuzz targets: built with libFuzzer and sanitizers from the modules that need no BPF.
FUZZ_SRCS := $(wildcard lib/*.c collapse/*.c render/*.c symbolize/*.c)
$(OUTPUT)/fuzz/%: tests/fuzz/%.c $(wildcard tests/fuzz/*.h) $(FUZZ_SRCS) $(ALL_HEADERS) | $(OUTPUT)/fuzz
	$(call msg,FUZZ,$@)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I. -I$(OUTPUT) -D_GNU_SOURCE $< $(FUZZ_SRCS) -o $@ $(LDLIBS)

# Stack fuzzer seeds: the head of every golden capture and folded file.
STACK_SEEDS := $(wildcard tests/golden/collapse/*.txt* tests/golden/collapse/expected/*.folded)
$(OUTPUT)/fixtures/stacks/stamp: $(STACK_SEEDS)
	$(call msg,FIXTURE,$(@D))
	$(Q)mkdir -p $(@D) && for f in $(STACK_SEEDS); do \
		zcat -f "$$f" | head -c 16384 >"$(@D)/$$(basename "$$f" .gz)"; done && touch $@

run: all
	$(OUTPUT)/emberd -o profiles $(ARGS)

test: deps-test all test-build
	@tests/run.sh $(OUTPUT)

test-build: $(OUTPUT)/emberd $(OUTPUT)/ember $(UNIT_TESTS) $(WORKLOADS)

test-unit: deps $(UNIT_TESTS)
	@tests/run.sh --unit-only $(OUTPUT)

bench: deps-test all $(WORKLOADS) $(BENCH_TOOLS)
	@tests/bench/run.sh $(OUTPUT)

fuzz: deps-test $(FUZZERS) $(OUTPUT)/fixtures/sym/stamp $(OUTPUT)/fixtures/stacks/stamp \
		$(OUTPUT)/fixtures/cfi/stamp
	@tests/fuzz/run.sh $(OUTPUT) $(FUZZ_SECONDS)

# The shipped configuration file is printed from the option table (tests/golden/run-config.sh checks it).
regen-config: $(OUTPUT)/emberd
	$(OUTPUT)/emberd --print-config -o /var/lib/ember > config/emberd.conf

sanitize:
	$(MAKE) SANITIZE=address,undefined test-unit

SBINDIR := $(PREFIX)/sbin
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
DOCDIR := $(PREFIX)/share/doc/ember
SYSCONFDIR ?= /etc
UNITDIR ?= /lib/systemd/system

# Installed files are not world-readable: the config may name processes, the archives reveal them.
install: all
	install -d -m 0755 $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -d -m 0750 $(DESTDIR)$(SYSCONFDIR)/ember $(DESTDIR)/var/lib/ember
	install -m 0755 $(OUTPUT)/emberd $(DESTDIR)$(SBINDIR)/emberd
	install -m 0755 $(OUTPUT)/ember $(DESTDIR)$(BINDIR)/ember
	install -m 0640 config/emberd.conf $(DESTDIR)$(SYSCONFDIR)/ember/emberd.conf
	sed 's|@SBINDIR@|$(SBINDIR)|g; s|@SYSCONFDIR@|$(SYSCONFDIR)|g' systemd/emberd.service.in \
		> $(DESTDIR)$(UNITDIR)/emberd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/emberd.service
	install -m 0644 man/ember.1 $(DESTDIR)$(MANDIR)/man1/ember.1
	install -m 0644 man/emberd.conf.5 $(DESTDIR)$(MANDIR)/man5/emberd.conf.5
	install -m 0644 man/emberd.8 $(DESTDIR)$(MANDIR)/man8/emberd.8
	install -d -m 0755 $(DESTDIR)$(DOCDIR)
	install -m 0644 systemd/metrics-tcp.conf $(DESTDIR)$(DOCDIR)/metrics-tcp.conf
	install -m 0644 systemd/debuginfod.conf $(DESTDIR)$(DOCDIR)/debuginfod.conf

# The configuration and the archives stay: they are the user's data.
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/emberd $(DESTDIR)$(BINDIR)/ember \
		$(DESTDIR)$(UNITDIR)/emberd.service $(DESTDIR)$(MANDIR)/man1/ember.1 \
		$(DESTDIR)$(MANDIR)/man5/emberd.conf.5 $(DESTDIR)$(MANDIR)/man8/emberd.8 \
		$(DESTDIR)$(DOCDIR)/metrics-tcp.conf $(DESTDIR)$(DOCDIR)/debuginfod.conf

FORMAT_SRCS = $(wildcard bpf/*.c bpf/*.h $(addsuffix /*.c,$(MODULES)) $(addsuffix /*.h,$(MODULES)) \
	tests/unit/*.c tests/unit/*.h tests/workloads/*.c tests/workloads/*.h tests/workloads/*.cc \
	tests/fuzz/*.c tests/bench/*.c)
format:
	clang-format -i $(FORMAT_SRCS)

check-format: deps-test
	clang-format --dry-run -Werror $(FORMAT_SRCS)

clean:
	rm -rf build
