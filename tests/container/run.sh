#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Container test: builds the image from docker/Containerfile with podman (offline, FROM scratch)
# and runs it the way users do: the seed's `ioping -c 20 /iops/data` against a bind mount
# (beside the real ioping), `podman stop` of an endless ioping and of a fio job and SIGINT
# (PID-1 signal handling), the fio and ioping link names, the seed's fio lines, a fio job,
# io_uring under the default seccomp profile, the Kubernetes example's commands under its
# security context; the licence notices in /usr/share/doc/iops/; and the limit: image < 1 MiB,
# nothing in it but the binary, its links and the notices (the binary's size is reported).
#
#   tests/container/run.sh [BUILD_DIR]      (make container-test; BUILD_DIR defaults to build)
#
# CONTAINER_PLATFORM=linux/arm64 (tests/arm64/run.sh, with BUILD_DIR build/arm64) builds the image
# for that platform and runs every container with `podman run --platform`, under qemu-user; a case
# that needs what the emulator lacks (libaio) checks the error line and skips the rest, saying so.
# CONTAINER_CASES="a b ..." runs only those cases (all: every one), CONTAINER_FILTER=word those
# whose name has it; CONTAINER_LABEL is the closing line's first words.
#
# BUILD_DIR must hold iops.stripped and image/rootfs.tar (`make rootfs`). podman runs with
# docker/containers-test.conf: the development VMs run no Docker engine, only podman, and lack
# CAP_SYS_RESOURCE and have hybrid cgroups, so podman needs runc and explicit ulimits there
# (the file says which). Everything this test creates (one image tag, its containers, scratch
# directories) is removed at exit; nothing else is touched.
#
# As root, podman runs rootful (as in CI). As another user, it runs rootless when that works
# (subuid/subgid ranges); when it does not, the cases that need podman print "SKIP name reason"
# and only the file checks run. Closing line: "container: N passed, N failed, N skipped"
# (exit 1 if any failed).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd) || { echo "container: 0 passed, 1 failed, 0 skipped"; exit 1; }
version=${VERSION:-$(sed -n 's/^VERSION *:= *//p' "$repo/Makefile")}
filter=${CONTAINER_FILTER:-}
only=${CONTAINER_CASES:-all}
native=linux/$(case $(uname -m) in aarch64) echo arm64 ;; *) echo amd64 ;; esac)
platform=${CONTAINER_PLATFORM:-$native}
arch=${platform#linux/}

export CONTAINERS_CONF="$repo/docker/containers-test.conf"
PODMAN=${PODMAN:-podman}

# The limit the design sets: the whole image, binary and notices (the binary's size is reported).
MAX_IMAGE_BYTES=$((1024 * 1024))
DOC=usr/share/doc/iops

id=$$-$RANDOM
tag="localhost/iops-ctest:$id"
cname="iops-ctest-$id"		# prefix of every container name this run creates
scratch=
pids=()

cleanup() {
	local p
	[ -n "$scratch" ] || return
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -s "$scratch/real.pid" ] && kill "$(cat "$scratch/real.pid")" 2>/dev/null
	# Only our own containers (by name prefix) and our own tag.
	$PODMAN ps -a --format '{{.Names}}' 2>/dev/null | grep "^$cname" |
		while read -r c; do $PODMAN rm -f -t 0 "$c" >/dev/null 2>&1; done
	$PODMAN rmi -f "$tag" >/dev/null 2>&1
	# rootless: a volume handed to the container's uid 65532 is a subuid's; only podman can remove it
	[ "$(id -u)" = 0 ] || $PODMAN unshare rm -rf "$scratch" 2>/dev/null
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
# skip REASON: this case cannot run here (case_run prints "SKIP name REASON").
skip() { echo "SKIP: $*"; exit 77; }
# need_pyyaml: python3 with its yaml module (PKGS_CTEST's python3-yaml): a failure in CI, where
# it is installed, a skip elsewhere
need_pyyaml() {
	/usr/bin/python3 -c 'import yaml' 2>/dev/null && return
	[ "${CI:-}" != true ] || fail "python3-yaml missing (CI=true, where it is installed: a failure)"
	skip "python3-yaml missing (Debian package python3-yaml)"
}
assert_eq() { [ "$2" = "$3" ] || fail "$1: expected [$2], got [$3]"; }
assert_match() { [[ "$3" =~ $2 ]] || fail "$1: [$3] does not match /$2/"; }
assert_empty_dir() { [ -z "$(ls -A "$2")" ] || fail "$1: left behind: $(ls -A "$2" | tr '\n' ' ')"; }
# A fresh directory for a bind mount.
new_dir() { mktemp -d "$scratch/vol.XXXXXX"; }
# The test flags live in CONTAINERS_CONF; a user's command line is exactly the seed's (plus the
# platform, for an image of another architecture than this machine's).
run() { $PODMAN run --rm --platform "$platform" "$@"; }
# Where libaio cannot run (qemu-user answers ENOSYS to io_setup): its one line on stderr.
LIBAIO_MISSING='(^|'$'\n'')fio: libaio is not available here \(io_setup: [^)]*, errno [0-9]+\): '

# ioping output with numbers and their units masked, and the timing-dependent fast/slow notices
# dropped, so two runs (or ours and the real ioping) can be compared line by line.
ioping_shape() {
	sed -E -e 's/ \((fast|slow)\)$//' \
		-e 's/[0-9]+(\.[0-9]+)? (ns|us|ms|s|min|hour|B|KiB|MiB|GiB|TiB|PiB)\b/N U/g' \
		-e 's/[0-9]+(\.[0-9]+)?( [kMGT])? iops/N iops/g' \
		-e 's/[0-9]+(\.[0-9]+)?/N/g'
}

# check_ioping_run WHAT OUTPUT_FILE NR_REQUESTS: per-request lines 1..N, then the statistics.
check_ioping_run() {
	local what=$1 out=$2 n=$3 i=1 line
	local req='^4 KiB <<< /iops/data \([a-z0-9]+ [^ ]+ [0-9.]+ [KMGTP]?i?B\): request=([0-9]+) time=[0-9.]+ (ns|us|ms|s)( \((warmup|fast|slow)\))?$'
	while IFS= read -r line; do
		[ -z "$line" ] && break
		assert_match "$what: request line $i" "$req" "$line"
		assert_eq "$what: request number" "$i" "${BASH_REMATCH[1]}"
		i=$((i + 1))
	done <"$out"
	[ "$n" = any ] || assert_eq "$what: request lines" "$((n + 1))" "$i"
	assert_match "$what: warmup" '^4 KiB .* request=1 time=.* \(warmup\)$' "$(head -n 1 "$out")"
	local stats
	stats=$(sed -n '/^$/,$p' "$out")
	assert_match "$what: statistics" $'^\n--- /iops/data \\([a-z0-9]+ [^ ]+ [0-9.]+ [KMGTP]?i?B\\) ioping statistics ---\n[0-9]+ requests completed in [0-9.]+ [a-z]+, [0-9.]+ [KMGTP]?i?B read, [0-9.]+( k)? iops, [0-9.]+ [KMGTP]?i?B/s\ngenerated [0-9]+ requests in [0-9.]+ [a-z]+, [0-9.]+ [KMGTP]?i?B, [0-9.]+( k)? iops, [0-9.]+ [KMGTP]?i?B/s\nmin/avg/max/mdev = [0-9.]+ [a-z]+ / [0-9.]+ [a-z]+ / [0-9.]+ [a-z]+ / [0-9.]+ [a-z]+$' "$stats"
}

# --- the cases -------------------------------------------------------------------------------------

t_binary() {
	local bin="$build/iops.stripped" size
	[ -f "$bin" ] || fail "$bin missing (make rootfs)"
	size=$(stat -c %s "$bin")
	echo "stripped binary: $size bytes ($arch)"
	assert_match "file(1)" 'statically linked' "$(file -b "$bin")"
	assert_match "stripped" ', stripped' "$(file -b "$bin")"
	case $arch in
	amd64) assert_match "file(1): architecture" 'x86-64' "$(file -b "$bin")" ;;
	arm64) assert_match "file(1): architecture" 'ARM aarch64' "$(file -b "$bin")" ;;
	esac
}

