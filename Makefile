# SPDX-License-Identifier: MIT
# iops: one static binary (musl, libaio, liburing). Non-recursive; everything lands in $(BUILD)/.
# The two commands a user needs: `./make.sh run` (main job) and `./make.sh check` (all tests);
# make.sh installs make itself first when it is missing (as root), then runs `make GOAL`.
# Every entry point first runs `deps` (once), which installs the Debian packages it needs when
# run as root, or prints the exact apt-get command otherwise. `make V=1` shows the commands.

VERSION     := 0.1.0
# Objects build in parallel, a job per CPU, unless make was given -j; the test suites of a
# recipe (check's) still run one after the other.
ifeq ($(filter -j%,$(MAKEFLAGS))$(filter-out 0,$(MAKELEVEL)),)
MAKEFLAGS   += -j$(shell nproc 2>/dev/null || echo 1)
endif
.DEFAULT_GOAL := all
BUILD       := build
IMAGE       ?= localhost/iops

# --- architectures: ARCH=amd64 or arm64 (Debian's names), this machine's by default ----------------
# The same sources and flags for every architecture. This machine's builds in $(BUILD)/; another's
# (`make ARCH=arm64`: build/arm64/iops) in $(BUILD)/$(ARCH)/, with Debian's cross gcc, that
# architecture's musl (its musl-gcc.specs), libaio.a and liburing.a (dpkg multiarch), and its Check
# for the unit tests, which run under qemu-user (tests/arm64/run.sh). ARCHS: what `make image` builds.
ARCHS       := amd64 arm64
ARCH_SET    := $(filter command line environment override,$(origin ARCH))
NATIVE_ARCH := $(or $(shell dpkg --print-architecture 2>/dev/null),$(patsubst x86_64,amd64,$(patsubst aarch64,arm64,$(shell uname -m))))
ARCH        ?= $(NATIVE_ARCH)
ifeq ($(filter $(ARCH),$(ARCHS)),)
$(error ARCH=$(ARCH): one of $(ARCHS))
endif
triple_amd64 := x86_64-linux-gnu
triple_arm64 := aarch64-linux-gnu
# The Debian packages of a cross build for architecture A (its unit tests add check:A).
pkgs_cross  = gcc-$(subst _,-,$(triple_$(1))) musl-dev:$(1) libaio-dev:$(1) liburing-dev:$(1) zlib1g-dev:$(1)
BUILD_ROOT  := $(BUILD)
ifneq ($(ARCH),$(NATIVE_ARCH))
override BUILD := $(BUILD)/$(ARCH)
TRIPLE      := $(triple_$(ARCH))
MUSL_CC     := $(TRIPLE)-gcc -specs /usr/lib/$(TRIPLE:-gnu=-musl)/musl-gcc.specs
HOST_CC     := $(TRIPLE)-gcc
STRIP       := $(TRIPLE)-strip
MULTIARCH   := $(TRIPLE)
PKG_CONFIG  := PKG_CONFIG_LIBDIR=/usr/lib/$(TRIPLE)/pkgconfig:/usr/share/pkgconfig pkg-config
endif
MUSL_CC     ?= musl-gcc
HOST_CC     ?= gcc
STRIP       ?= strip
PKG_CONFIG  ?= pkg-config
ifeq ($(origin MULTIARCH),undefined)
MULTIARCH   := $(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
endif
SYSLIB      := /usr/lib/$(MULTIARCH)

# --- Debian packages, per entry point ---------------------------------------------------------------
# deps checks only what the goals on the command line need (`make` does not pull in podman);
# `make deps` alone, and `make check`, take the whole list. DEPS_FOR overrides the goal list
# (the root Containerfile uses `./make.sh DEPS_FOR=rootfs ARCH=... deps`).
PKGS_BUILD  := gcc musl-tools libaio-dev liburing-dev zlib1g-dev
PKGS_UNIT   := gcc libc6-dev pkg-config check libaio-dev liburing-dev zlib1g-dev
PKGS_E2E    := fio ioping bc jq strace python3 python3-pandas python3-prometheus-client libfuse3-dev fuse3 libxml2-utils chromium
PKGS_BENCH  := time util-linux
PKGS_IMAGE  := podman
PKGS_CTEST  := podman runc file python3-yaml
PKGS_FUZZ   := clang
PKGS_SHOTS  := pngquant
DEB_PKGS    := $(sort $(PKGS_BUILD) $(PKGS_UNIT) $(PKGS_E2E) $(PKGS_BENCH) $(PKGS_IMAGE) $(PKGS_CTEST) $(PKGS_FUZZ) $(PKGS_SHOTS) valgrind)
# The other architectures (arm64 here): cross builds for `make image`, and their tests under
# qemu-user for `make check` and `make check-arm64`. Packages of another architecture (name:arm64)
# need `dpkg --add-architecture`, which deps does (make.sh's apt-get line leaves them out).
EMU_ARCHS   := $(filter-out $(NATIVE_ARCH),$(ARCHS))
cross_pkgs  := $(foreach a,$(EMU_ARCHS),$(call pkgs_cross,$(a)))
emu_pkgs    := $(cross_pkgs) $(foreach a,$(EMU_ARCHS),check:$(a)) qemu-user-static

pkgs_all            := $(PKGS_BUILD)
pkgs_run            := $(PKGS_BUILD)
pkgs_rootfs         := $(PKGS_BUILD)
pkgs_bench          := $(PKGS_BUILD) $(PKGS_E2E) $(PKGS_BENCH)
pkgs_conformance    := $(PKGS_BUILD) python3 python3-scipy python3-six
pkgs_mutation       := $(PKGS_BUILD) $(PKGS_UNIT) $(PKGS_E2E)
pkgs_unit           := $(PKGS_UNIT)
pkgs_e2e            := $(PKGS_BUILD) $(PKGS_E2E)
pkgs_screenshots    := $(PKGS_BUILD) $(PKGS_E2E) $(PKGS_SHOTS)
pkgs_san            := $(PKGS_UNIT) $(PKGS_E2E)
pkgs_fuzz           := $(PKGS_BUILD) $(PKGS_FUZZ)
pkgs_fuzz-bins      := $(PKGS_BUILD) $(PKGS_FUZZ)
pkgs_check-valgrind := $(PKGS_UNIT) valgrind
pkgs_image          := $(PKGS_BUILD) $(PKGS_IMAGE) $(if $(ARCH_SET),,$(cross_pkgs))
pkgs_container-test := $(PKGS_BUILD) $(PKGS_CTEST)
pkgs_check          := $(DEB_PKGS) $(emu_pkgs)
pkgs_check-arm64    := $(PKGS_BUILD) $(PKGS_UNIT) $(PKGS_E2E) $(PKGS_CTEST) $(emu_pkgs)
pkgs_emu-bins       := $(PKGS_BUILD) $(PKGS_UNIT) $(emu_pkgs)
pkgs_image-source   := $(PKGS_IMAGE) debootstrap qemu-user-static
pkgs_deps           := $(DEB_PKGS) $(emu_pkgs)
pkgs_clean          := none
DEPS_FOR    ?= $(or $(MAKECMDGOALS),all)
# A goal not listed above (a file such as build/iops) gets the build and unit packages. A build
# for another architecture (ARCH=arm64) adds its cross toolchain, and for its tests its Check.
DEPS_PKGS   := $(filter-out none,$(sort $(foreach g,$(DEPS_FOR),$(or $(pkgs_$(g)),$(PKGS_BUILD) $(PKGS_UNIT))) \
               $(if $(TRIPLE),$(call pkgs_cross,$(ARCH)) $(if $(filter unit check%,$(DEPS_FOR)),check:$(ARCH) qemu-user-static))))

WARN        := -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes \
               -Wmissing-prototypes -Wformat=2 -Wundef
ifeq ($(CI),true)
WARN        += -Werror
endif
CFLAGS      ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -DIOPS_VERSION='"$(VERSION)"' $(WARN) -MMD -MP -Ilib -Icmd

ifeq ($(V),1)
Q :=
else
Q := @
endif
# $(call say,TAG,WHAT): the one-line progress message of a quiet rule.
say = @$(if $(Q),printf '  %-7s %s\n' '$(1)' '$(2)')

# lib/ is one folder per layer or subsystem (ARCHITECTURE.md); sources are found by wildcard.
LIB_DIRS    := lib/core lib/sys lib/engine lib/fio lib/fio/offset lib/fio/data lib/fio/log lib/fio/file lib/fio/control lib/fio/progress lib/fio/run lib/fio/conf lib/fio/report lib/ioping lib/suite lib/merge lib/remote lib/k8s lib/plot lib/compare
LIB_SRCS    := $(sort $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c)))
CMD_SRCS    := $(sort $(wildcard cmd/*.c))
# Unit tests mirror lib/: tests/unit/<folder>/check_<module>.c, one suite per module.
UNIT_SRCS   := tests/unit/check_main.c $(sort $(foreach d,$(LIB_DIRS),$(wildcard tests/$(d:lib/%=unit/%)/check_*.c)))
UNIT_SUITES := $(filter-out main,$(patsubst check_%.c,%,$(notdir $(UNIT_SRCS))))

# --- static musl build -----------------------------------------------------------------------------
MUSL_INC    := $(BUILD)/include
# What musl-gcc sees of /usr/include (symlinks in MUSL_INC; never the whole of it: glibc's
# headers break musl). A change here rewrites the flags file, which remakes the links.
MUSL_HDRS   := libaio.h liburing.h liburing linux asm-generic zlib.h zconf.h
MUSL_OBJS   := $(patsubst %.c,$(BUILD)/musl/%.o,$(LIB_SRCS) $(CMD_SRCS))
# -isystem: warnings in the kernel, libaio and liburing headers are not ours (and -Werror in CI).
# No unwind tables: C needs none, and gdb uses the .debug_frame of -g. A static executable is not
# position-independent (-fno-pie); -flto lets the linker inline across files and drop what is
# unused. Every file is built with CFLAGS (-O2): measured 2026-12-03 against the build that had
# only the I/O path at -O2 and the rest at -Oz (CPU of the whole run, median of 7 pairs): null
# engine 4k randread QD1 1.00, randwrite QD32 batch 8 0.87 (the -Oz build was 1.15 x slower).
MUSL_CFLAGS := $(BASE_CFLAGS) $(CFLAGS) -isystem $(MUSL_INC) -ffunction-sections -fdata-sections \
               -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-pie -flto=auto
MUSL_LDFLAGS:= -static -no-pie -Wl,--gc-sections
# zlib (log_store_compressed, --inflate-log) is Debian's libz.a, which links against musl.
MUSL_LIBS   := $(SYSLIB)/liburing.a $(SYSLIB)/libaio.a $(SYSLIB)/libz.a -lm -lpthread

# --- host (glibc) builds for unit tests and sanitizers --------------------------------------------
HOST_OBJS   := $(patsubst %.c,$(BUILD)/host/%.o,$(LIB_SRCS))
SAN_OBJS    := $(patsubst %.c,$(BUILD)/san/%.o,$(LIB_SRCS) $(CMD_SRCS))
SAN_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# Recursively expanded on purpose: pkg-config and check may be installed by `deps` during this
# very run, and a recipe is expanded only when it is about to run, after its prerequisites.
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check)
CHECK_LIBS   = $(shell $(PKG_CONFIG) --libs check)
HOST_LIBS   := -luring -laio -lz -lm -lpthread

# --- libFuzzer harnesses (tests/fuzz/fuzz_<target>.c): clang, over lib/ built with the same flags ----
# proto's decoder is fuzzed where lib/remote/proto.c exists. The dictionaries of the fio targets
# are made from build/iops' own option list (--cmdhelp=all).
FUZZ_CC     ?= clang
FUZZ_SECONDS ?= 600
FUZZ_CHECK_SECONDS ?= 5
FUZZ_TARGETS := fio_args jobfile ioping_args jsonr sweep_conf compare k8s $(if $(wildcard lib/remote/proto.c),proto)
FUZZ_FLAGS  := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# gcc's warnings police the code (-Werror in CI); clang's differ, and they do not fail this build.
FUZZ_CFLAGS := $(filter-out -Werror,$(BASE_CFLAGS)) -Wno-format-nonliteral -Wno-float-conversion $(FUZZ_FLAGS)
FUZZ_LIB    := $(BUILD)/fuzz/libiops.a
FUZZ_OBJS   := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(sort $(LIB_SRCS) $(wildcard lib/remote/proto.c)) cmd/fio_args.c cmd/fio_help.c)
FUZZ_BINS   := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))

$(BUILD)/fuzz/obj/%.o: %.c $(FLAGS_FILE) | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (fuzz))
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_LIB): $(filter $(BUILD)/fuzz/obj/lib/%,$(FUZZ_OBJS))
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/fuzz_fio_args: $(BUILD)/fuzz/obj/cmd/fio_args.o $(BUILD)/fuzz/obj/cmd/fio_help.o
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(FUZZ_LIB) $(FLAGS_FILE)
	$(call say,LD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Wno-missing-prototypes -fsanitize=fuzzer -o $@ $< \
	  $(filter %.o,$^) $(FUZZ_LIB) $(HOST_LIBS)

$(BUILD)/fuzz/fio.dict: $(BUILD)/iops
	$(Q)$< fio --cmdhelp=all | sed -n 's/^\([a-z0-9_]*\) *:.*/"\1="/p' > $@.tmp && mv $@.tmp $@

# --- the container image's root: /usr/bin/iops (stripped) and the links fio, ioping -------------------
IMAGE_DIR   := $(BUILD)/image
ROOTFS_TAR  := $(IMAGE_DIR)/rootfs.tar
# Fixed timestamps in the tarball: the same binary gives the same image layer.
TAR_MTIME   := $(or $(SOURCE_DATE_EPOCH),0)

# Objects depend on the flags they were built with: $(FLAGS_FILE) is rewritten when the compilers
# or flags change (an edit here, `make CFLAGS=-O0`), so nothing stale is linked.
FLAGS_FILE  := $(BUILD)/.flags
FLAGS_NOW   := $(MUSL_CC) $(MUSL_CFLAGS) $(MUSL_LDFLAGS) $(MUSL_HDRS) $(MUSL_LIBS) | $(HOST_CC) $(BASE_CFLAGS) $(CFLAGS) | $(SAN_FLAGS)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
ifneq ($(file <$(FLAGS_FILE)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE),$(FLAGS_NOW))
endif
endif
# ... and written again if `make clean all` removed it after the check above.
$(FLAGS_FILE):
	@mkdir -p $(dir $@)
	$(file >$@,$(FLAGS_NOW))

# Test runners, shared by their own targets and by `check` (which runs them all, then fails).
RUN_UNIT    = $(BUILD)/check_unit
RUN_E2E     = tests/e2e/run.sh $(BUILD)/iops
# make check's share of `make san` (docs/development.md, "Sanitizers and valgrind"): the unit suites of the parsers, the
# reports and the I/O loop in one process (CK_FORK=no: LeakSanitizer's check at the exit of
# every forked test is what makes the whole unit run slow), and two end-to-end scripts (option
# errors, and small jobs through the I/O loop to their reports), under ASan/UBSan.
SAN_UNIT_SUBSET := parse jsonr json num2str opt opt_apply opt_apply_aio jobfile fioconf offgen runner report \
                   out_json out_normal unified ioping_opts proto addr hosts
SAN_E2E_SUBSET  := t_fio_errors t_fio_exitall
RUN_CTEST   = VERSION=$(VERSION) tests/container/run.sh $(BUILD)

.PHONY: all deps run check lint conformance fidelity unit e2e container-test image rootfs san check-valgrind fuzz fuzz-bins bench mutation screenshots clean \
        relink emu-bins emu-bins-arch check-arm64 image-source
all: $(BUILD)/iops

# deps: install the missing Debian packages as root, otherwise print the exact command.
deps:
	@pkgs="$(DEPS_PKGS)"; \
	if ! command -v dpkg-query >/dev/null 2>&1; then \
	  echo "deps: not a Debian system; make sure the equivalents of these Debian packages are installed: $$pkgs" >&2; \
	  exit 0; \
	fi; \
	missing=""; \
	for p in $$pkgs; do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] && exit 0; \
	archs=""; \
	for a in $$(printf '%s\n' $$missing | sed -n 's/.*://p' | sort -u); do \
	  dpkg --print-foreign-architectures | grep -qx "$$a" || archs="$$archs $$a"; \
	done; \
	if [ "$$(id -u)" != 0 ]; then \
	  echo "deps: missing Debian packages:$$missing" >&2; \
	  echo "deps: install them as root, then run the same command again:" >&2; \
	  sudo=""; command -v sudo >/dev/null 2>&1 && sudo="sudo "; \
	  add=""; for a in $$archs; do add="$$add$${sudo}dpkg --add-architecture $$a && "; done; \
	  if [ -n "$$sudo" ]; \
	  then echo "  $${add}sudo apt-get update && sudo apt-get install -y$$missing" >&2; \
	  else echo "  su -c '$${add}apt-get update && apt-get install -y$$missing'" >&2; fi; \
	  exit 1; \
	fi; \
	for a in $$archs; do echo "deps: dpkg --add-architecture $$a"; dpkg --add-architecture "$$a" || exit 1; done; \
	echo "deps: installing$$missing"; \
	log=$$(mktemp); \
	if DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -q >"$$log" 2>&1 && \
	   DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q$$missing </dev/null >>"$$log" 2>&1; \
	then rm -f "$$log"; \
	else tail -n 30 "$$log" >&2; rm -f "$$log"; \
	  echo "deps: apt-get failed; install by hand: apt-get update && apt-get install -y$$missing" >&2; exit 1; \
	fi

$(MUSL_INC)/.stamp: $(FLAGS_FILE) | deps
	$(Q)mkdir -p $(MUSL_INC)
	$(Q)for h in $(MUSL_HDRS); do ln -sfn /usr/include/$$h $(MUSL_INC)/$$h; done
	$(Q)ln -sfn /usr/include/$(MULTIARCH)/asm $(MUSL_INC)/asm
	$(Q)touch $@

$(BUILD)/musl/%.o: %.c $(MUSL_INC)/.stamp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -c $< -o $@

$(BUILD)/iops: $(MUSL_OBJS)
	$(call say,LD,$@)
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) $(MUSL_LDFLAGS) -o $@ $(MUSL_OBJS) $(MUSL_LIBS)

