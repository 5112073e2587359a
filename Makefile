# SPDX-License-Identifier: GPL-2.0
#
# edge: an emulated event-driven GPU front end.
#
#   make          build edge.ko, the tools and the selftests
#   make run      boot the guest, load edge.ko, run the demo
#                 (KERNEL=6.1|6.12: which Debian kernel, default 6.12)
#   make check    the whole test suite, the kselftests on both stock
#                 kernels (6.1, 6.12) and the debug kernel; ends with
#                 "N passed, N failed"
#                 (it checks the fast path's instruction counts against
#                 tools/bench-host/ceiling.txt)
#   make check-debug  only its debug-kernel part: the kselftests, fault
#                 injection and the guest fuzzer under KASAN, lockdep and
#                 kmemleak (the debug kernel is built into .cache/ first)
#   make bench    benchmarks in the guest (with bench-host's time mode,
#                 tcg_ lines), then bench-host (host_ lines); output in
#                 Documentation/results/
#   make bench-netrx  only make bench's tools/vm/netrx-bench.sh (edge_netrx:
#                 ICMP, UDP echo and MemC against the CPU), one boot; lines
#                 in build/bench-netrx.out; BENCH_ENV="NAME=VALUE ..." sets
#                 its knobs (NETRX_BENCH_PARTS=memc, NETRX_MEMC_KEYS=...)
#   make bench-host  the front end's fast path on the host: callgrind
#                 instructions per event (idle, busy, 1-64 entries, 1-1024
#                 in flight), the same path's ns per event and its
#                 consume's (bench-host time), two threads against a raw
#                 SPSC ring, and the cost of cancelling a GPU-filling kernel
#   make repro-edge  the EDGE reproduction set with edge-sim (host, virtual
#                 time); CSVs, plots and headline ratios in
#                 Documentation/results/edge/
#   make repro-lax   the LAX reproduction (8 workloads x 3 rates x 14
#                 policies) with edge-sim; tables, plots and headline in
#                 Documentation/results/lax/
#   make repro    every reproduction, all at once (REPRO_SERIAL=1: in
#                 turn), then Documentation/results/README.rst (each
#                 paper's headline beside ours); prints each one's wall
#                 and CPU seconds, repro_cpu_seconds and repro_seconds
#   make repro-NAME REPRO_SMOKE=1 [RESULTS=DIR]  a short run of one, into
#                 DIR (default build/repro-smoke/NAME); tools/vm/repro-smoke.sh
#                 runs each so.  make check runs each in full into
#                 build/repro-check/ and compares its CSVs with the
#                 committed ones (tools/vm/repro-check.sh)
#   make mutate   one-line mutants of the model and the policies
#                 (tools/mutants.txt), each in a scratch copy against
#                 make host-tests and the reproductions; prints
#                 mutants_caught=N/M (tools/mutate.sh)
#   make lint     checkpatch --strict; the module build and sparse against
#                 both kernels (tools/vm/kmod.sh: build/kmod-SERIES); the
#                 netlink spec against the kernel's genetlink-legacy.yaml schema
#                 and uapi/linux/edge_netlink.h against the YNL generator's
#   make nlspec-gen  uapi/linux/edge_netlink.h from the spec (the kernel's
#                 ynl-gen-c.py --mode uapi)
#   make fuzz     the libFuzzer targets of emul/: make check's fixed
#                 runs, or FUZZ_SECONDS=S each (selftests/fuzz/README)
#   make deps     install the Debian packages the rest needs
#   make shell [EXTRA=DIR] [CMD='...']  the guest with edge.ko,
#                 edge_nicsim.ko and edge_netrx.ko loaded and the tools on
#                 PATH: a busybox shell on this terminal (exit powers
#                 off), or CMD run, printed, and its exit status make's;
#                 EXTRA=DIR is copied in as /edge/extra, on PATH
#   make check T=NAME  only kselftest suite NAME (edge_jobs_test, or
#                 jobs), in one stock guest (tools/vm/check-suite.sh)
#   make install PREFIX=DIR  libedge: libedge.so.1, libedge.a, headers,
#                 edge.pc and man pages (tools/libedge/Makefile)
#
# Everything fetched (the Debian kernels and headers, kselftest headers,
# checkpatch, linux-source-6.12's YNL tools and specs) lives in .cache/;
# nothing is installed into /boot.
#
# KERNEL=6.1|6.12 picks the stock kernel that make, make run and make
# bench build for and boot: Debian 12's 6.1 or the 6.12 LTS (Debian 13's;
# Debian 12's security archive), default the newest.  make check and make
# lint take both.