t_rootfs() {
	local got want
	got=$(tar -tvf "$build/image/rootfs.tar" | awk '{ print $1, $2, $6, $7, $8 }')
	want=$(printf '%s\n' \
		'drwxr-xr-x 0/0 usr/  ' \
		'drwxr-xr-x 0/0 usr/bin/  ' \
		'lrwxrwxrwx 0/0 usr/bin/fio -> iops' \
		'lrwxrwxrwx 0/0 usr/bin/ioping -> iops' \
		'-rwxr-xr-x 0/0 usr/bin/iops  ' \
		'drwxr-xr-x 0/0 usr/share/  ' \
		'drwxr-xr-x 0/0 usr/share/doc/  ' \
		"drwxr-xr-x 0/0 $DOC/  " \
		"-rw-r--r-- 0/0 $DOC/LICENSE  " \
		"-rw-r--r-- 0/0 $DOC/NOTICE  " \
		"drwxr-xr-x 0/0 $DOC/common-licenses/  " \
		"-rw-r--r-- 0/0 $DOC/common-licenses/GPL-2  " \
		"-rw-r--r-- 0/0 $DOC/common-licenses/LGPL-2.1  " \
		"drwxr-xr-x 0/0 $DOC/copyright/  " \
		"-rw-r--r-- 0/0 $DOC/copyright/libaio  " \
		"-rw-r--r-- 0/0 $DOC/copyright/liburing  " \
		"-rw-r--r-- 0/0 $DOC/copyright/musl  " \
		"-rw-r--r-- 0/0 $DOC/copyright/zlib  ")
	assert_eq "rootfs.tar listing" "$(echo "$want" | sed 's/ *$//')" "$(echo "$got" | sed 's/ *$//')"
	cmp -s <(tar -xOf "$build/image/rootfs.tar" usr/bin/iops) "$build/iops.stripped" ||
		fail "rootfs.tar's usr/bin/iops is not iops.stripped"
}

# The licence notices: iops' own LICENSE, Debian's copyright files of what is linked in (and of
# zlib), the licence texts they cite, and a NOTICE naming this architecture and libaio's relinking.
t_notices() {
	local tar="$build/image/rootfs.tar" f
	cmp -s <(tar -xOf "$tar" "$DOC/LICENSE") "$repo/LICENSE" || fail "$DOC/LICENSE is not the repository's LICENSE"
	grep -q '^MIT License$' "$repo/LICENSE" || fail "LICENSE is not the MIT licence"
	for f in musl:musl-dev libaio:libaio-dev liburing:liburing-dev zlib:zlib1g; do
		cmp -s <(tar -xOf "$tar" "$DOC/copyright/${f%%:*}") "/usr/share/doc/${f#*:}/copyright" ||
			fail "$DOC/copyright/${f%%:*} is not /usr/share/doc/${f#*:}/copyright"
	done
	for f in LGPL-2.1 GPL-2; do
		cmp -s <(tar -xOf "$tar" "$DOC/common-licenses/$f") "/usr/share/common-licenses/$f" ||
			fail "$DOC/common-licenses/$f differs from Debian's"
	done
	local notice
	notice=$(tar -xOf "$tar" "$DOC/NOTICE")
	assert_match "NOTICE: platform" "^iops, linux/$arch: " "$notice"
	assert_match "NOTICE: libaio" $'\n  libaio +[^ ]+ +LGPL-2.1-or-later +copyright/libaio' "$notice"
	assert_match "NOTICE: relinking" 'make relink LIBAIO=' "$notice"
	echo "notices: $(tar -tvf "$tar" "$DOC" | awk '$1 ~ /^-/ { s += $3 } END { print s }') bytes in /$DOC"
}

