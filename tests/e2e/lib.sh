# SPDX-License-Identifier: MIT
# Helpers shared by the end-to-end tests. Source it: . "$(dirname "$0")/lib.sh"
set -u
IOPS=${IOPS_BIN:?IOPS_BIN must name the binary under test}

# A fresh scratch directory under the repo's build dir (O_DIRECT works there), removed at exit.
scratch_root=$(cd "$(dirname "$IOPS")" && pwd)/e2e-tmp
mkdir -p "$scratch_root"
T=$(mktemp -d "$scratch_root/t.XXXXXX")

fail() { echo "FAIL: $*" >&2; exit 1; }

# tool NAME: the path of a test tool of tests/tools/ (build/tools/NAME beside the binary under
# test's build directory; made when it is missing), for $(tool seccomp_fail).
tool() {
	local repo build
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	build=${IOPS_TOOLS_DIR:-$repo/build/tools}
	[ -x "$build/$1" ] || make -s -C "$repo" "build/tools/$1" >/dev/null || fail "cannot build the test tool $1"
	echo "$build/$1"
}

# kernel_has CAP [ARG]: does this machine's kernel offer CAP (build/tools/probe, which asks the
# kernel without iops' code; the list is in tests/tools/probe.c)? Status 0: present. 1: missing,
# the probe's reason in $PROBE_WHY and the kernel's errno, where it answered with one, in
# $PROBE_ERRNO (a case whose expectation is the kernel's answer reads it there). A probe that
# cannot run fails the script: a test never skips on a probe's own failure.
kernel_has() {
	local rc
	PROBE_WHY=$("$(tool probe)" "$@")
	rc=$?
	[ "$rc" -le 1 ] || fail "probe $*: exit $rc ($PROBE_WHY)"
	PROBE_ERRNO=$(sed -nE 's/.*\(errno ([0-9]+)\)$/\1/p' <<<"$PROBE_WHY")
	return "$rc"
}
# engine_refused ENGINE: true where the kernel refuses ENGINE's queue (libaio: io_setup, no
# CONFIG_AIO or aio-max-nr used up; io_uring: io_uring_setup, a seccomp profile or
# kernel.io_uring_disabled), the probe's reason in PROBE_WHY; false for the engines that need no
# queue of the kernel's. Asked once per engine. t_fio_refused compares the refusal with fio's on
# every machine; elsewhere a case that needs the engine is a counted skip where it is refused.
engine_refused() {
	local v=_engine_refused_${1//[^a-z0-9]/_}
	case $1 in libaio | io_uring) ;; *) return 1 ;; esac
	if [ -z "${!v:-}" ]; then
		if kernel_has "$1"; then printf -v "$v" 0; else printf -v "$v" '1 %s' "$PROBE_WHY"; fi
	fi
	[ "${!v%% *}" = 1 ] || return 1
	PROBE_WHY=${!v#1 }
}
# needs_engine WHAT ENGINE...: false, and a counted skip of WHAT, where the kernel refuses one of
# the engines; ENGINE may be a word of a command line (--ioengine=X, ioengine=X) or of a list.
needs_engine() {
	local what=$1 w e
	shift
	for w in "$@"; do
		e=${w#--}
		e=${e#ioengine=}
		if engine_refused "$e"; then
			case_skip "$what: needs $e, which the kernel refuses here ($PROBE_WHY)"
			return 1
		fi
	done
}
# set_aio WHAT: AIO=libaio, or where the kernel refuses libaio's queue AIO=posixaio (glibc's
# threads: asynchronous, nothing of the kernel's), said in a skip note naming WHAT: for the cases
# about an asynchronous engine in general, not about libaio itself.
set_aio() {
	AIO=libaio
	if engine_refused libaio; then
		AIO=posixaio
		skip_note "$*: posixaio in libaio's place, the kernel refuses libaio here ($PROBE_WHY)"
	fi
}
# direct_refused: true where the kernel refuses O_DIRECT in the scratch directory $T (probe
# odirect: tmpfs before Linux 6.6, some FUSE and network file systems), the reason in PROBE_WHY
direct_refused() {
	if [ -z "${_direct_refused:-}" ]; then
		if kernel_has odirect "$T"; then _direct_refused=0; else _direct_refused="1 $PROBE_WHY"; fi
	fi
	[ "${_direct_refused%% *}" = 1 ] || return 1
	PROBE_WHY=${_direct_refused#1 }
}
# drop_refused ARRAY: the entries of the bash array named ARRAY (NAME|...words...) that name an
# engine the kernel refuses, on their command line or in a job file they name, or direct=1 on
# their command line where the kernel refuses O_DIRECT, are taken out, each a counted skip
drop_refused() {
	local -n _dr_cases=$1
	local keep=() c w engines
	for c in "${_dr_cases[@]}"; do
		if [[ $c =~ (^|[ |])(--)?direct=1([ |]|$) ]] && direct_refused; then
			case_skip "${c%%|*}: direct=1: the kernel refuses O_DIRECT here ($PROBE_WHY)"
			continue
		fi
		engines=$(grep -oE '(^|[ |])(--)?ioengine=[a-z_0-9]+' <<<"$c" | tr -d ' |')
		for w in ${c//|/ }; do
			[[ $w != -* ]] && [ -f "$w" ] && engines+=" $(grep -oE '^ *ioengine *= *[a-z_0-9]+' "$w" | tr -d ' ')"
		done
		# shellcheck disable=SC2086 # the engines are words
		needs_engine "${c%%|*}" $engines && keep+=("$c")
	done
	_dr_cases=("${keep[@]}")
}
# allowed_cpus: the CPUs this process may run on (the kernel's Cpus_allowed_list; a container's
# cpuset need not start at 0), in order, one per line.
allowed_cpus() {
	awk '/^Cpus_allowed_list:/ { n = split($2, r, ","); for (i = 1; i <= n; i++) {
		if (split(r[i], ab, "-") == 2) { for (c = ab[1]; c <= ab[2]; c++) print c } else print r[i] } }' /proc/self/status
}

# loop_attach FILE: FILE on a free loop device, its path in LOOP (the caller detaches it), where
# the kernel gives this process one (probe loop: root, /dev/loop-control answers); status 1 and
# the reason in PROBE_WHY where it does not. losetup (util-linux) missing is a missing
# prerequisite; losetup failing where the probe found a free device fails the script.
loop_attach() {
	command -v losetup >/dev/null || missing_prereq "losetup is required (Debian package util-linux)"
	LOOP=
	kernel_has loop || return 1
	LOOP=$(losetup -f --show "$1") || fail "losetup -f $1 failed where the probe found a free loop device"
}
# loop_mount_ext4 IMG DIR: a fresh ext4 on IMG, mounted at DIR through a loop device; status 1
# and PROBE_WHY where the kernel gives no loop device. mkfs.ext4 (e2fsprogs) missing is a
# missing prerequisite, a mount failing where the probe found a device fails the script.
loop_mount_ext4() {
	command -v mkfs.ext4 >/dev/null || missing_prereq "mkfs.ext4 is required (Debian package e2fsprogs)"
	kernel_has loop || return 1
	mkfs.ext4 -q -F "$1" >/dev/null 2>&1 || fail "mkfs.ext4 $1 failed"
	mount -o loop "$1" "$2" || fail "mount -o loop $1 failed where the probe found a free loop device"
}

# --- skips (run.sh shows every `SKIP: ` line and counts them) ----------------------------------
# skip_script REASON: this script cannot run here: one line, exit 77 (run.sh: skipped).
skip_script() { echo "SKIP: $*"; exit 77; }
# missing_prereq REASON: something CI installs (the reference fio 3.33 or ioping 1.3, strace,
# the conformance corpus) is missing or wrong: a failure in CI (CI=true), a visible skip elsewhere.
missing_prereq() {
	[ "${CI:-}" != true ] || fail "$* (CI=true, where it is installed: a failure, not a skip)"
	skip_script "$*"
}
# missing_part REASON: the same for a part of a script only: a failure in CI, else a skip note
# and the script goes on with what it can check.
missing_part() {
	[ "${CI:-}" != true ] || fail "$* (CI=true, where it is installed: a failure, not a skip)"
	skip_note "$*"
}
# need_ref_fio: REF_FIO (default /usr/bin/fio) is fio 3.33, the reference of the fio tests.
need_ref_fio() {
	REF_FIO=${REF_FIO:-/usr/bin/fio}
	[ -x "$REF_FIO" ] || missing_prereq "reference fio 3.33 not found at $REF_FIO"
	local v
	v=$("$REF_FIO" --version 2>/dev/null)
	[ "$v" = fio-3.33 ] || missing_prereq "reference fio at $REF_FIO is '$v', not fio-3.33"
}
# need_ref_ioping: REF_IOPING (default: ioping on PATH) is ioping 1.3.
need_ref_ioping() {
	REF_IOPING=${REF_IOPING:-$(command -v ioping)}
	[ -n "$REF_IOPING" ] && [ -x "$REF_IOPING" ] || missing_prereq "reference ioping 1.3 not installed"
	local v
	v=$("$REF_IOPING" -v 2>/dev/null | head -1)
	[ "$v" = "ioping 1.3" ] || missing_prereq "reference ioping at $REF_IOPING is '$v', not ioping 1.3"
}
# ref_ioping ARGS...: the reference ioping, with argv[0] "ioping" as a user types it (its
# getopt messages start with argv[0])
ref_ioping() { (exec -a ioping "$REF_IOPING" "$@"); }
# skip_note REASON: a part of the script that cannot run here (not one of its counted cases).
skip_note() { echo "SKIP: $*"; }
# Counted cases: a script whose cases may be skipped one by one (the reference tool failed on
# this machine) calls case_ran for each case it checked and case_skip REASON for each it could
# not; if it skipped some and checked none it FAILS at exit, however it meant to end.
E2E_CASES_RUN=0 E2E_CASES_SKIPPED=0
case_ran() { E2E_CASES_RUN=$((E2E_CASES_RUN + 1)); }
case_skip() { E2E_CASES_SKIPPED=$((E2E_CASES_SKIPPED + 1)); echo "SKIP: $*"; }
_e2e_exit() {
	local rc=$?
	rm -rf "$T"
	if [ "$rc" = 0 ] && [ "$E2E_CASES_SKIPPED" -gt 0 ] && [ "$E2E_CASES_RUN" = 0 ]; then
		echo "FAIL: all $E2E_CASES_SKIPPED cases were skipped, none was checked" >&2
		exit 1
	fi
	exit "$rc"
}
trap _e2e_exit EXIT

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() { [ "$2" = "$3" ] || fail "$1: expected [$2], got [$3]"; }

# assert_match WHAT REGEX ACTUAL
assert_match() { [[ "$3" =~ $2 ]] || fail "$1: [$3] does not match /$2/"; }

# Replace every number (with optional decimals) by N, so output shapes can be diffed.
mask_numbers() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g'; }

# diff_shapes LABEL FILE_A FILE_B: diff after masking numbers; prints the diff on failure.
diff_shapes() {
	local label=$1
	if ! diff -u <(mask_numbers <"$2") <(mask_numbers <"$3") >"$T/shape.diff"; then
		cat "$T/shape.diff" >&2
		fail "$label: output shapes differ"
	fi
}

# dir_listing DIR: names in DIR, sorted, one per line (to check nothing was left behind).
dir_listing() { (cd "$1" && ls -A | sort); }

# help_fields MODE: the "name: text" lines of --cmdhelp and of a "valid values" list (the key
# right-aligned in 20 columns, then ": "). iops words its descriptions itself (fio's are GPL
# text), so MODE=mask replaces each description by "~" and keeps everything else (key, alias,
# default, range, value names and their padding); MODE=desc prints, line for line, only the
# description that mask hides (an empty line where there is none).
help_fields() {
	awk -v mode="$1" '
	length($0) > 22 && substr($0, 21, 2) == ": " {
		key = substr($0, 1, 20); sub(/^ +/, "", key); rest = substr($0, 23); d = ""
		if (key == "valid values" || key == "") {
			n = index(rest, " "); w = n ? n - 1 : length(rest); if (w < 10) w = 10
			d = substr(rest, w + 2)
			if (d != "" && substr(d, 1, 1) != " ") rest = substr(rest, 1, w + 1) "~"	# padding kept
		} else if (key != "alias" && key != "default" && key != "range") {
			d = rest; rest = "~"
		}
		if (mode == "mask") print substr($0, 1, 22) rest; else print d
		next
	}
	{ if (mode == "mask") print; else print "" }'
}