CACHE	?= $(CURDIR)/.cache
# The scripts under tools/vm read it too (make CACHE=DIR: a private cache).
export CACHE
BUILD	:= $(CURDIR)/build
VM	:= $(CURDIR)/tools/vm
KSFT	:= $(CACHE)/ksft
KERNELS	:= 6.1 6.12
KERNEL	?= 6.12
ifeq ($(filter $(KERNEL),$(KERNELS)),)
$(error KERNEL=$(KERNEL): the supported kernels are $(KERNELS))
endif
KENV	:= $(CACHE)/kernel-$(KERNEL).env
# Read the fetched kernel's paths when they exist (after `make kernel`):
# KV, and KDIR and VMLINUX relative to the cache, made absolute here (a
# copied cache builds against its own headers, tools/vm/fetch-kernel.sh).
-include $(KENV)
KDIR	:= $(if $(KDIR),$(CACHE)/$(KDIR))
VMLINUX	:= $(if $(VMLINUX),$(CACHE)/$(VMLINUX))

CC	?= gcc
UCFLAGS	:= -O2 -g -Wall -Wextra -I$(CURDIR)/uapi -I$(CURDIR)/tools/libedge
ULDFLAGS := -static -pthread
LIBEDGE	:= tools/libedge/libedge.c tools/libedge/libedge.h

GUEST_TIMEOUT ?= 900

# The reproductions: one per tools/edge-sim/repro-NAME.sh, so a new one
# is a new script there, and make check runs and compares it (print-repros).
REPROS := $(patsubst tools/edge-sim/repro-%.sh,%,$(wildcard tools/edge-sim/repro-*.sh))
REPRO_TARGETS := $(addprefix repro-,$(REPROS))

.PHONY: all deps kernel ynl netmods ksft module tools selftests host-tests run check \
	bench bench-netrx memcached bench-host lint sim repro $(REPRO_TARGETS) print-repros fuzz clean FORCE \
	debug-kernel check-debug mutate nlspec-gen libedge install libedge-pc oot-sample shell shell-test

all: module tools selftests sim libedge libedge-pc oot-sample

deps:
	@$(VM)/deps.sh

$(KENV): | deps
	$(VM)/fetch-kernel.sh $(CACHE) $(KERNEL)

$(KSFT)/kselftest_harness.h: | deps
	$(VM)/fetch-linux-source.sh $(CACHE)

kernel: $(KENV)

# linux-source-6.12's netlink tooling, for the spec checks: tools/net/ynl
# and Documentation/netlink/genetlink*.yaml under $(YNL_SRC).
YNL_SRC	:= $(CACHE)/linux-source-6.12
ynl: | deps
	@$(VM)/fetch-linux-source.sh $(CACHE) 6.12

# Debian's veth.ko for edge_netrx's guest network (only that module).
netmods: $(KENV)
	@$(VM)/fetch-netmods.sh $(CACHE) $(KERNEL)
# Debian's memcached for make bench's MemC comparison (unpacked, not installed).
memcached: | deps
	@$(VM)/fetch-memcached.sh $(CACHE)
ksft: $(KSFT)/kselftest_harness.h

# Kbuild is re-read with KDIR from the env file, so read it in the recipe.
module: $(KENV)
	. $(KENV) && $(MAKE) -C $(CACHE)/$$KDIR M=$(CURDIR) modules

$(BUILD)/%/.dir:
	@mkdir -p $(dir $@) && touch $@

tools: $(BUILD)/guest/edge-demo $(BUILD)/guest/edge-bench $(BUILD)/guest/edgectl \
	$(BUILD)/guest/netrx $(BUILD)/guest/bench-host $(BUILD)/man/edgectl.8