# The root Containerfile (from source) and the Dockerfile are one file (a symlink); its final stage
# must be docker/Containerfile's image; both default to our version.
t_files_in_step() {
	local f
	[ -f "$repo/Containerfile" ] || fail "no Containerfile in the root (podman build . takes it)"
	assert_eq "Dockerfile" "Containerfile" "$(readlink "$repo/Dockerfile")"
	for f in docker/Containerfile Containerfile; do
		assert_eq "$f ARG VERSION" "$version" "$(sed -n 's/^ARG VERSION=//p' "$repo/$f")"
	done
	local cf df
	cf=$(grep -E '^(ARG|LABEL|WORKDIR|VOLUME|ENTRYPOINT|CMD|USER|STOPSIGNAL|ENV)|^ +org\.' "$repo/docker/Containerfile")
	df=$(sed -n '/^FROM scratch/,$p' "$repo/Containerfile" |
		grep -E '^(ARG|LABEL|WORKDIR|VOLUME|ENTRYPOINT|CMD|USER|STOPSIGNAL|ENV)|^ +org\.')
	assert_eq "final stages" "$cf" "$df"
	grep -q '^FROM scratch$' "$repo/docker/Containerfile" || fail "docker/Containerfile is not FROM scratch"
	[ "$(grep -c '^FROM ' "$repo/docker/Containerfile")" = 1 ] || fail "docker/Containerfile has more than one stage"
}

t_build() {
	VERSION=$version CONTAINER_ENGINE=$PODMAN "$repo/tests/container/build-image.sh" "$tag" "$arch=$build/image" ||
		fail "image build failed"
}

t_image_config() {
	local cfg
	cfg=$($PODMAN image inspect --format \
		'{{json .Config.Entrypoint}} {{json .Config.Cmd}} {{.Config.WorkingDir}} {{json .Config.Volumes}} {{.Os}}/{{.Architecture}}' "$tag") ||
		fail "inspect"
	assert_eq "entrypoint cmd workdir volumes" '["/usr/bin/iops"] null /iops/data {"/iops/data":{}} '"$platform" "$cfg"
	local l v
	for l in title description version revision licenses source; do
		v=$($PODMAN image inspect --format "{{index .Config.Labels \"org.opencontainers.image.$l\"}}" "$tag")
		[ "$v" != "<no value>" ] || fail "label org.opencontainers.image.$l missing"
	done
	assert_eq "version label" "$version" \
		"$($PODMAN image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}' "$tag")"
	assert_eq "licenses label" "MIT AND LGPL-2.1-or-later AND Zlib" \
		"$($PODMAN image inspect --format '{{index .Config.Labels "org.opencontainers.image.licenses"}}' "$tag")"
}

t_image_size() {
	local size bin
	local notices tarsize
	size=$($PODMAN image inspect --format '{{.Size}}' "$tag")
	bin=$(stat -c %s "$build/iops.stripped")
	notices=$(tar -tvf "$build/image/rootfs.tar" "$DOC" | awk '$1 ~ /^-/ { s += $3 } END { print s }')
	tarsize=$(stat -c %s "$build/image/rootfs.tar")
	echo "image: $size bytes ($arch: binary $bin bytes, notices $notices bytes)"
	[ "$size" -lt "$MAX_IMAGE_BYTES" ] || fail "image is $size bytes, limit $MAX_IMAGE_BYTES"
	# Three names, one binary (t_rootfs): the image is rootfs.tar and a few KiB of metadata.
	[ "$size" -lt $((tarsize + 16384)) ] || fail "image ($size bytes) holds more than rootfs.tar ($tarsize bytes)"
}

# Exactly the binary, its two links and the working directory; no shell, no libc, no /etc.
t_image_contents() {
	local got want
	$PODMAN create --platform "$platform" --name "$cname-export" "$tag" >/dev/null || fail "create"
	got=$($PODMAN export "$cname-export" | tar -tvf - | awk '{ print $1, $6, $7, $8 }' | sed 's/ *$//' | sort)
	$PODMAN rm "$cname-export" >/dev/null
	want=$( (printf '%s\n' 'drwxr-xr-x iops/' 'drwxr-xr-x iops/data/'
		tar -tvf "$build/image/rootfs.tar" | awk '{ print $1, $6, $7, $8 }' | sed 's/ *$//') | sort)
	assert_eq "image files" "$want" "$got"
	run --entrypoint /bin/sh "$tag" -c true >/dev/null 2>&1 && fail "the image has a shell"
	return 0
}

t_version() {
	assert_eq "iops --version" "iops $version $platform (compatible with fio-3.33 and ioping 1.3)" "$(run "$tag" --version)"
}

