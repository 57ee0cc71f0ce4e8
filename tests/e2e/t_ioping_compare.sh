#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ioping mode beside the real ioping 1.3: same options, same target, same output once the
# measured numbers (and their units) are masked; same exit codes; JSON valid; the target
# directory left exactly as it was.
. "$(dirname "$0")/lib.sh"

need_ref_ioping

# Numbers with their unit (time, size, count suffixes) become N; fast/slow marks depend on
# timing and are dropped.
mask_ioping() {
	sed -E -e 's/ \((fast|slow)\)$//' \
	       -e 's/[0-9]+(\.[0-9]+)?( (ns|us|ms|s|min|hour|B|KiB|MiB|GiB|TiB|PiB|k|M|G|T)([ ,/:)]|$))?/N\4/g'
}

D=$T/dir
mkdir "$D"
head -c 1048576 /dev/urandom >"$D/file"
before=$(dir_listing "$D")

compare() {
	local label=$1; shift
	ref_ioping "$@" >"$T/ref.out" 2>"$T/ref.err"; local rc_ref=$?
	"$IOPS" ioping "$@" >"$T/our.out" 2>"$T/our.err"; local rc_our=$?
	# A system call the binary under test lacks and the reference has (qemu-user runs the arm64
	# build here without io_setup, for -A, and preadv2, for -N): it fails as ioping 1.3 does there
	# (one line, "ioping: ...: Function not implemented"), and there is nothing to compare.
	if [ "$rc_ref" = 0 ] && [ "$rc_our" != 0 ] && [[ "$(cat "$T/our.err")" =~ ^ioping:\ [a-z\ ]+:\ Function\ not\ implemented$ ]]; then
		case_skip "$label: '$(cat "$T/our.err")' for the binary under test here (an emulator?), not for ioping 1.3"
		return
	fi
	assert_eq "$label: exit code" "$rc_ref" "$rc_our"
	if ! diff -u <(mask_ioping <"$T/ref.out") <(mask_ioping <"$T/our.out") >"$T/d"; then
		cat "$T/d" >&2
		fail "$label: stdout differs from ioping"
	fi
	if ! diff -u "$T/ref.err" "$T/our.err" >"$T/d"; then
		cat "$T/d" >&2
		fail "$label: stderr differs from ioping"
	fi
	[ -s "$T/our.out" ] || [ -n "${NO_OUTPUT_OK:-}" ] || fail "$label: no output"
	assert_eq "$label: directory listing" "$before" "$(dir_listing "$D")"
	case_ran
}

compare "plain"        -c 5 -i 0 "$D"
compare "-D"           -c 5 -i 0 -D "$D"
compare "-W"           -c 5 -i 0 -W "$D"
compare "-s 64k -S 16m" -c 5 -i 0 -s 64k -S 16m "$D"
compare "-L"           -c 5 -i 0 -L "$D"
if engine_refused libaio; then	# ioping -A submits with libaio
	skip_note "-A -D: the kernel refuses libaio here ($PROBE_WHY)"
else
	compare "-A -D"        -c 5 -i 0 -A -D "$D"
fi
compare "-q"           -c 5 -i 0 -q "$D"
compare "-B -p 3"      -c 7 -i 0 -B -p 3 "$D"
compare "-p 2 text"    -c 5 -i 0 -p 2 "$D"
compare "-G"           -c 4 -i 0 -G "$D"
compare "-b 3"         -c 7 -i 0 -b 3 "$D"
compare "-I"           -c 3 -i 0 -I "$D"
compare "-time=%s"     -c 3 -i 0 -time=%s "$D"
compare "-t/-T filter" -c 5 -i 0 -a 0 -T 1ns "$D"
compare "options after the path" "$D" -c 3 -i 0 -D
compare "file target"  -c 4 -i 0 "$D/file"
compare "file -D -L"   -c 4 -i 0 -D -L "$D/file"
compare "/dev/zero"    -c 3 -i 0 /dev/zero
compare "/dev/null"    -c 2 -i 0 /dev/null
# -N without -C races with the page cache (fadvise(DONTNEED) may leave a page that another CPU
# still holds, so the read either succeeds or fails with EAGAIN, for ioping as for us): cached
# reads are deterministic.
if kernel_has nowait_read "$D"; then
	compare "-N -C"        -c 2 -i 0 -N -C "$D"
else	# both fail the request alike (tmpfs refuses RWF_NOWAIT): compared, but no output to see
	NO_OUTPUT_OK=1 compare "-N -C (refused)" -c 2 -i 0 -N -C "$D"
	skip_note "-N -C: the kernel refuses RWF_NOWAIT reads here ($PROBE_WHY): the refusal was compared, no cached read"
fi
compare "-B -c 1"      -B -c 1 "$D"
compare "-R -w 1"      -R -w 1 "$D"

# JSON: same layout, valid JSON, the fields of ioping 1.3.
compare "-J"           -c 3 -i 0 -J "$D"
python3 -m json.tool "$T/our.out" >/dev/null || fail "-J: invalid JSON"
jq -e 'length == 4 and .[0].io.ignored == true and .[1].io.operation == "read"
       and .[3].stat.count == 2 and .[3].load.count == 3 and .[3].target.path != null' \
	"$T/our.out" >/dev/null || fail "-J: unexpected content"
compare "-J -q -p 1"   -c 3 -i 0 -J -q -p 1 "$D"
jq -e 'length == 3 and (.[2].stat.count == 2)' "$T/our.out" >/dev/null || fail "-J -p: content"

# -k keeps exactly ioping.tmp, nothing else.
"$IOPS" ioping -c 2 -i 0 -q -k -S 64k "$D" >/dev/null || fail "-k run failed"
assert_eq "-k leaves ioping.tmp" "$(printf '%s\nioping.tmp' "$before")" "$(dir_listing "$D")"
assert_eq "-k size" 65536 "$(stat -c %s "$D/ioping.tmp")"
rm -f "$D/ioping.tmp"

# The multi-call name works the same.
ln -s "$IOPS" "$T/ioping"
"$T/ioping" -c 2 -i 0 -q "$D" >"$T/link.out" || fail "ioping link: rc"
assert_match "ioping link output" 'ioping statistics ---' "$(cat "$T/link.out")"
rm -f "$T/ioping"
assert_eq "final listing" "$before" "$(dir_listing "$D")"