# edgectl(8) from Documentation/edgectl.rst (rst2man: python3-docutils).
$(BUILD)/man/edgectl.8: Documentation/edgectl.rst
	@mkdir -p $(dir $@)
	rst2man --halt=warning $< $@

$(BUILD)/guest/edge-demo: tools/edge-demo/edge-demo.c $(LIBEDGE) uapi/linux/edge.h | $(BUILD)/guest/.dir
	$(CC) $(UCFLAGS) -o $@ $< tools/libedge/libedge.c $(ULDFLAGS)

$(BUILD)/guest/edge-bench: tools/edge-bench/edge-bench.c $(LIBEDGE) uapi/linux/edge.h \
		uapi/linux/edge_netlink.h selftests/edge/edge_nl.h | $(BUILD)/guest/.dir
	$(CC) $(UCFLAGS) -o $@ $< tools/libedge/libedge.c $(ULDFLAGS) -lm

# bench-host for the guest (make bench: its time mode, the model's path
# under TCG); its own Makefile knows what it is built from.
$(BUILD)/guest/bench-host: FORCE | $(BUILD)/guest/.dir
	@$(MAKE) -s -C tools/bench-host O=$(BUILD)/guest EXTRA_LDFLAGS=-static

FORCE:

# edge_netrx.ko's guest helper: libnl-route-3 makes the veth pair.
NLRCFLAGS = $(shell pkg-config --cflags libnl-route-3.0)
NLRLIBS = $(shell pkg-config --static --libs libnl-route-3.0)
$(BUILD)/guest/netrx: tools/netrx/netrx.c $(LIBEDGE) uapi/linux/edge.h | $(BUILD)/guest/.dir
	$(CC) $(UCFLAGS) $(NLRCFLAGS) -o $@ $< tools/libedge/libedge.c -static -pthread $(NLRLIBS) 2>&1 | \
		{ grep -v -e 'statically linked applications' -e 'in function' || true; }
	@test -x $@

# libnl-genl-3 linked statically, so that it runs in the guest; its
# getaddrinfo() link warning is about code edgectl never calls.
NLCFLAGS = $(shell pkg-config --cflags libnl-genl-3.0)
NLLIBS = $(shell pkg-config --static --libs libnl-genl-3.0)
$(BUILD)/guest/edgectl: tools/edgectl/edgectl.c uapi/linux/edge_netlink.h \
		tools/include/edge_nearest.h | $(BUILD)/guest/.dir
	$(CC) $(UCFLAGS) -Itools/include -Wno-unused-parameter $(NLCFLAGS) -o $@ $< -static $(NLLIBS) 2>&1 | \
		{ grep -v -e 'statically linked applications' -e 'in function' || true; }
	@test -x $@

selftests: ksft
	$(MAKE) -C selftests/edge KSFT_DIR=$(KSFT) O=$(BUILD)/guest/selftests

sim:
	$(MAKE) -C tools/edge-sim O=$(BUILD)/host

# deps brings gnuplot for the plots.  RESULTS, when given, is made
# absolute here, where a relative one means something.
$(REPRO_TARGETS): repro-%: deps
	$(MAKE) -C tools/edge-sim O=$(BUILD)/host $@ \
		$(if $(RESULTS),RESULTS=$(abspath $(RESULTS)))

print-repros:
	@echo $(REPROS)

# The five papers' order first, then any other reproduction.
REPRO_ORDER := $(filter $(REPROS),edge lax srtf claius mgb) \
	$(filter-out edge lax srtf claius mgb,$(REPROS))
repro: deps
	$(MAKE) -s -C tools/edge-sim O=$(BUILD)/host
	@EDGE_SIM=$(BUILD)/host/edge-sim tools/edge-sim/run-repros.sh $(REPRO_ORDER)

host-tests: ksft
	$(MAKE) -C selftests/emul KSFT_DIR=$(KSFT) O=$(BUILD)/host run

# Not in make check: tens of minutes on 2 cores (Documentation/testing.rst).
mutate: ksft
	@KSFT_DIR=$(KSFT) tools/mutate.sh $(MUTANTS)

fuzz: deps
	$(MAKE) -C selftests/fuzz O=$(BUILD)/host/fuzz run