t_link_fio() {
	local out rc
	out=$(run --entrypoint /usr/bin/fio "$tag" --version); rc=$?
	assert_eq "fio --version rc" 0 "$rc"
	assert_eq "fio --version" "fio-3.33" "$out"
	assert_eq "--entrypoint fio --version" "fio-3.33" "$(run --entrypoint fio "$tag" --version)"
	assert_eq "iops fio --version" "fio-3.33" "$(run "$tag" fio --version)"
}

t_link_ioping() {
	local out rc
	out=$(run --entrypoint /usr/bin/ioping "$tag" -v); rc=$?
	assert_eq "ioping -v rc" 0 "$rc"
	assert_eq "ioping -v" "ioping 1.3" "$out"
	# The bare name (found through PATH), and the mode word through the default entrypoint.
	assert_eq "--entrypoint ioping -v" "ioping 1.3" "$(run --entrypoint ioping "$tag" -v)"
	assert_eq "iops ioping -v" "ioping 1.3" "$(run "$tag" ioping -v)"
}

# Errors cross the container boundary intact: one line on stderr, the tool's exit code.
t_errors() {
	local err rc
	err=$(run "$tag" ioping -c 1 /iops/data/nonexistent 2>&1 >/dev/null); rc=$?
	assert_eq "ioping missing target rc" 2 "$rc"
	assert_eq "ioping missing target" 'ioping: stat "/iops/data/nonexistent" failed: No such file or directory' "$err"
	err=$(run "$tag" nosuchmode 2>&1 >/dev/null); rc=$?
	assert_eq "unknown mode rc" 1 "$rc"
	assert_match "unknown mode" "^iops: unknown mode 'nosuchmode'" "$err"
}

# The seed: `docker run --rm -v /datas/bench/iops:/iops/data IMAGE ioping -c 20 /iops/data`.
# Started in the background at the beginning (20 requests at the default 1 s interval), next
# to the real ioping with the same options on the host, and checked here.
seed_start() {
	seed_dir=$(new_dir)
	host_dir=$(new_dir)
	{ run --name "$cname-seed" -v "$seed_dir:/iops/data" "$tag" ioping -c 20 /iops/data \
		>"$scratch/seed.out" 2>"$scratch/seed.err" </dev/null; echo $? >"$scratch/seed.rc"; } &
	pids+=($!)
	# The wrapper records ioping's own pid, so that an interrupted test can end it.
	{ /usr/bin/ioping -c 20 "$host_dir" >"$scratch/real.out" 2>&1 </dev/null &
	  echo $! >"$scratch/real.pid"; wait $!; echo $? >"$scratch/real.rc"; } &
	pids+=($!)
}

# wait_rc FILE: the exit code a background step wrote to FILE (it is not our child: the
# cases run in subshells); 60 s at most.
wait_rc() {
	local i
	for i in $(seq 600); do
		[ -s "$1" ] && { cat "$1"; return; }
		sleep 0.1
	done
	echo timeout
}

t_seed_ioping() {
	local rc
	rc=$(wait_rc "$scratch/seed.rc")
	cat "$scratch/seed.out"
	assert_eq "seed rc" 0 "$rc"
	assert_eq "seed stderr" "" "$(cat "$scratch/seed.err")"
	check_ioping_run "seed" "$scratch/seed.out" 20
	assert_empty_dir "seed volume" "$seed_dir"
	assert_eq "real ioping rc ($(cat "$scratch/real.out"))" 0 "$(wait_rc "$scratch/real.rc")"
	sed "s|$host_dir|/iops/data|g" "$scratch/real.out" | ioping_shape >"$scratch/real.shape"
	ioping_shape <"$scratch/seed.out" >"$scratch/seed.shape"
	diff -u "$scratch/real.shape" "$scratch/seed.shape" || fail "seed output differs in shape from ioping 1.3's"
}

# stop_test SIGNAL: an endless ioping, detached; the signal must end it quickly, with the
# summary in the logs, exit code 0 and the volume left empty. As PID 1, iops gets no default
# signal actions from the kernel: this passes only if it handles the signal itself.
stop_test() {
	local sig=$1 dir c="$cname-stop-$1" i start elapsed rc logs
	dir=$(new_dir)
	$PODMAN run -d --platform "$platform" --name "$c" -v "$dir:/iops/data" "$tag" ioping -i 0.1 /iops/data >/dev/null ||
		fail "podman run -d"
	for i in $(seq 50); do
		$PODMAN logs "$c" 2>&1 | grep -q 'request=3 ' && break
		sleep 0.1
	done
	$PODMAN logs "$c" 2>&1 | grep -q 'request=3 ' || fail "no requests logged: $($PODMAN logs "$c" 2>&1 | tail -5)"
	start=$(date +%s%N)
	if [ "$sig" = TERM ]; then
		$PODMAN stop -t 10 "$c" >/dev/null || fail "podman stop"
	else
		$PODMAN kill --signal "$sig" "$c" >/dev/null || fail "podman kill"
		$PODMAN wait "$c" >/dev/null
	fi
	elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
	rc=$($PODMAN inspect --format '{{.State.ExitCode}}' "$c")
	logs=$($PODMAN logs "$c" 2>&1)
	$PODMAN rm "$c" >/dev/null
	echo "SIG$sig: stopped in $elapsed ms, exit code $rc"
	echo "$logs" | tail -5
	# podman itself takes seconds on a loaded machine; what counts is that iops stopped on the
	# signal (its exit code), before podman's 10 s SIGKILL
	[ "$elapsed" -lt 9000 ] || fail "SIG$sig took $elapsed ms to stop the container (podman kills at 10000)"
	assert_eq "exit code after SIG$sig" 0 "$rc"
	printf '%s\n' "$logs" >"$scratch/stop-$sig.out"
	check_ioping_run "SIG$sig" "$scratch/stop-$sig.out" any
	assert_empty_dir "volume after SIG$sig" "$dir"
}
t_stop_sigterm() { stop_test TERM; }
t_stop_sigint() { stop_test INT; }

