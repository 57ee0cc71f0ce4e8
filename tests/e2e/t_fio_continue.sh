#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# continue_on_error / ignore_error / error_dump: writes to /dev/full fail with ENOSPC, safely.
# For each case fio and the binary under test (which needs --allow_overwrite=1 to write to a
# device): exit code, the job's error, total_err and first_error (JSON), total_ios and
# io_bytes, the normal output's "errors" line, the terse fields, and how many io_u error lines
# go to stderr. Bad ignore_error values: fio's lines, exit 1. max_latency: fio's line and error.
. "$(dirname "$0")/fio_common.sh"
[ -w /dev/full ] || skip_script "/dev/full is not writable here"

errors=()
add_err() { errors+=("$*"); }
ut_extra=--allow_overwrite=1
skip_if_fio "no allow_overwrite for fio" && ut_extra=

# NAME|ARGS
cases=(
	"ignore-psync|--ignore_error=,ENOSPC"
	"ignore-sync|--ignore_error=,ENOSPC --ioengine=sync"
	"ignore-pvsync-dump|--ignore_error=,ENOSPC --ioengine=pvsync --error_dump=1"
	"ignore-numeric|--ignore_error=EIO,28:EIO"
	"cont-write-fatal|--continue_on_error=write"
	"cont-all-list|--continue_on_error=all --ignore_error=,EIO:ENOSPC"
	"dump|--ignore_error=,ENOSPC --error_dump=1"
	"none|--continue_on_error=none"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<<"$c"
	for fmt in json normal terse; do
		# shellcheck disable=SC2086 # ARGS are words
		run_one ref "$name-$fmt" --name=x --filename=/dev/full --size=64k --bs=4k --rw=write $args --output-format=$fmt
		# shellcheck disable=SC2086
		run_one ut "$name-$fmt" $ut_extra --name=x --filename=/dev/full --size=64k --bs=4k --rw=write $args --output-format=$fmt
	done
done

for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	case_ran
	for fmt in json normal terse; do
		[ "$(rc_of "$name-$fmt" ref)" = "$(rc_of "$name-$fmt" ut)" ] ||
			add_err "$name ($fmt): exit $(rc_of "$name-$fmt" ref) (fio) / $(rc_of "$name-$fmt" ut) (iops)"
	done
	q='.jobs[0] | "error=\(.error) total_err=\(.total_err) first_error=\(.first_error) ios=\(.write.total_ios) bytes=\(.write.io_bytes)"'
	a=$(json_doc "$T/$name-json.ref.out" | jq -r "$q" 2>&1)
	b=$(json_doc "$T/$name-json.ut.out" | jq -r "$q" 2>&1)
	[ "$a" = "$b" ] || add_err "$name: fio $a / iops $b"
	# (fio prints its "fio: pid=N, err=" line on stdout, iops on stderr: docs/fio-differences.md, Deliberate)
	a=$(grep -E '^ +errors +:|err=' "$T/$name-normal.ref.out" | grep -v '^fio: pid=' | sed 's/pid=[0-9]*: .*//')
	b=$(grep -E '^ +errors +:|err=' "$T/$name-normal.ut.out" | grep -v '^fio: pid=' | sed 's/pid=[0-9]*: .*//')
	[ "$a" = "$b" ] || add_err "$name: normal output: fio '$a' / iops '$b'"
	a=$(grep -v '^fio: ' "$T/$name-terse.ref.out" | tr ';' '\n' | wc -l)
	b=$(grep -v '^fio: ' "$T/$name-terse.ut.out" | tr ';' '\n' | wc -l)
	[ "$a" = "$b" ] || add_err "$name: terse: $a fields (fio) / $b (iops)"
	a=$(grep -v '^fio: ' "$T/$name-terse.ref.out" | tr ';' '\n' | tail -n 2 | tr '\n' ' ')
	b=$(grep -v '^fio: ' "$T/$name-terse.ut.out" | tr ';' '\n' | tail -n 2 | tr '\n' ' ')
	[ "$a" = "$b" ] || add_err "$name: terse tail: fio '$a' / iops '$b'"
	a=$(grep -c '^fio: io_u error on file' "$T/$name-normal.ref.err")
	b=$(grep -c '^fio: io_u error on file' "$T/$name-normal.ut.err")
	[ "$a" = "$b" ] || add_err "$name: $a io_u error lines (fio) / $b (iops)"
done

bad=("EFOO" "EIO,EIO,EIO,EIO" "0" "abc")
for v in "${bad[@]}"; do
	run_pair "bad-$v" --name=x --ioengine=null --size=1m --ignore_error="$v"
	case_ran
	[ "$(rc_of "bad-$v" ref)" = 1 ] && [ "$(rc_of "bad-$v" ut)" = 1 ] ||
		add_err "ignore_error=$v: exit $(rc_of "bad-$v" ref) (fio) / $(rc_of "bad-$v" ut)"
	diff <(grep -v '^$' "$T/bad-$v.ref.err") <(grep -v '^$' "$T/bad-$v.ut.err") >/dev/null ||
		add_err "ignore_error=$v: fio '$(tr '\n' '|' <"$T/bad-$v.ref.err")' / iops '$(tr '\n' '|' <"$T/bad-$v.ut.err")'"
done

# max_latency: an I/O slower than 1 us (every one here) fails the job with ETIMEDOUT
for side in ref ut; do
	run_one "$side" maxlat --name=x --filename=ml --size=1m --rw=randread --max_latency=1 --output-format=json
	run_one "$side" maxlat-ok --name=x --filename=ml --size=1m --rw=randread --max_latency=10s,1 --output-format=json
done
case_ran
for name in maxlat maxlat-ok; do
	[ "$(rc_of $name ref)" = "$(rc_of $name ut)" ] || add_err "$name: exit $(rc_of $name ref) (fio) / $(rc_of $name ut) (iops)"
	a=$(json_doc "$T/$name.ref.out" | jq -r '.jobs[0].error')
	b=$(json_doc "$T/$name.ut.out" | jq -r '.jobs[0].error')
	[ "$a" = "$b" ] || add_err "$name: error $a (fio) / $b (iops)"
done
# the job line carries the C library's words for ETIMEDOUT, glibc's in both ("Connection timed out")
for side in ref ut; do
	run_one "$side" maxlat-normal --name=x --filename=ml --size=1m --rw=randread --max_latency=1
done
a=$(grep -o 'err=110 ([^)]*)' "$T/maxlat-normal.ref.out")
b=$(grep -o 'err=110 ([^)]*)' "$T/maxlat-normal.ut.out")
[ -n "$a" ] && [ "$a" = "$b" ] || add_err "maxlat: job line: fio '$a' / iops '$b'"
a=$(sed -n 's/^fio: latency of [0-9]* nsec exceeds specified max (\([0-9]*\) nsec): ml read [0-9]* 4096$/\1/p' "$T/maxlat.ref.err")
b=$(sed -n 's/^fio: latency of [0-9]* nsec exceeds specified max (\([0-9]*\) nsec): ml read [0-9]* 4096$/\1/p' "$T/maxlat.ut.err")
[ -n "$a" ] && [ "$a" = "$b" ] || add_err "maxlat: fio '$(head -n 1 "$T/maxlat.ref.err")' / iops '$(head -n 1 "$T/maxlat.ut.err")'"

# continue_on_error=verify: a file fio wrote with crc32c headers, two blocks corrupted, read
# back with verify by both tools (each from its own copy). verify and all go on past both bad
# blocks (error 84 reported, exit 0); read does not cover verify and stops at the first.
# (in $T: fio saves its verify state, local-w-0-verify.state, in the working directory)
(cd "$T" && "$REF_FIO" --name=w --filename="$T/vsrc" --size=256k --bs=4k --rw=write --verify=crc32c --do_verify=0) \
	>/dev/null 2>&1 || fail "fio could not write the verify source file"
printf 'XXXXXXXXXXXXXXXX' | dd of="$T/vsrc" bs=1 seek=$((8192 + 100)) conv=notrunc 2>/dev/null
printf 'YYYYYYYYYYYYYYYY' | dd of="$T/vsrc" bs=1 seek=$((40960 + 200)) conv=notrunc 2>/dev/null
vcases=(verify all read)
for v in "${vcases[@]}"; do
	for side in ref ut; do
		for fmt in json normal; do
			mkdir -p "$T/v-$v-$fmt.$side.d"
			cp "$T/vsrc" "$T/v-$v-$fmt.$side.d/v.dat"
			run_one "$side" "v-$v-$fmt" --name=r --filename=v.dat --size=256k --bs=4k --rw=read \
				--verify=crc32c --continue_on_error="$v" --output-format=$fmt
		done
	done
	case_ran
	for fmt in json normal; do
		[ "$(rc_of "v-$v-$fmt" ref)" = "$(rc_of "v-$v-$fmt" ut)" ] ||
			add_err "verify $v ($fmt): exit $(rc_of "v-$v-$fmt" ref) (fio) / $(rc_of "v-$v-$fmt" ut) (iops)"
		a=$(grep -c 'verify failed at file' "$T/v-$v-$fmt.ref.err")
		b=$(grep -c 'verify failed at file' "$T/v-$v-$fmt.ut.err")
		[ "$a" = "$b" ] || add_err "verify $v ($fmt): $a verify failures (fio) / $b (iops)"
	done
	q='.jobs[0] | "error=\(.error) total_err=\(.total_err) first_error=\(.first_error) ios=\(.read.total_ios) bytes=\(.read.io_bytes)"'
	a=$(json_doc "$T/v-$v-json.ref.out" | jq -r "$q" 2>&1)
	b=$(json_doc "$T/v-$v-json.ut.out" | jq -r "$q" 2>&1)
	[ "$a" = "$b" ] || add_err "verify $v: fio $a / iops $b"
	a=$(grep -E '^ +errors +:|err=' "$T/v-$v-normal.ref.out" | grep -v '^fio: pid=' | sed 's/pid=[0-9]*: .*//')
	b=$(grep -E '^ +errors +:|err=' "$T/v-$v-normal.ut.out" | grep -v '^fio: pid=' | sed 's/pid=[0-9]*: .*//')
	[ "$a" = "$b" ] || add_err "verify $v: normal output: fio '$a' / iops '$b'"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "continue_on_error: ${#cases[@]} cases x 3 formats as fio, ${#bad[@]} refusals, ${#vcases[@]} verify cases; max_latency"
