#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The arm64 build's tests, under qemu-user on this amd64 machine (docs/containers.md, "arm64"):
#
#   tests/arm64/run.sh [--all] ARM64_BUILD_DIR      (make check: the share; make check-arm64: --all)
#
# ARM64_BUILD_DIR (build/arm64) holds iops, check_unit and image/rootfs.tar, made by `make
# ARCH=arm64 ...`. First the emulator: qemu-user-static's qemu-aarch64 must be registered with
# binfmt_misc (with its F flag, so that containers find it too); as root this registers it when it
# is not (mounting binfmt_misc if needed), otherwise, or where that fails (a container without
# binfmt_misc), every part is skipped with the reason. Then three parts, each with its own runner
# and closing line:
#   unit       the whole unit suite (build/arm64/check_unit); checks skip, with the reason, what
#              the emulator lacks (probed: tests/unit/unit_probe.h)
#   e2e        end-to-end scripts with the arm64 iops against the host's fio and ioping, on the
#              engines qemu-user runs (psync, sync, pvsync, mmap, null): E2E_SHARE in make check,
#              E2E_ALL with --all
#   container  the image for linux/arm64 with `podman run --platform linux/arm64`: the seed's three
#              commands, the stop on SIGTERM, the quick suite through its psync fallback (the
#              share); every case of tests/container/run.sh with --all
# Closing lines: each part's, then "arm64: N passed, N failed, N skipped" (parts); exit 1 if any
# failed.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
all=
[ "${1:-}" = --all ] && { all=1; shift; }
build=${1:?usage: tests/arm64/run.sh [--all] ARM64_BUILD_DIR}

# make check's share: scripts that compare with fio or ioping and take seconds under qemu.
E2E_SHARE="t_dispatch t_ioping_compare t_ioping_errors t_ioping_rng t_fioopt_jsonopts t_fio_report"
# check-arm64: every script whose comparisons hold on qemu-user's engines. The others need what
# qemu-user 7.2 lacks (libaio, io_uring, preadv2, file locks, write hints, O_TMPFILE), time
# the binary against fio's (emulation makes it slower), or check the libaio runs of the suites
# (t_suite_fallback.sh checks their fallback on amd64).
E2E_ALL="$E2E_SHARE t_fio_blktrace t_fio_cache t_fio_continue t_fio_dist t_fio_errors t_fio_eta
	t_fio_exitall t_fio_fill t_fio_histidle t_fio_iolog t_fio_logzip t_fio_placement t_fio_proc
	t_fio_randseq t_fio_safety t_fio_steady t_fio_zbd t_fio_zone t_fioopt_corpus t_fioopt_errors
	t_fioopt_seeds t_ioping_blockdev t_ioping_signals t_suite"
# The container cases of the share (tests/container/run.sh names them).
CTEST_SHARE="binary rootfs notices files_in_step build image_config image_size image_contents version seed_ioping
	seed_fio stop_sigterm quick_noargs"

pass=0 fail=0 skip=0
part() {	# NAME RC: count a part
	case $2 in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); echo "arm64: $1 FAILED" ;;
	esac
}
finish() {
	echo "arm64: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}
skip_all() {
	echo "SKIP arm64: $*"
	skip=3
	finish
}

[ "$(uname -m)" = aarch64 ] && skip_all "this machine is arm64: make check itself is the arm64 run"

# --- the emulator --------------------------------------------------------------------------------
binfmt=/proc/sys/fs/binfmt_misc
emu_ready() { [ -f "$binfmt/qemu-aarch64" ] && grep -q '^enabled' "$binfmt/qemu-aarch64"; }
emu_setup() {
	local conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	emu_ready && return 0
	[ -x /usr/bin/qemu-aarch64-static ] || { echo "qemu-user-static is not installed (make deps)"; return 1; }
	[ "$(id -u)" = 0 ] || { echo "qemu-aarch64 is not registered with binfmt_misc, and registering it needs root"; return 1; }
	[ -f "$conf" ] || { echo "$conf is missing (qemu-user-static)"; return 1; }
	if [ ! -e "$binfmt/register" ] && ! mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null; then
		echo "binfmt_misc cannot be mounted here (a container?)"
		return 1
	fi
	grep -v '^#' "$conf" >"$binfmt/register" 2>/dev/null ||
		{ echo "binfmt_misc refused the qemu-aarch64 entry"; return 1; }
	emu_ready || { echo "qemu-aarch64 did not register"; return 1; }
	echo "arm64: registered qemu-aarch64 with binfmt_misc"
}
# qemu-user-static is one of make check's packages (the Makefile's emu_pkgs): missing where CI
# installed it is a failure; the kernel refusing binfmt_misc (a container) stays a skip
why=$(emu_setup) || {
	case $why in
	*"is not installed"* | *"is missing (qemu-user-static)"*)
		[ "${CI:-}" != true ] || { echo "arm64: $why (CI=true, where it is installed: a failure, not a skip)"; fail=3; finish; } ;;
	esac
	skip_all "$why"
}
[ -n "$why" ] && echo "$why"
[ -x "$build/iops" ] || { echo "arm64: $build/iops missing (make ARCH=arm64)"; fail=3; finish; }
v=$("$build/iops" --version 2>&1) || skip_all "the arm64 iops does not run under qemu-user here: $v"
[[ "$v" == *" linux/arm64 "* ]] || { echo "arm64: iops --version: $v (not linux/arm64)"; fail=3; finish; }
echo "arm64: $v, under $(qemu-aarch64-static --version | head -n 1)"

# --- unit ----------------------------------------------------------------------------------------
start=$(date +%s)
log=$(mktemp)
# qemu-user runs the checks several times slower: their time limits too (Check's multiplier)
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-4} "$build/check_unit" >"$log" 2>&1
rc=$?
grep -E '^SKIP: ' "$log" | sort | uniq -c | sed 's/^ *\([0-9]*\) SKIP: /    | SKIP (x\1): /'
grep -E ':[EF]:' "$log" | head -40
grep -E '^[0-9]+%: Checks' "$log"
sed -n 's/^unit: /unit (arm64): /p' "$log"
echo "unit (arm64): $(($(date +%s) - start)) s"
rm -f "$log"
part unit $rc

# --- e2e -----------------------------------------------------------------------------------------
start=$(date +%s)
scripts=$E2E_SHARE cases=$CTEST_SHARE
[ -n "$all" ] && scripts=$E2E_ALL cases=all
E2E_ONLY=$(echo $scripts) E2E_LABEL="e2e (arm64)" "$repo/tests/e2e/run.sh" "$build/iops"
part e2e $?
echo "e2e (arm64): $(($(date +%s) - start)) s"

# --- container -----------------------------------------------------------------------------------
start=$(date +%s)
CONTAINER_PLATFORM=linux/arm64 CONTAINER_CASES=$(echo $cases) \
	CONTAINER_LABEL="container (arm64)" "$repo/tests/container/run.sh" "$build"
part container $?
echo "container (arm64): $(($(date +%s) - start)) s"
finish