# fio mode under `podman stop`: as fio on SIGTERM, the report for what was done and exit 128.
t_stop_fio() {
	local dir c="$cname-stop-fio" i start elapsed rc logs
	dir=$(new_dir)
	$PODMAN run -d --platform "$platform" --name "$c" -v "$dir:/iops/data" "$tag" --name=t --filename=f --size=8m --bs=4k \
		--rw=randread --time_based --runtime=60 >/dev/null || fail "podman run -d"
	for i in $(seq 50); do
		$PODMAN logs "$c" 2>&1 | grep -q '^Starting 1 process' && break
		sleep 0.1
	done
	sleep 0.5
	start=$(date +%s%N)
	$PODMAN stop -t 10 "$c" >/dev/null || fail "podman stop"
	elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
	rc=$($PODMAN inspect --format '{{.State.ExitCode}}' "$c")
	logs=$($PODMAN logs "$c" 2>&1)
	$PODMAN rm "$c" >/dev/null
	echo "SIGTERM (fio): stopped in $elapsed ms, exit code $rc"
	echo "$logs" | grep -v '^ ' | tail -8
	[ "$elapsed" -lt 9000 ] || fail "SIGTERM took $elapsed ms to stop fio (podman kills at 10000)"
	assert_eq "fio exit code after SIGTERM" 128 "$rc"
	# stdout and stderr interleave in any order in the logs: the message stands on its own line.
	assert_match "fio signal message" $'(^|\n)fio: terminating on signal 15(\n|$)' "$logs"
	assert_match "fio report" $'\nt: \\(groupid=0, jobs=1\\): err= 0: .*\n  read: IOPS=' "$logs"
	assert_match "fio run status" $'\nRun status group 0 \\(all jobs\\):\n   READ: bw=' "$logs"
	# a stopped run removes the file it laid out (fio keeps it: docs/safety.md, Faults)
	assert_eq "volume after fio" "" "$(ls -A "$dir")"
}

# The second seed line, scaled down: fio options straight after the image name (fio mode).
t_fio_options() {
	local dir out rc
	dir=$(new_dir)
	out=$(run -v "$dir:/iops/data" "$tag" --randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 \
		--name=test --filename=testfile --bs=4k --iodepth=64 --size=4m --readwrite=randrw --rwmixread=75 2>&1)
	rc=$?
	echo "$out"
	if [ "$rc" = 1 ] && [[ "$out" =~ $LIBAIO_MISSING ]]; then
		skip "libaio is not available on $platform here: $(grep -o 'io_setup: [^)]*' <<<"$out")"
	fi
	assert_eq "fio rc" 0 "$rc"
	assert_match "fio job header" '(^|'$'\n'')test: \(g=0\): rw=randrw, bs=\(R\) 4096B-4096B, \(W\) 4096B-4096B, \(T\) 4096B-4096B, ioengine=libaio, iodepth=64' "$out"
	assert_match "fio report" $'\ntest: \\(groupid=0, jobs=1\\): err= 0' "$out"
	assert_match "fio run status" $'\nRun status group 0 \\(all jobs\\):\n +READ: bw=' "$out"
	[ -f "$dir/testfile" ] || fail "fio did not lay out testfile in the volume"
	assert_eq "testfile size" 4194304 "$(stat -c %s "$dir/testfile")"
}

# seed_fio_line WHAT OUT_FILE ARGS...: one of the seed's fio lines (scaled down) in a fresh volume:
# rc 0, its job header, report and group status; the volume holds the file it laid out.
seed_fio_line() {
	local what=$1 out=$2 dir rc
	shift 2
	dir=$(new_dir)
	run -v "$dir:/iops/data" "$tag" "$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	SEED_RC=$rc
}
seed_fio_check() {	# WHAT OUT_FILE NAME RW
	local what=$1 out
	out=$(cat "$2")
	assert_eq "$what rc" 0 "$SEED_RC"
	assert_match "$what job header" "(^|"$'\n'")$3: \\(g=0\\): rw=$4, " "$out"
	assert_match "$what report" $'\n'"$3: \\(groupid=0, jobs=[0-9]+\\): err= 0" "$out"
	assert_match "$what run status" $'\nRun status group 0 \\(all jobs\\):\n +READ: bw=' "$out"
}

# The seed's two fio lines (../shared/seeds/), scaled down: the 128k sequential read, 8 jobs at
# QD256 (time-based, 2 s instead of 600, 16m instead of 100m), and the 4k random 75/25 read/write
# at QD64 (4m instead of 4G). Both name libaio: where it cannot run (qemu-user), each must fail
# with the one line that names libaio and the errno, exit 1 and lay nothing out; the same lines
# then run with --ioengine=psync, which is what that line advises (said in a note line).
t_seed_fio() {
	local seq=(--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=seq-read --filename=seq-read
		--bs=128k --iodepth=256 --size=16m --readwrite=read --runtime=2 --time_based --numjobs=8
		--group_reporting)
	local rnd=(--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test --filename=testfile
		--bs=4k --iodepth=64 --size=4m --readwrite=randrw --rwmixread=75)
	local o="$scratch/seed-fio"
	seed_fio_line seq "$o.seq" "${seq[@]}"
	if [ "$SEED_RC" != 0 ] && [[ "$(cat "$o.seq")" =~ $LIBAIO_MISSING ]]; then
		local line
		line=$(grep -m 1 '^fio: libaio is not available here' "$o.seq")
		assert_eq "seed seq-read without libaio: rc (fio: the jobs that failed)" 8 "$SEED_RC"
		seed_fio_line rnd "$o.rnd" "${rnd[@]}"
		assert_eq "seed randrw without libaio: rc" 1 "$SEED_RC"
		assert_match "seed randrw without libaio: the line" "$LIBAIO_MISSING" "$(cat "$o.rnd")"
		echo "fallback: libaio is not available on $platform here ($line); the seed's lines with --ioengine=psync:"
		seq=("${seq[@]/--ioengine=libaio/--ioengine=psync}")
		rnd=("${rnd[@]/--ioengine=libaio/--ioengine=psync}")
		seed_fio_line seq "$o.seq" "${seq[@]}"
	fi
	seed_fio_check "seed seq-read" "$o.seq" seq-read read
	seed_fio_line rnd "$o.rnd" "${rnd[@]}"
	seed_fio_check "seed randrw" "$o.rnd" test randrw
}

