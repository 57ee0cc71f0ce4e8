#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad invocations fail like fio 3.33: same exit status, same messages on the
# same streams, and nothing is created in the working directory.
#
# Checks (2nd field):
#   exact   exit status, stdout and stderr identical (pids masked; on stdout the descriptions
#           of a "valid values" list are masked, and must not be fio's words).
#   err     exit status and the distinct stderr lines identical (fio prints some twice).
#   first   exit status and the first stderr line identical.
#   noargs  exit status and stderr identical, stdout starts with the same `fio-3.33` line.
#   engine  exit status identical; ours names the engine and lists the engines it has (libaio
#           among them) on stderr, stdout free of fio's dlopen noise.
#   clear   exit status identical, stderr is one or two `fio: ...` lines.
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }

printf 'size=1m\n[x]\nrw=read\n' >"$T/outside.fio"
printf '[x]\nsize=1m\nbogusopt=3\n' >"$T/badopt.fio"

cases=(
	"unknown-option|err|--name=x --size=1m --bogus=1"
	"bad-rw|exact|--name=x --size=1m --rw=foo"
	"rwmixread-150|exact|--name=x --size=1m --rwmixread=150"
	"bs-0|exact|--name=x --size=1m --bs=0"
	"iodepth-0|exact|--name=x --size=1m --iodepth=0"
	"iodepth-abc|exact|--name=x --size=1m --iodepth=abc"
	"size-abc|exact|--name=x --size=abc"
	"runtime-abc|exact|--name=x --size=1m --runtime=abc"
	"direct-2|exact|--name=x --size=1m --direct=2"
	"output-format-xml|exact|--name=x --size=1m --output-format=xml"
	"percentile-101|exact|--name=x --size=1m --percentile_list=101"
	"numjobs-0|err|--name=x --size=1m --numjobs=0"
	"missing-jobfile|exact|$T/nonexistent.fio"
	"outside-section|exact|$T/outside.fio"
	"bad-option-jobfile|exact|$T/badopt.fio"
	"flag-then-word|err|--name=x --size=1m --rw=randwrite --time_based 1"
	"time_based-no-runtime|err|--name=x --size=1m --time_based --ioengine=null"
	"no-size-new-file|first|--name=x --rw=read"
	"no-args|noargs|"
	"unknown-engine|engine|--name=x --size=1m --ioengine=nosuch"
	"seed001-windows|engine|--name=rand-write --ioengine=windowsaio --iodepth=32 --rw=randwrite --invalidate=1 --bsrange=4k:4k,4k:4k --size=512m --runtime=120 --time_based --do_verify=1 --direct=1 --group_reporting --numjobs=1"
	"seed003-windows|clear|--directory=Z\\:\\ --ioengine=windowsaio --thread --rw=randwrite --bs=4k --iodepth=1 --size=10g --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 --name=latency"
)

for c in "${cases[@]}"; do
	IFS='|' read -r name check args <<<"$c"
	# shellcheck disable=SC2086 # args are word-split on purpose
	par_run run_pair "$name" $args
done
par_wait

mask_pid() { sed -E 's/pid=[0-9]+: .*/pid=P: DATE/'; }

for c in "${cases[@]}"; do
	IFS='|' read -r name check args <<<"$c"
	rr=$(rc_of "$name" ref) ru=$(rc_of "$name" ut)
	o_ref=$T/$name.ref.out o_ut=$T/$name.ut.out e_ref=$T/$name.ref.err e_ut=$T/$name.ut.err
	[ "$ru" = "$rr" ] || add_err "$name: exit status $ru, fio: $rr (stderr: $(head -c 300 "$e_ut"))"
	case $check in
	exact)
		diff -u <(mask_pid <"$o_ref" | help_fields mask) <(mask_pid <"$o_ut" | help_fields mask) >"$T/d" ||
			add_err "$name: stdout differs (descriptions masked; - fio, + ours):
$(cat "$T/d")"
		if [ "$UT_IS_FIO" = 0 ]; then
			copied=$(paste -d $'\x1f' <(help_fields desc <"$o_ref") <(help_fields desc <"$o_ut") |
				awk -F $'\x1f' '$1 != "" && $1 == $2 { print $1 }')
			[ -z "$copied" ] || add_err "$name: description copied from fio: $copied"
		fi
		diff -u "$e_ref" "$e_ut" >"$T/d" || add_err "$name: stderr differs (- fio, + ours):
$(cat "$T/d")"
		;;
	err)
		diff -u <(sort -u "$e_ref") <(sort -u "$e_ut") >"$T/d" || add_err "$name: stderr lines differ (- fio, + ours):
$(cat "$T/d")"
		;;
	first)
		assert_eq "$name: first stderr line" "$(head -1 "$e_ref")" "$(head -1 "$e_ut")"
		;;
	noargs)
		diff -u "$e_ref" "$e_ut" >"$T/d" || add_err "$name: stderr differs (- fio, + ours):
$(cat "$T/d")"
		assert_eq "$name: first stdout line" "$(head -1 "$o_ref")" "$(head -1 "$o_ut")"
		;;
	engine)
		if ! skip_if_fio "$name: our engine list"; then
			engine=$(grep -o -- '--ioengine=[a-z_]*' <<<"$args" | cut -d= -f2)
			grep -q "$engine" "$e_ut" && grep -q libaio "$e_ut" ||
				add_err "$name: stderr should name '$engine' and list our engines: $(cat "$e_ut")"
			! grep -q dlopen "$o_ut" || add_err "$name: dlopen noise on stdout: $(cat "$o_ut")"
		fi
		;;
	clear)
		n=$(wc -l <"$e_ut")
		[ "$n" -ge 1 ] && [ "$n" -le 2 ] && ! grep -qv '^fio: ' "$e_ut" ||
			add_err "$name: expected one or two 'fio: ...' lines on stderr, got: $(cat "$e_ut")"
		;;
	esac
	listing=$(dir_listing "$T/$name.ut.d")
	[ -z "$listing" ] || add_err "$name: files were created: $listing"
	listing=$(dir_listing "$T/$name.ref.d")
	[ -z "$listing" ] || echo "note: $name: fio itself created: $listing"
done

# An option fio has but iops refuses is an error that names it and says why, never ignored:
# exit status 1, one stderr line "fio: option 'NAME' is not supported by iops: REASON", nothing
# created, on the command line and in a job file. (Every other fio 3.33 option is taken; a
# silent exit status 0 is exactly what this check exists to catch.)
if ! skip_if_fio "options iops does not implement"; then
	nu=0
	for opt in uncached=1 cmd_type=nvme; do
		nu=$((nu + 1))
		run_one ut "unsup$nu" --name=x --size=1m --"$opt"
		printf '[x]\nsize=1m\n%s\n' "$opt" >"$T/unsup$nu.fio"
		run_one ut "unsupjob$nu" "$T/unsup$nu.fio"
		for c in "unsup$nu" "unsupjob$nu"; do
			rc=$(rc_of "$c" ut) err=$(cat "$T/$c.ut.err")
			[ "$rc" = 1 ] || add_err "unsupported option --$opt ($c): exit status $rc, expected 1 (an option iops lacks must be refused)"
			[[ $err == "fio: option '${opt%%=*}' is not supported by iops: "?* && $err != *$'\n'* ]] ||
				add_err "unsupported option --$opt ($c): stderr [$err], expected one line naming it"
			[ -z "$(dir_listing "$T/$c.ut.d")" ] || add_err "unsupported option --$opt ($c): files were created"
		done
	done
fi

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} differences from fio's error behaviour"
fi
echo "ok: ${#cases[@]} bad invocations"
