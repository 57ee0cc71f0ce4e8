#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The root Containerfile (the from-source build `podman build .` takes), tested without a registry:
#
#   tests/container/source-build.sh BUILD_DIR [ARCH...]      (make image-source; ARCH: amd64 arm64)
#
# The Containerfile's build stage needs a Debian 12 image. No registry is reachable on the
# development machines, Debian's package mirror is: debootstrap lays out a minimal bookworm for
# this machine's architecture in BUILD_DIR/debian-12, `podman import` makes it the image
# localhost/iops-debian:12 (kept, so the next run skips this; `podman rmi localhost/iops-debian:12`
# removes it), and the directory goes. Then, for each ARCH, `podman build --platform linux/ARCH
# --build-arg DEBIAN=localhost/iops-debian:12 .` in the repository's root: the build stage runs on
# this machine's platform and cross-compiles for another (no emulator in the build), and the image
# is checked: FROM scratch (the files of rootfs.tar only), under 1 MiB, `--version` naming the
# platform (run under qemu-user for arm64), the licence notices, an ioping run against a volume.
# The images built are removed at exit. Slow (debootstrap, apt-get in the build stage: minutes),
# so not part of make check. Needs root (debootstrap) and podman; closing line
# "image-source: N passed, N failed, N skipped" (one per ARCH).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$(mkdir -p "${1:?usage: source-build.sh BUILD_DIR [ARCH...]}" && cd "$1" && pwd)
shift
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(amd64 arm64)
export CONTAINERS_CONF="$repo/docker/containers-test.conf"
PODMAN=${PODMAN:-podman}
base=localhost/iops-debian:12
native=$(case $(uname -m) in aarch64) echo arm64 ;; *) echo amd64 ;; esac)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
id=$$-$RANDOM
pass=0 fail=0 skip=0 made=()
cleanup() {
	local t
	for t in "${made[@]}"; do $PODMAN rmi -f "$t" >/dev/null 2>&1; done
	rm -rf "$build/debian-12" "$build/source-build.$id"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
finish() {
	echo "image-source: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}
skip_all() {
	echo "SKIP image-source: $*"
	skip=${#archs[@]}
	finish
}

command -v "$PODMAN" >/dev/null 2>&1 || skip_all "podman is not installed (make deps)"
[ "$(id -u)" = 0 ] || skip_all "debootstrap and the build need root"

# --- the base image ------------------------------------------------------------------------------
if ! $PODMAN image exists "$base"; then
	command -v debootstrap >/dev/null 2>&1 || skip_all "debootstrap is not installed (apt-get install debootstrap)"
	start=$(date +%s)
	rm -rf "$build/debian-12"
	if ! debootstrap --variant=minbase bookworm "$build/debian-12" "$mirror" >"$build/debootstrap.log" 2>&1; then
		tail -n 20 "$build/debootstrap.log"
		skip_all "debootstrap of bookworm from $mirror failed (no mirror here?)"
	fi
	tar -C "$build/debian-12" -c . | $PODMAN import --change 'CMD ["/bin/bash"]' - "$base" >/dev/null ||
		{ echo "FAIL: podman import"; fail=${#archs[@]}; finish; }
	rm -rf "$build/debian-12"
	echo "base image $base: debootstrap bookworm ($mirror) in $(($(date +%s) - start)) s"
fi

# --- one build per architecture ------------------------------------------------------------------
# check ARCH TAG: what the image must be
check() {
	local arch=$1 tag=$2 got size notice dir out
	got=$($PODMAN image inspect --format '{{.Os}}/{{.Architecture}} {{json .Config.Entrypoint}} {{.Config.WorkingDir}}' "$tag")
	[ "$got" = "linux/$arch [\"/usr/bin/iops\"] /iops/data" ] || { echo "FAIL: config: $got"; return 1; }
	size=$($PODMAN image inspect --format '{{.Size}}' "$tag")
	[ "$size" -lt $((1024 * 1024)) ] || { echo "FAIL: image is $size bytes, limit 1 MiB"; return 1; }
	$PODMAN create --platform "linux/$arch" --name "iops-srcbuild-$id" "$tag" >/dev/null || { echo "FAIL: create"; return 1; }
	got=$($PODMAN export "iops-srcbuild-$id" | tar -tf - | grep -v '^iops/' | sort | tr '\n' ' ')
	notice=$($PODMAN export "iops-srcbuild-$id" | tar -xOf - usr/share/doc/iops/NOTICE)
	$PODMAN rm "iops-srcbuild-$id" >/dev/null
	local want="usr/ usr/bin/ usr/bin/fio usr/bin/ioping usr/bin/iops usr/share/ usr/share/doc/ usr/share/doc/iops/ usr/share/doc/iops/LICENSE usr/share/doc/iops/NOTICE usr/share/doc/iops/common-licenses/ usr/share/doc/iops/common-licenses/GPL-2 usr/share/doc/iops/common-licenses/LGPL-2.1 usr/share/doc/iops/copyright/ usr/share/doc/iops/copyright/libaio usr/share/doc/iops/copyright/liburing usr/share/doc/iops/copyright/musl usr/share/doc/iops/copyright/zlib "
	[ "$got" = "$want" ] || { echo "FAIL: files: $got"; return 1; }
	[[ "$notice" == "iops, linux/$arch: "* ]] || { echo "FAIL: NOTICE: $notice"; return 1; }
	got=$($PODMAN run --rm --platform "linux/$arch" "$tag" --version 2>&1)
	[[ "$got" == "iops "*" linux/$arch (compatible with fio-3.33 and ioping 1.3)" ]] || { echo "FAIL: --version: $got"; return 1; }
	dir=$(mktemp -d "$build/source-build.$id.XXXXXX")
	out=$($PODMAN run --rm --platform "linux/$arch" -v "$dir:/iops/data" "$tag" ioping -c 3 -i 0 /iops/data 2>&1) ||
		{ echo "FAIL: ioping: $out"; return 1; }
	rm -rf "$dir"
	echo "$out" | tail -n 1
	echo "image $tag: linux/$arch, $size bytes, $got"
}

for arch in "${archs[@]}"; do
	tag=localhost/iops-srcbuild:$id-$arch
	start=$(date +%s)
	log="$build/source-build-$arch.log"
	# host networking for apt-get in the build stage (the test configuration has no network).
	# BUILDPLATFORM: podman 4.3 (buildah 1.28) sets it to the target platform, which would look
	# for an arm64 base image; the build stage runs on this machine's and cross-compiles.
	if ! $PODMAN build --layers=false --network host --platform "linux/$arch" --build-arg DEBIAN="$base" \
		--build-arg BUILDPLATFORM="linux/$native" -t "$tag" "$repo" >"$log" 2>&1; then
		tail -n 30 "$log"
		echo "FAIL $arch: podman build --platform linux/$arch . (log: $log)"
		fail=$((fail + 1))
		continue
	fi
	made+=("$tag")
	echo "built linux/$arch from source in $(($(date +%s) - start)) s"
	if check "$arch" "$tag"; then
		pass=$((pass + 1))
		echo "PASS $arch"
	else
		fail=$((fail + 1))
		echo "FAIL $arch"
	fi
done
finish