# io_uring under the runtime's default seccomp profile: the expectation is asked first, not
# taken from the result: the profile allows io_uring_setup (its JSON, read here) and the kernel
# offers io_uring (build/tools/probe on the host: the container shares its kernel) -> the job
# runs; otherwise it fails with the message that points to libaio (Docker's profile, podman's
# on these machines). Both branches on every machine: unconfined (the kernel's answer alone) and
# under a profile of the test's own that refuses io_uring_setup.
uring_job() {	# EXPECT(run|blocked|either) WHAT [podman options...]
	local want=$1 what=$2 dir out err rc
	shift 2
	dir=$(new_dir)
	out=$(run "$@" -v "$dir:/iops/data" "$tag" --name=u --filename=f --size=1m --bs=4k --rw=randread \
		--ioengine=io_uring 2>"$scratch/uring.err"); rc=$?
	err=$(cat "$scratch/uring.err")
	echo "io_uring: $what: expect $want, got exit $rc"; echo "$out"; echo "$err"
	if [ "$want" = either ]; then
		[ "$rc" = 0 ] && want=run || want=blocked
		echo "io_uring: $what: the emulated platform's answer cannot be probed from the host: took $want"
	fi
	if [ "$want" = run ]; then
		assert_eq "$what: rc" 0 "$rc"
		assert_match "$what: report" 'u: \(groupid=0, jobs=1\): err= 0' "$out"
	else
		assert_eq "$what: rc" 1 "$rc"
		assert_match "$what: message" '(^|'$'\n'')fio: io_uring .*--ioengine=libaio' "$err"
	fi
}
t_io_uring() {
	local probe kernel=run profile=/usr/share/containers/seccomp.json allowed
	probe=$build/tools/probe
	[ -x "$probe" ] || make -s -C "$repo" "$probe" >/dev/null || fail "cannot build $probe"
	"$probe" io_uring >/dev/null || kernel=blocked
	# another architecture runs under qemu-user, whose system calls are not the host kernel's
	# (qemu 7.2 has no io_uring): the host's probe does not answer for it
	[ "$platform" = "$native" ] || kernel=either
	# the default profile: podman's (containers.conf may name another: then that one)
	allowed=$(python3 - "$profile" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except OSError:
    print("unknown"); sys.exit()
allow = d.get("defaultAction") == "SCMP_ACT_ALLOW"
for s in d.get("syscalls", []):
    if "io_uring_setup" in s.get("names", []) and not s.get("includes") and not s.get("excludes"):
        allow = s.get("action") == "SCMP_ACT_ALLOW"
print("yes" if allow else "no")
PY
)
	[ "$allowed" != unknown ] || skip "no default seccomp profile at $profile to read"
	if [ "$allowed" = yes ] && [ "$kernel" != blocked ]; then
		uring_job "$kernel" "default profile (allows io_uring)"
	else
		uring_job blocked "default profile (allows io_uring: $allowed; kernel: $kernel)"
	fi
	uring_job "$kernel" "unconfined (the kernel's answer)" --security-opt seccomp=unconfined
	printf '%s\n' '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["io_uring_setup"],' \
		'"action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}' >"$scratch/no-uring.json"
	uring_job blocked "a profile refusing io_uring_setup" --security-opt "seccomp=$scratch/no-uring.json"
}

