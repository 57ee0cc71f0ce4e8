#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio option errors: same stdout, stderr and exit status as fio 3.33, and nothing created.
. "$(dirname "$0")/lib.sh"

REF=${REF_FIO:-/usr/bin/fio}
have_ref=0
[ -x "$REF" ] && [ "$("$REF" --version 2>/dev/null)" = "fio-3.33" ] && have_ref=1

mkdir -p "$T/ours" "$T/ref"

# run_ours ARGS...: in a fresh dir; sets out/err/rc
run_ours() {
	(cd "$T/ours" && "$IOPS" fio "$@" >"$T/o.out" 2>"$T/o.err"); rc=$?
	out=$(cat "$T/o.out"); err=$(cat "$T/o.err")
	[ -z "$(dir_listing "$T/ours")" ] || fail "iops fio $*: left files: $(dir_listing "$T/ours")"
}

# no_copied_text LABEL REF_FILE OUR_FILE: both have the same help structure; no description of
# ours may be fio's (empty ones aside).
no_copied_text() {
	local same
	same=$(paste -d $'\x1f' <(help_fields desc <"$2") <(help_fields desc <"$3") |
		awk -F $'\x1f' '$1 != "" && $1 == $2 { print $1 }')
	[ -z "$same" ] || fail "$1: description copied from fio: $same"
}

# same ARGS...: run ours now; the real fio runs later, several at a time (it needs ~0.5 s to
# start here), and every case is then compared: stderr and status byte for byte, stdout byte
# for byte once the descriptions of help lines are masked (and those must be our own words).
mkdir -p "$T/c"
nr_cases=0
same() {
	run_ours "$@"
	nr_cases=$((nr_cases + 1))
	printf '%s\0' "$@" >"$T/c/$nr_cases.args"
	cp "$T/o.out" "$T/c/$nr_cases.oout"
	cp "$T/o.err" "$T/c/$nr_cases.oerr"
	echo "$rc" >"$T/c/$nr_cases.orc"
}

# ref_one N: the real fio on case N, in its own fresh directory
ref_one() {
	local n=$1
	local -a args=()
	mapfile -d '' args <"$T/c/$n.args"
	mkdir -p "$T/r$n"
	(cd "$T/r$n" && exec -a fio "$REF" "${args[@]}" >"$T/c/$n.rout" 2>"$T/c/$n.rerr"); echo $? >"$T/c/$n.rrc"
	rm -rf "$T/r$n"
}

compare_all() {
	[ "$have_ref" = 1 ] || return 0
	export -f ref_one
	export T REF
	seq 1 "$nr_cases" | xargs -n1 -P4 bash -c 'ref_one "$0"'
	for n in $(seq 1 "$nr_cases"); do
		local label
		label="fio $(tr '\0' ' ' <"$T/c/$n.args")"
		assert_eq "$label status" "$(cat "$T/c/$n.rrc")" "$(cat "$T/c/$n.orc")"
		if ! cmp -s "$T/c/$n.rerr" "$T/c/$n.oerr"; then
			diff "$T/c/$n.rerr" "$T/c/$n.oerr" >&2
			fail "$label: stderr differs"
		fi
		help_fields mask <"$T/c/$n.rout" >"$T/c/$n.rmask"
		help_fields mask <"$T/c/$n.oout" >"$T/c/$n.omask"
		if ! cmp -s "$T/c/$n.rmask" "$T/c/$n.omask"; then
			diff "$T/c/$n.rmask" "$T/c/$n.omask" >&2
			fail "$label: stdout differs (descriptions masked)"
		fi
		no_copied_text "$label" "$T/c/$n.rout" "$T/c/$n.oout"
	done
}