run: deps all netmods
	@$(VM)/payload.sh $(BUILD)/payload-demo $(BUILD)
	@$(VM)/run-guest.sh --kernel $(VMLINUX) --payload $(BUILD)/payload-demo \
		--mode demo --timeout $(GUEST_TIMEOUT) --out $(BUILD)/demo --stream

# Not the tree's module build: tools/vm/check.sh builds one per kernel
# (tools/vm/kmod.sh, the out-of-tree sample too) and fetches both
# kernels' guest modules.  T=NAME: that suite only (check.sh hands it to
# tools/vm/check-suite.sh, on the kernel KERNEL= picks).
check: export KERNEL := $(KERNEL)
# check.sh makes CHECK_PREREQS itself, after it has started the debug
# kernel's build (the longest part), which needs only deps.
CHECK_PREREQS := ynl tools selftests sim libedge libedge-pc
check: export CHECK_PREREQS := $(CHECK_PREREQS)
check: deps
	@$(VM)/check.sh

# libedge as a library: libedge.so.1, libedge.a, edge.pc, man pages.
LIBEDGE_O := $(BUILD)/libedge
PREFIX ?= /usr/local
libedge:
	@$(MAKE) -s -C tools/libedge O=$(LIBEDGE_O)

install: libedge
	$(MAKE) -C tools/libedge O=$(LIBEDGE_O) PREFIX=$(PREFIX) install