# docker/k8s-job.yaml: well-formed, restricted, and its two commands work under the same
# restrictions (non-root uid/gid 65532, read-only root, no capabilities, no privilege
# escalation). ioping gets -i 0 and fio a 16 MiB size appended, to keep this fast.
t_k8s_job() {
	local py=/usr/bin/python3 spec dir
	need_pyyaml
	spec=$($py - "$repo/docker/k8s-job.yaml" <<-'EOF'
	import sys, yaml
	docs = list(yaml.safe_load_all(open(sys.argv[1])))
	kinds = [d["kind"] for d in docs]
	assert kinds == ["PersistentVolumeClaim", "Job"], kinds
	pvc, job = docs
	pod = job["spec"]["template"]["spec"]
	assert pod["restartPolicy"] == "Never"
	psc = pod["securityContext"]
	assert psc["runAsNonRoot"] is True and psc["runAsUser"] != 0, psc
	assert psc["seccompProfile"]["type"] == "RuntimeDefault", psc
	vol = [v for v in pod["volumes"] if v.get("persistentVolumeClaim")]
	assert len(vol) == 1 and vol[0]["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
	steps = pod["initContainers"] + pod["containers"]
	assert [c["name"] for c in steps] == ["ioping", "fio"], steps
	for c in steps:
	    sc = c["securityContext"]
	    assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, sc
	    assert sc["capabilities"]["drop"] == ["ALL"], sc
	    assert [(m["name"], m["mountPath"]) for m in c["volumeMounts"]] == [(vol[0]["name"], "/iops/data")]
	    assert len(c["command"]) == 1
	    print(psc["runAsUser"], psc["runAsGroup"], c["command"][0], *c["args"], sep="\t")
	EOF
	) || fail "docker/k8s-job.yaml"
	dir=$(new_dir)
	local uid gid cmd args=() out rc
	while IFS=$'\t' read -r uid gid cmd rest; do
		IFS=$'\t' read -r -a args <<<"$rest"
		case $cmd in
			/usr/bin/ioping) args+=(-i 0) ;;
			/usr/bin/fio) args+=(--size=16m) ;;
			*) fail "unexpected command $cmd" ;;
		esac
		# rootless: uid 65532 of the container is a subuid of ours, which only podman can chown to
		if [ "$(id -u)" = 0 ]; then chown "$uid:$gid" "$dir"
		else $PODMAN unshare chown "$uid:$gid" "$dir" 2>/dev/null ||
			skip "rootless podman has no uid $uid to hand the volume to (no subuid/subgid range for $(id -un))"
		fi
		out=$(run --user "$uid:$gid" --read-only --read-only-tmpfs=false --cap-drop ALL \
			--security-opt no-new-privileges -v "$dir:/iops/data" --entrypoint "$cmd" "$tag" \
			"${args[@]}" 2>&1 </dev/null); rc=$?
		echo "\$ $cmd ${args[*]}"
		echo "$out"
		if [ "$cmd" = /usr/bin/fio ] && [ "$rc" = 1 ] && [[ "$out" =~ $LIBAIO_MISSING ]]; then
			skip "the fio step names libaio, which is not available on $platform here (the ioping step passed)"
		fi
		assert_eq "k8s $cmd rc" 0 "$rc"
		if [ "$cmd" = /usr/bin/ioping ]; then
			printf '%s\n' "$out" >"$scratch/k8s-ioping.out"
			check_ioping_run "k8s ioping" "$scratch/k8s-ioping.out" 20
			assert_empty_dir "k8s volume after ioping" "$dir"
		else
			assert_match "k8s fio report" 'Run status group 0 \(all jobs\):' "$out"
		fi
	done <<<"$spec"
}