P=--parse-only
# value errors: fio's messages and streams
same --name=a --iodepth=abc
same --name=a --size=abc $P
same --name=a --runtime=abc $P
same --name=a --rw=foo $P
same --name=a --fallocate=bad $P
same --name=a --kb_base=7 $P
same --name=a --direct=2 $P
same --name=a --direct=yes $P
same --name=a --time_based=yes $P
same --name=a --bs=0 $P
same --name=a --iodepth=0 $P
same --name=a --rwmixread=150 $P
same --name=a --percentile_list=101 $P
same --name=a --output-format=xml
same --name=a --size= $P
same --name=a --bs
same --name=a --size=nan $P
same --name=a --numjobs=abc $P
same --name=a --random_generator=mt $P
# unknown options, abbreviations, job files
same --bogus=1
same --iodept=1
same --name=a --bs 8k $P
same --iodepth_lo=3 --name=a $P
same --name=a --time_based 1 $P
same nonexistent.fio
same --name=a --direct --parse-only
# usage and versions: our usage text lists our options, the frame is fio's
run_ours
assert_eq "no args rc" 1 "$rc"
assert_eq "no args stderr" "No job(s) defined" "$err"
assert_eq "no args stdout 1-2" "$(printf 'fio-3.33\nfio [options] [job options] <job file(s)>')" "$(head -2 "$T/o.out")"
run_ours --bs=4k
assert_eq "no job rc" 1 "$rc"
assert_eq "no job stderr" "No job(s) defined" "$err"
same --version
same --cmdhelp=bs
same --cmdhelp=rw
same --cmdhelp=rwmixrea
same --cmdhelp=runtime
same --cmdhelp=percentile_list
same --cmdhelp=time_based
same --cmdhelp=fallocate
same --cmdhelp=sync
same --cmdhelp=kb_base
same --cmdhelp=unit_base
same --cmdhelp=random_generator
same --cmdhelp=offset
same --cmdhelp=norandommap
same --cmdhelp=filename
same --cmdhelp=size
same --cmdhelp=direct
same --cmdhelp=blocksize
same --name=x --showcmd
same --enghelp=psync
same --enghelp=null,foo
same --showcmd nonexistent.fio
# our own words, where the masked comparison cannot see them
run_ours --cmdhelp=rw
assert_eq "cmdhelp=rw line 1" "                  rw: Access pattern and direction of the I/O" "$(head -1 "$T/o.out")"
assert_eq "cmdhelp=rw type" "                type: text (opt=word)" "$(sed -n 3p "$T/o.out")"
assert_eq "cmdhelp=rw read" "        valid values: read       Reads in ascending offset order" "$(sed -n 5p "$T/o.out")"
run_ours --name=a --rw=foo $P
assert_eq "rw=foo stdout 1" "        valid values: read       Reads in ascending offset order" "$(head -1 "$T/o.out")"
assert_eq "rw=foo stderr" "fio: failed parsing rw=foo" "$err"
run_ours --cmdhelp=bs
assert_eq "cmdhelp=bs" "$(printf '%20s: %s\n' bs 'Size of each I/O request' alias blocksize \
	type 'whole number (opt=100)' default 4096 range 'min=1, max=-1')" "$out"
run_ours --help
assert_eq "--help rc" 0 "$rc"
assert_match "--help parse-only" $'\n  --parse-only\t\tCheck options and job files, then exit without I/O\n' "$out"
assert_match "--help eta" $'\n  --eta=when\t\tWhen to show the progress \\(ETA\\) line\n            \t\tOne of "always", "never" or "auto"\n' "$out"
run_ours --enghelp
assert_eq "--enghelp" "$(printf 'Available IO engines:'; printf '\n\t%s' libaio io_uring posixaio psync sync pvsync pvsync2 null falloc \
	ftruncate mmap splice cpuio filecreate filestat filedelete dircreate dirstat dirdelete net netsplice exec e4defrag)" "$out"

# getopt_long_only: a single dash works for long options
same -name=a -size=1m -ioengine=null $P
same -name=a -iodepth=abc $P
# lenient like fio
same --name=a --loops=0 --nrfiles=0 --size=1m $P
# the command line fio accepts is accepted
same --name=a --bs=4q --size=1m --ioengine=null $P
same --name=a --bs=4k,8k --rw=randrw:4 --rwmixread=70 --size=64m $P

# iops' own refusals: one line, status 1, nothing created
run_ours --name=w --ioengine=windowsaio --size=1m
assert_eq "windowsaio rc" 1 "$rc"
assert_eq "windowsaio stderr" "fio: engine windowsaio is Windows' native AIO, which this build does not include (Linux: libaio, io_uring)" "$err"
assert_eq "windowsaio stdout" "" "$out"
run_ours --name=v --verify=crc64 --trim_percentage=10 --trim_backlog=2 --size=1m --rw=write
assert_eq "verify rc" 1 "$rc"
assert_eq "verify stderr" "fio: trim_backlog needs a job that trims (rw=trimwrite or randtrimwrite): fio 3.33 aborts on an assertion at its first trim" "$err"
run_ours '--directory=Z\:\' --ioengine=libaio --thread --name=latency --size=1m
assert_eq "windows dir rc" 1 "$rc"
assert_match "windows dir" "Windows path" "$err"
run_ours --client= --name=a --size=1m	# client/server: t_client.sh; here only its bad command line
assert_eq "client rc" 1 "$rc"
assert_eq "client" "iops client: --client needs HOST[,PORT] or a hosts file" "$err"
run_ours --name=a --size=16e	# fio has no 'e' suffix: 16 bytes, smaller than the block
assert_eq "16e rc" 1 "$rc"
assert_eq "16e" "fio: size too small, must not be less than minimum block size: 16 < 4096" "$err"
run_ours --name=a --numjobs=0
assert_eq "numjobs=0 rc" 1 "$rc"
assert_eq "numjobs=0" "$(printf 'error: maximum number of jobs reached.\nerror: failed to setup shm segment')" "$err"
run_ours --name=a --numjobs=5000
assert_eq "numjobs=5000 rc" 1 "$rc"
assert_match "numjobs=5000" "numjobs: max value out of range: 5000 \(4096 max\)" "$err"
run_ours --name=a --size=1m --time_based 1
assert_eq "time_based then a word" "$(printf "fio: time_based requires a runtime/timeout setting\nfio: unable to open '1' job file")" "$err"
run_ours --readonly --name=a --rw=write --size=1m
assert_eq "readonly rc" 1 "$rc"
assert_eq "readonly" "fio: job <a> has write or trim bit set, but fio is in read-only mode" "$err"