# The image gets a stripped copy; build/iops keeps its symbols for debugging.
$(BUILD)/iops.stripped: $(BUILD)/iops
	$(call say,STRIP,$@)
	$(Q)$(STRIP) --strip-all -o $@.tmp $< && mv $@.tmp $@

# One binary, three names: fio and ioping are symlinks, so the image holds the binary once. Beside
# it, in usr/share/doc/iops/, the licence notices of what is linked into it (docker/notices.sh).
$(ROOTFS_TAR): $(BUILD)/iops.stripped LICENSE docker/notices.sh
	$(call say,TAR,$@)
	$(Q)rm -rf $(IMAGE_DIR)/root && mkdir -p $(IMAGE_DIR)/root/usr/bin
	$(Q)install -m 0755 $< $(IMAGE_DIR)/root/usr/bin/iops
	$(Q)ln -s iops $(IMAGE_DIR)/root/usr/bin/fio && ln -s iops $(IMAGE_DIR)/root/usr/bin/ioping
	$(Q)docker/notices.sh $(ARCH) $(IMAGE_DIR)/root/usr/share/doc/iops $(MUSL_LIBS)
	$(Q)tar --sort=name --mtime=@$(TAR_MTIME) --owner=0 --group=0 --numeric-owner \
	  -C $(IMAGE_DIR)/root -cf $@.tmp usr && mv $@.tmp $@