# docker/k8s/suite-job.yaml: well-formed and restricted like the bench Job, and its command with
# its environment (shortened: FIO_CAPACITY_MB=64, FIO_RUNTIME=1) works under the same
# restrictions: the configuration echo, both benchmarks' lines, and an empty volume after.
t_k8s_suite() {
	local py=/usr/bin/python3 spec dir uid gid cmd envs=() out rc
	need_pyyaml
	spec=$($py - "$repo/docker/k8s/suite-job.yaml" <<-'EOF'
	import sys, yaml
	docs = list(yaml.safe_load_all(open(sys.argv[1])))
	assert [d["kind"] for d in docs] == ["PersistentVolumeClaim", "Job"]
	pvc, job = docs
	pod = job["spec"]["template"]["spec"]
	assert pod["restartPolicy"] == "Never"
	psc = pod["securityContext"]
	assert psc["runAsNonRoot"] is True and psc["runAsUser"] != 0, psc
	assert psc["seccompProfile"]["type"] == "RuntimeDefault", psc
	(c,) = pod["containers"]
	sc = c["securityContext"]
	assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, sc
	assert sc["capabilities"]["drop"] == ["ALL"], sc
	assert pod["volumes"][0]["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
	assert c["command"] == ["/usr/bin/iops"] and c["args"] == ["suite"], c
	env = {e["name"]: e["value"] for e in c["env"]}
	assert env["TARGET_PATH"] == c["volumeMounts"][0]["mountPath"] == "/iops/data"
	env.update(FIO_CAPACITY_MB="64", FIO_RUNTIME="1")
	print(psc["runAsUser"], psc["runAsGroup"], *[k + "=" + v for k, v in env.items()], sep="\t")
	EOF
	) || fail "docker/k8s/suite-job.yaml"
	dir=$(new_dir)
	IFS=$'\t' read -r uid gid rest <<<"$spec"
	IFS=$'\t' read -r -a envs <<<"$rest"
	if [ "$(id -u)" = 0 ]; then chown "$uid:$gid" "$dir"
	else $PODMAN unshare chown "$uid:$gid" "$dir" 2>/dev/null ||
		skip "rootless podman has no uid $uid to hand the volume to"
	fi
	out=$(run --user "$uid:$gid" --read-only --read-only-tmpfs=false --cap-drop ALL \
		--security-opt no-new-privileges -v "$dir:/iops/data" "${envs[@]/#/--env=}" "$tag" suite 2>&1 </dev/null)
	rc=$?
	echo "$out"
	assert_eq "k8s suite rc" 0 "$rc"
	assert_match "k8s suite: configuration" $'^Configuration:\nList of benchmarks to run: fio meta \\(BENCHMARKS\\)\nTarget path for tests: /iops/data \\(TARGET_PATH\\)' "$out"
	assert_match "k8s suite: fio" $'\nBenchmark: fio\nMax write bandwidth: .*\nMax read throughput: [0-9]+ IOPS\nBenchmark: meta\n' "$out"
	assert_match "k8s suite: meta" $'\nTime to create files: [0-9.]+ s\nTime to remove files: [0-9.]+ s\n' "$out"
	assert_empty_dir "k8s suite volume" "$dir"
}

# The image with no arguments runs the quick suite on its working directory, the volume;
# IOPS_QUICK (docs/quick.md) shortens it. The six summary lines, and the volume as it was.
t_quick_noargs() {
	local dir out rc
	dir=$(new_dir)
	echo keep >"$dir/mine"
	out=$(run -e IOPS_QUICK="--runtime=1 --size=64m" -v "$dir:/iops/data" "$tag" 2>&1 </dev/null); rc=$?
	echo "$out"
	assert_eq "quick rc" 0 "$rc"
	# where libaio cannot run (qemu-user), the psync fallback: said in one line, and run
	if [[ "$out" =~ (^|$'\n')"iops: quick: libaio is not available here (io_setup: "[^$'\n']*"): psync instead, the queue depth as numjobs"($'\n'|$) ]]; then
		echo "fallback: libaio is not available on $platform here: the quick suite ran its psync fallback"
		assert_match "quick: psync plan" $'(^|\n)iops quick: \., .* 6 steps of 1 s, psync, ' "$out"
		assert_match "quick: psync lines" $'\nfio --name=randread-qd32 .*--ioengine=psync .*--numjobs=[0-9]+ --group_reporting ' "$out"
	else
		assert_match "quick: libaio plan" '(^|'$'\n'')iops quick: \., .* 6 steps of 1 s, libaio, ' "$out"
	fi
	assert_match "quick: six lines" $'Max write bandwidth: [0-9.]+ [KMG]iB/s\nMax read bandwidth: [0-9.]+ [KMG]iB/s\nWrite I/O latency: [0-9.]+ ms\nRead I/O latency: [0-9.]+ ms\nMax write throughput: [0-9]+ IOPS\nMax read throughput: [0-9]+ IOPS' "$out"
	assert_eq "quick: volume as it was" "mine" "$(ls -A "$dir")"
}

# --- the runner ------------------------------------------------------------------------------------
pass=0 fail=0 skip=0 failed=()
# filtered NAME: true if CONTAINER_FILTER=word or CONTAINER_CASES leaves this case out (the image
# build always runs).
filtered() {
	[ "$1" = build ] && return 1
	[ -n "$filter" ] && [[ "$1" != *$filter* ]] && return 0
	[ "$only" != all ] && [[ " $(echo $only) " != *" $1 "* ]]
}
case_skip() {
	filtered "$1" && return
	skip=$((skip + 1))
	printf 'SKIP %s %s\n' "$1" "$2"
}
case_run() {
	local name=$1 log start rc
	filtered "$name" && return
	log="$scratch/log.$name"
	start=$(date +%s%N)
	("t_$name") >"$log" 2>&1
	rc=$?
	if [ "$rc" = 77 ] && grep -q '^SKIP: ' "$log"; then
		skip=$((skip + 1))
		printf 'SKIP %s %s\n' "$name" "$(sed -n 's/^SKIP: //p' "$log" | head -n 1)"
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		printf 'PASS %-40s %5.1fs\n' "$name" "$(( ($(date +%s%N) - start) / 1000000 ))e-3"
		grep -E '^(stripped binary|image|notices|fallback|io_uring|SIG[A-Z]+( \(fio\))?): ' "$log" | sed 's/^/     /'
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %s\n' "$name"
		sed 's/^/    | /' "$log" | tail -40
	fi
}

# The cases that need podman, after the build, in order.
podman_cases=(image_config image_size image_contents version link_fio link_ioping errors
	stop_sigterm stop_sigint stop_fio seed_fio fio_options io_uring k8s_job k8s_suite quick_noargs seed_ioping)

# rootless_probe: as a user other than root, build the image and run it once (the build case
# then builds it again, so the probe's image goes); on failure, the reason (podman's last two
# lines) on stdout and false.
rootless_probe() {
	local out ok=1
	if ! out=$(VERSION=$version CONTAINER_ENGINE=$PODMAN "$repo/tests/container/build-image.sh" \
		"$tag" "$arch=$build/image" 2>&1) || ! out=$(run "$tag" --version 2>&1); then
		ok=
	fi
	$PODMAN rmi -f "$tag" >/dev/null 2>&1
	if [ -z "$ok" ]; then
		echo "rootless podman does not work for $(id -un) here ($(printf '%s\n' "$out" |
			grep -v 'level=warning' | tail -n 2 | paste -sd ';' | sed 's/;/; /' | cut -c1-160)); run the test as root"
		return 1
	fi
}

if ! command -v "$PODMAN" >/dev/null 2>&1; then
	echo "FAIL podman: not installed (make deps)"
	echo "container: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
scratch=$(mktemp -d "$build/ctest.XXXXXX") || { echo "container: 0 passed, 1 failed, 0 skipped"; exit 1; }

case_run binary
case_run rootfs
case_run notices
case_run files_in_step
if [ "$(id -u)" != 0 ] && ! why=$(rootless_probe); then
	for c in build "${podman_cases[@]}"; do case_skip "$c" "$why"; done
else
	case_run build
fi
if $PODMAN image exists "$tag" 2>/dev/null; then
	filtered seed_ioping || seed_start
	case_run image_config
	case_run image_size
	case_run image_contents
	case_run version
	case_run link_fio
	case_run link_ioping
	case_run errors
	case_run stop_sigterm
	case_run stop_sigint
	case_run stop_fio
	case_run seed_fio
	case_run fio_options
	case_run io_uring
	case_run k8s_job
	case_run k8s_suite
	case_run quick_noargs
	[ -n "${seed_dir:-}" ] && case_run seed_ioping
fi
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "${CONTAINER_LABEL:-container}: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