# warnings: time_based without runtime is reported, parse continues
run_ours --name=a --time_based --size=1m --ioengine=null --parse-only
assert_eq "time_based parse-only rc" 0 "$rc"
run_ours --name=a --time_based --size=1m --ioengine=null --warnings-fatal
assert_eq "warnings-fatal rc" 1 "$rc"
assert_eq "warnings-fatal" "fio: time_based requires a runtime/timeout setting" "$err"

# job file errors, as fio words them
nr_jf=0
jf() { nr_jf=$((nr_jf + 1)); printf "$1" >"$T/jf$nr_jf.fio"; same --parse-only "$T/jf$nr_jf.fio"; }
jf ''
jf '# only a comment\n'
jf 'size=1m\n'
jf '[j]\nbogus\n'
jf '[j]\nbs\n'
jf '[j]\nrw=foo\nbogus=2\n'
jf '[j]\ntime_based=\n'
jf '[j]\nbogusxyz=1\nverify_pattern_x=2\nthreadz\n'
jf '[global]\n[j]\nsize=1m\n[global]\nbs=8k\n[k]\n'
jf '[j]\nnumjobs=$ncpus*2\n'
jf '[j]\nsize=\n'
jf '[j]\n  size  =  1m  ; c\n'
# a section header without ']' (fio takes "[j" as job "" and exits 0): refused, one line
printf '[j\nsize=1m\n' >"$T/nobracket.fio"
run_ours --parse-only "$T/nobracket.fio"
assert_eq "no ']' rc" 1 "$rc"
assert_eq "no ']'" "fio: bad section header '[j' in '$T/nobracket.fio'" "$err"

# a bad job file creates nothing either
printf '[global]\nbs=4k\n[j]\nsize=1m\nbogusopt=3\n' >"$T/bad.fio"
run_ours "$T/bad.fio"
assert_eq "bad file rc" 1 "$rc"
assert_eq "bad file" "$(printf 'Bad option <bogusopt=3>\nfio: job j dropped')" "$err"
printf 'size=1m\n[j]\n' >"$T/bad2.fio"
run_ours "$T/bad2.fio"
assert_eq "outside section" "fio: option <size=1m> outside of [] job section" "$err"

compare_all

# Every description iops shows (--cmdhelp's list, --help) is its own wording, and --help lists
# only options fio's --help lists too, in fio's layout ("  --opt<TAB>...").
if [ "$have_ref" = 1 ]; then
	(cd "$T/ref" && "$REF" --cmdhelp >"$T/ref_all" 2>&1 && "$REF" --help >"$T/ref_help" 2>&1)
	run_ours --cmdhelp
	assert_eq "--cmdhelp rc" 0 "$rc"
	nr_ours=$(grep -c '^[a-z_0-9]\+ *: ' "$T/o.out")
	[ "$nr_ours" -ge 60 ] || fail "--cmdhelp lists only $nr_ours options"
	# NAME<TAB>DESCRIPTION from fio's indented tree and from our flat list
	sed -nE 's/^ *([A-Za-z0-9_]+) *: (.*)$/\1\t\2/p' "$T/ref_all" | LC_ALL=C sort -t $'\t' -k1,1 >"$T/ref_all.tsv"
	sed -nE 's/^([A-Za-z0-9_]+) *: (.*)$/\1\t\2/p' "$T/o.out" | LC_ALL=C sort -t $'\t' -k1,1 >"$T/our_all.tsv"
	LC_ALL=C join -t $'\t' "$T/ref_all.tsv" "$T/our_all.tsv" >"$T/both.tsv"
	copied=$(awk -F '\t' '$2 == $3' "$T/both.tsv")
	[ -z "$copied" ] || fail "--cmdhelp: descriptions copied from fio: $copied"
	nr_known=$(wc -l <"$T/both.tsv")
	[ "$nr_known" -ge 40 ] || fail "--cmdhelp: only $nr_known of our options are in fio's list"
	run_ours --help
	grep -E $'^  --[a-z-]+(=[a-z]+)?\t' "$T/o.out" >"$T/our_help"
	[ "$(wc -l <"$T/our_help")" -ge 10 ] || fail "--help: too few option lines"
	while IFS=$'\t' read -r opt rest; do
		ref_line=$(grep -F -m1 -- "$opt"$'\t' "$T/ref_help") || fail "--help: fio has no '$opt'"
		ref_desc=${ref_line#"$opt"}
		ref_desc=${ref_desc#"${ref_desc%%[!$'\t']*}"}	# without the leading tabs
		[ -n "$rest" ] || fail "--help: '$opt' has no description"
		[ "$ref_desc" != "$rest" ] || fail "--help: '$opt' copies fio's text: $rest"
	done <"$T/our_help"
fi
exit 0