$(BUILD)/host/%.o: %.c $(FLAGS_FILE) | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (host))
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/san/%.o: %.c $(FLAGS_FILE) | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (san))
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(SAN_FLAGS) -c $< -o $@

# The unit runner's suite list is generated from the file names: check_foo.c defines foo_suite().
$(BUILD)/unit/suites.h: $(UNIT_SRCS) Makefile
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' $(foreach s,$(UNIT_SUITES),"SUITE($(s))") > $@.tmp && mv $@.tmp $@

# Test sources: conversions are loose in Check macros, and each suite function is declared by
# check_main.c (through the generated suites.h), not in its own file. tests/unit holds the
# helpers the suites share (runner_testjob.h, report_fixtures.h, ...).
UNIT_CFLAGS  = -Wno-conversion -Wno-missing-prototypes -I$(BUILD)/unit -Itests/unit $(CHECK_CFLAGS)
$(BUILD)/unit/%.o: tests/unit/%.c $(BUILD)/unit/suites.h $(FLAGS_FILE) | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (unit))
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(CFLAGS) $(UNIT_CFLAGS) -c $< -o $@

$(BUILD)/unit-san/%.o: tests/unit/%.c $(BUILD)/unit/suites.h $(FLAGS_FILE) | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (unit san))
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(SAN_FLAGS) $(UNIT_CFLAGS) -c $< -o $@