# The libedge(7) example against a libedge installed into a scratch prefix
# through pkg-config, for the guest (selftests/edge/edge_libedge_pc_test.sh).
libedge-pc: $(BUILD)/guest/libedge-pc/run-shared
$(BUILD)/guest/libedge-pc/run-shared: tools/libedge/libedge.c tools/libedge/libedge.h \
		tools/libedge/libedge.map tools/libedge/edge.pc.in tools/libedge/Makefile \
		tools/libedge/pc-test.sh uapi/linux/edge.h $(wildcard Documentation/libedge/*.rst)
	@tools/libedge/pc-test.sh $(BUILD)/guest/libedge-pc

# The out-of-tree sample, built as its author would (samples/edge_oot/
# Makefile, Documentation/driver-api.rst): a copy of it outside the
# tree's Kbuild, against this tree's headers and Module.symvers.
# Only when it or what it builds against changed: a Kbuild pass costs
# 10 s on a loaded machine.
OOT := $(BUILD)/oot-sample
oot-sample: module
	@$(MAKE) -s $(OOT)/edge_oot_sample.ko

$(OOT)/edge_oot_sample.ko: samples/edge_oot/edge_oot_sample.c samples/edge_oot/Makefile \
		Module.symvers drv/edge_kapi.h uapi/linux/edge.h $(KENV)
	@mkdir -p $(OOT) && cp samples/edge_oot/edge_oot_sample.c samples/edge_oot/Makefile $(OOT)/
	$(MAKE) -C $(OOT) KDIR=$(KDIR) EDGE=$(CURDIR)

# make shell CMD=...'s test: output and exit status, one short boot.
shell-test:
	@$(VM)/shell-test.sh CACHE=$(CACHE)

# CMD and EXTRA reach tools/vm/shell.sh through the environment; CMD as
# typed ($(value): make expands no $ in it).
shell: export EDGE_SHELL_CMD := $(value CMD)
shell: export EDGE_SHELL_EXTRA := $(if $(EXTRA),$(abspath $(EXTRA)))
# SHELL_KO=DIR: the modules of tools/vm/kmod.sh's DIR (make check's, for
# the kernel KERNEL= picks) instead of the tree's, which are then not built.
shell: deps $(if $(SHELL_KO),tools,all) netmods
	@$(VM)/shell.sh --kernel $(VMLINUX) $(if $(filter command line,$(origin CMD)),--cmd-env) \
		$(if $(EXTRA),--extra-env) $(if $(SHELL_KO),--ko $(SHELL_KO))

debug-kernel: deps
	@$(VM)/debug-kernel/build.sh $(CACHE)

check-debug: deps all
	@$(VM)/check-debug.sh $(BUILD)

# tools/vm/netrx-bench.sh's lines (edge_netrx: event kernels against the
# CPU, MemC against Debian's memcached) and tools/vm/router-bench.sh's
# (edge_router against the kernel's forwarding).
NETRX_KEYS := netrx|stack|busy|memc|memcached|router|kernel_fwd
bench: deps all netmods memcached
	@PAYLOAD_MEMCACHED=1 $(VM)/payload.sh $(BUILD)/payload-bench $(BUILD)
	@$(VM)/run-guest.sh --kernel $(VMLINUX) --payload $(BUILD)/payload-bench \
		--mode bench --timeout $(GUEST_TIMEOUT) --out $(BUILD)/bench --stream \
		| tee $(BUILD)/bench.out
	@# host_: the guest's own events_per_s keeps its name.
	@$(MAKE) -s -C tools/bench-host O=$(BUILD)/host run | sed 's/^/host_/' \
		| tee -a $(BUILD)/bench.out
	@mkdir -p Documentation/results
	@grep -E '^[a-z0-9_]+=' $(BUILD)/bench.out | grep -v -E '^(kapi|$(NETRX_KEYS))_' \
		> Documentation/results/spine-bench.txt
	@grep -E '^[a-z0-9_]+=' $(BUILD)/bench.out | grep -v -E '^($(NETRX_KEYS))_' \
		> Documentation/results/kapi-bench.txt
	@grep -E '^($(NETRX_KEYS))_[a-z0-9_]+=' $(BUILD)/bench.out \
		> Documentation/results/netrx-bench.txt
	@echo "kept in Documentation/results/spine-bench.txt, kapi-bench.txt and netrx-bench.txt"

# netrx-bench.sh alone (one boot, the same payload as make bench's): its
# lines in $(BUILD)/bench-netrx.out, Documentation/results left as they are.
bench-netrx: deps all netmods memcached
	@PAYLOAD_MEMCACHED=1 $(VM)/payload.sh $(BUILD)/payload-bench $(BUILD)
	@$(VM)/run-guest.sh --kernel $(VMLINUX) --payload $(BUILD)/payload-bench \
		--mode netrx-bench --timeout $(GUEST_TIMEOUT) --out $(BUILD)/bench-netrx \
		$(if $(BENCH_ENV),--append "$(BENCH_ENV)") --stream | tee $(BUILD)/bench-netrx.out

bench-host:
	@$(MAKE) -s -C tools/bench-host O=$(BUILD)/host run

lint: deps ksft ynl
	@mkdir -p $(BUILD) && tools/lint.sh

# uapi/linux/edge_netlink.h from the spec, by the kernel's YNL generator in
# uapi mode (tools/nlspec-gen.sh); make lint fails when the committed one
# differs.
nlspec-gen: ynl
	tools/nlspec-gen.sh $(YNL_SRC) >$(BUILD)/edge_netlink.h.new
	mv $(BUILD)/edge_netlink.h.new uapi/linux/edge_netlink.h

# Not Kbuild's M= clean: it recurses through .cache/ and would wipe the
# debug kernel's build tree there.
clean:
	rm -f edge.ko edge.mod edge.mod.c edge.mod.o edge.o Module.symvers \
		modules.order .edge*.cmd .Module.symvers.cmd .modules.order.cmd
	rm -f edge_nicsim.ko edge_nicsim.mod edge_nicsim.mod.c edge_nicsim.mod.o \
		edge_nicsim.o
	rm -f edge_netrx.ko edge_netrx.mod edge_netrx.mod.c edge_netrx.mod.o \
		edge_netrx.o
	rm -f edge_router.ko edge_router.mod edge_router.mod.c edge_router.mod.o \
		edge_router.o
	rm -f edge_nfhook.ko edge_nfhook.mod edge_nfhook.mod.c edge_nfhook.mod.o \
		edge_nfhook.o
	rm -f drv/*.o drv/.*.cmd drv/nicsim/*.o drv/nicsim/.*.cmd \
		drv/netrx/*.o drv/netrx/.*.cmd drv/router/*.o drv/router/.*.cmd \
		drv/test/*.o drv/test/.*.cmd
	find emul \( -name '*.o' -o -name '.*.cmd' -o -name '*.o.d' \) -delete
	rm -rf $(BUILD)