UNIT_OBJS     := $(patsubst tests/unit/%.c,$(BUILD)/unit/%.o,$(UNIT_SRCS))
UNIT_SAN_OBJS := $(patsubst tests/unit/%.c,$(BUILD)/unit-san/%.o,$(UNIT_SRCS))

$(BUILD)/check_unit: $(UNIT_OBJS) $(HOST_OBJS)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) -o $@ $^ $(CHECK_LIBS) $(HOST_LIBS)

$(BUILD)/check_unit_san: $(UNIT_SAN_OBJS) $(filter $(BUILD)/san/lib/%,$(SAN_OBJS))
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $@ $^ $(CHECK_LIBS) $(HOST_LIBS)

# The fault-injecting FUSE file system of tests/e2e/t_faults.sh: a test tool, never part of iops.
$(BUILD)/faultfs: tests/faults/faultfs.c | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (test tool))
	$(Q)$(HOST_CC) $(BASE_CFLAGS) -Wno-missing-prototypes $(CFLAGS) $$(pkg-config --cflags fuse3) -o $@ $< $$(pkg-config --libs fuse3)

# Test tools of tests/tools/ (seccomp_fail: a command with chosen system calls refused; probe:
# what the kernel offers, asked without iops' code): never part of iops.
TEST_TOOLS  := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(wildcard tests/tools/*.c))
TOOL_LIBS_probe := -luring
$(BUILD)/tools/%: tests/tools/%.c $(FLAGS_FILE) | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<  (test tool))
	$(Q)$(HOST_CC) $(BASE_CFLAGS) -Wno-missing-prototypes $(CFLAGS) -o $@ $< $(TOOL_LIBS_$*)

# A glibc + sanitizer build of the whole binary, driven by the same end-to-end tests.
$(BUILD)/iops-san: $(SAN_OBJS)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $@ $^ $(HOST_LIBS)

# --- user-facing targets ---------------------------------------------------------------------------
# The main job: until the presets exist, ioping's 20 requests against ./data (made if missing).
run: $(BUILD)/iops
	@mkdir -p data
	$(BUILD)/iops quick data

# The house rules of ARCHITECTURE.md: layers, include cycles, banned functions, file length.
lint: $(BUILD)/iops
	$(Q)LINT_OBJS=$(BUILD)/musl tests/lint.sh

unit: $(BUILD)/check_unit
	$(Q)$(RUN_UNIT)

e2e: $(BUILD)/iops $(BUILD)/faultfs $(TEST_TOOLS)
	$(Q)$(RUN_E2E)

container-test: $(ROOTFS_TAR)
	$(Q)$(RUN_CTEST)

# All the suites (the sanitizer subset and the fuzz targets briefly too) run even if one fails,
# so every closing line is printed; then fail.
check: $(BUILD)/check_unit $(BUILD)/iops $(BUILD)/faultfs $(TEST_TOOLS) $(ROOTFS_TAR) $(BUILD)/check_unit_san \
       $(BUILD)/iops-san emu-bins
	$(Q)rc=0; \
	LINT_OBJS=$(BUILD)/musl tests/lint.sh || rc=1; \
	$(RUN_UNIT) || rc=1; \
	$(RUN_E2E) || rc=1; \
	$(RUN_CTEST) || rc=1; \
	VERSION=$(VERSION) tests/arm64/run.sh $(EMU_BUILD) || rc=1; \
	if CK_FORK=no UNIT_SUITES="$(SAN_UNIT_SUBSET)" $(BUILD)/check_unit_san; then echo "unit (san subset): passed"; \
	else rc=1; echo "unit (san subset): FAILED"; fi; \
	IOPS_SAN=1 E2E_ONLY="$(SAN_E2E_SUBSET)" E2E_LABEL="e2e (san subset)" tests/e2e/run.sh $(BUILD)/iops-san || rc=1; \
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS) || rc=1; \
	exit $$rc

rootfs: $(ROOTFS_TAR)

# The images, FROM scratch around the stripped binary, with podman (or docker where podman is not):
# one per architecture, and IMAGE an OCI image index of them (IMAGE:amd64, IMAGE:arm64; a tagged
# IMAGE=reg/iops:0.1.0 gives reg/iops:0.1.0-amd64, ...). ARCH=amd64|arm64: that one, as IMAGE.
IMAGE_ARCHS := $(if $(ARCH_SET),$(ARCH),$(ARCHS))
arch_build   = $(if $(filter $(1),$(NATIVE_ARCH)),$(BUILD_ROOT),$(BUILD_ROOT)/$(1))
image: $(addprefix rootfs-,$(IMAGE_ARCHS))
	$(Q)VERSION=$(VERSION) tests/container/build-image.sh $(IMAGE) \
	  $(foreach a,$(IMAGE_ARCHS),$(a)=$(call arch_build,$(a))/image)

# The root Containerfile, built from source for each architecture against a Debian 12 base made
# with debootstrap (tests/container/source-build.sh): minutes, so not part of check.
image-source: | deps
	$(Q)tests/container/source-build.sh $(BUILD_ROOT) $(IMAGE_ARCHS)

# rootfs-ARCH: that architecture's image root (a make of its own: its BUILD, compilers and flags).
rootfs-%: | deps
	$(Q)$(MAKE) --no-print-directory ARCH=$* rootfs

# LGPL-2.1 (libaio): build/iops linked again from the same object files with another libaio.a
# (docs/containers.md, "Licences"). `make image` then packs the relinked binary.
relink: $(MUSL_OBJS)
	@[ -f "$(LIBAIO)" ] || { echo "relink: give LIBAIO=/path/to/libaio.a (a static libaio for $(ARCH))" >&2; exit 1; }
	$(call say,LD,$(BUILD)/iops  (libaio: $(LIBAIO)))
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) $(MUSL_LDFLAGS) -o $(BUILD)/iops $(MUSL_OBJS) $(patsubst %/libaio.a,$(LIBAIO),$(MUSL_LIBS))

# --- the other architecture, under qemu-user (tests/arm64/run.sh, docs/containers.md) --------------
# make check runs its share (CHECK_ARM64: the unit suite, a few end-to-end scripts, the container
# test's seed cases); check-arm64 runs it all (every end-to-end script that compares with fio or
# ioping on the engines qemu-user runs). Both build build/arm64/ with a make of its own.
EMU_BUILD   := $(BUILD_ROOT)/arm64
emu-bins: | deps
	$(Q)$(if $(filter arm64,$(NATIVE_ARCH)),:,$(MAKE) --no-print-directory ARCH=arm64 emu-bins-arch)
emu-bins-arch: $(BUILD)/iops $(BUILD)/check_unit $(ROOTFS_TAR)
check-arm64: emu-bins $(BUILD)/iops
	$(Q)VERSION=$(VERSION) tests/arm64/run.sh --all $(EMU_BUILD)

# Both halves run even if the first fails. The unit suites in one process (CK_FORK=no: 71 s,
# where LeakSanitizer's check at the exit of every forked test took over 70 min).
san: $(BUILD)/check_unit_san $(BUILD)/iops-san $(BUILD)/faultfs $(TEST_TOOLS)
	$(Q)rc=0; \
	CK_FORK=no $(BUILD)/check_unit_san || rc=1; \
	IOPS_SAN=1 tests/e2e/run.sh $(BUILD)/iops-san || rc=1; \
	exit $$rc

# The unit tests of the host build under valgrind, in one process (CK_FORK=no), not part of
# check (docs/development.md, "Sanitizers and valgrind"). VALGRIND_SKIP: suites left out, each for the reason beside it.
# The engine suites fork on purpose (a seccomp filter, a submit-pressure scenario in a child
# that _exit()s holding its copy of the parent's heap): --child-silent-after-fork, or each
# child would report the parent's live memory as its leaks. A child's own leak still turns its
# exit status into --error-exitcode's 1: the children free what they allocate before exit(0).
VALGRIND_SKIP :=
check-valgrind: $(BUILD)/check_unit
	$(Q)CK_FORK=no UNIT_SUITES="$(filter-out $(VALGRIND_SKIP),$(UNIT_SUITES))" \
	  valgrind -q --error-exitcode=1 --leak-check=full --child-silent-after-fork=yes \
	  $(BUILD)/check_unit

# Every fuzz target for FUZZ_SECONDS, FUZZ_JOBS at a time (default: one per CPU); a finding fails (its input is kept in
# $(BUILD)/fuzz/findings/). deps installs clang as root; without it: SKIP.
fuzz: deps
	$(Q)if command -v $(FUZZ_CC) >/dev/null 2>&1; then $(MAKE) --no-print-directory fuzz-bins && \
	  tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS); \
	else echo "fuzz: SKIP ($(FUZZ_CC) not found: apt-get install clang)"; fi

fuzz-bins: $(FUZZ_BINS) $(BUILD)/fuzz/fio.dict

# fio 3.33's own test suite against build/iops as fio (not part of check: ~5 min; see docs/development.md).
conformance: $(BUILD)/iops
	$(Q)tests/conformance/run.sh $(BUILD)/iops

# Differential option parsing against fio 3.33, the full set (not part of check: 19 min on 2
# CPUs, measured 2026-12-06; make check runs 6,000 values of it in t_fio_optdiff).
# OPTDIFF_SEED, OPTDIFF_COUNT choose the set.
fidelity: $(BUILD)/iops
	$(Q)python3 tests/fidelity/optdiff.py --seed $(or $(OPTDIFF_SEED),1) --count $(or $(OPTDIFF_COUNT),100000) --progress \
	  --iops $(BUILD)/iops --report $(BUILD)/fidelity/disagreements.json

bench: $(BUILD)/iops
	$(Q)tests/bench/run.sh $(BUILD)/iops

# The pictures of docs/plot.md and the README: t_plot's real runs, each chart's screenshot in
# headless Chromium, into docs/img/ (not part of check: the PNGs are committed).
screenshots: $(BUILD)/iops deps
	$(Q)PLOT_SHOTS=$(CURDIR)/docs/img E2E_ONLY="t_plot t_compare" tests/e2e/run.sh $(BUILD)/iops

# Mutation tests (not part of check: one fresh build per mutation, ~15 min): every patch in
# tests/mutations/ must make its caught-by test fail. Runs on the committed tree (HEAD).
mutation: deps
	$(Q)tests/mutations/run.sh

clean:
	rm -rf $(BUILD)

-include $(TEST_TOOLS:=.d) $(MUSL_OBJS:.o=.d) $(HOST_OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(UNIT_SAN_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d)
