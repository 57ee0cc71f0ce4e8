#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the iops images from docker/Containerfile around contexts made by `make rootfs`:
#   tests/container/build-image.sh TAG ARCH=CONTEXT_DIR...
# Each CONTEXT_DIR holds rootfs.tar for ARCH (amd64: build/image, arm64: build/arm64/image). With
# one ARCH, TAG is that image. With several, each is tagged TAG:ARCH (TAG-ARCH when TAG has a tag
# of its own: reg/iops:0.1.0-arm64) and TAG becomes an OCI image index of them (podman manifest;
# an image or index already called TAG is replaced). The engine is $CONTAINER_ENGINE if set, else
# podman, else docker (one architecture only: docker has no local manifest lists). VERSION
# (default: the Makefile's) becomes the version label; the git commit and remote URL, when there
# are any, become the revision and source labels.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: build-image.sh TAG ARCH=CONTEXT_DIR..."
tag=${1:?$usage}
shift
[ $# -ge 1 ] || { echo "$usage" >&2; exit 1; }

for spec in "$@"; do
	ctx=${spec#*=}
	case $spec in
	amd64=* | arm64=*) ;;
	*) echo "build-image: '$spec': ARCH=CONTEXT_DIR, ARCH amd64 or arm64" >&2; exit 1 ;;
	esac
	if [ ! -f "$ctx/rootfs.tar" ]; then
		echo "build-image: $ctx/rootfs.tar is missing; run 'make rootfs' (or 'make image')" >&2
		exit 1
	fi
done
engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
	if command -v podman >/dev/null 2>&1; then engine=podman
	elif command -v docker >/dev/null 2>&1; then engine=docker
	else echo "build-image: neither podman nor docker found; install one (apt-get install podman)" >&2; exit 1
	fi
fi
podman=
[ "$(basename "$engine")" = podman ] && podman=1
if [ $# -gt 1 ] && [ -z "$podman" ]; then
	echo "build-image: an image index of several architectures needs podman (or: make image ARCH=amd64)" >&2
	exit 1
fi
version=${VERSION:-$(sed -n 's/^VERSION *:= *//p' "$repo/Makefile")}
revision=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)
source_url=$(git -C "$repo" remote get-url origin 2>/dev/null || true)
case $source_url in
	http://* | https://*) ;;
	*) source_url= ;;	# a local path or an ssh address is no use to the image's users
esac

# arch_tag ARCH: the tag of one architecture's image in an index
arch_tag() {
	case ${tag##*/} in
	*:*) echo "$tag-$1" ;;
	*) echo "$tag:$1" ;;
	esac
}

# build ARCH CONTEXT TAG: one FROM-scratch image for linux/ARCH. podman keeps an intermediate
# image per instruction unless told not to; the image is tiny and rebuilds in a second, so leave
# nothing behind but the tagged result.
build() {
	local layers=()
	[ -n "$podman" ] && layers=(--layers=false)
	# an index of the same name would take the tag's place: the image replaces it
	[ -n "$podman" ] && "$engine" manifest exists "$3" 2>/dev/null && "$engine" manifest rm "$3" >/dev/null
	"$engine" build --quiet "${layers[@]}" --platform "linux/$1" \
		--build-arg VERSION="$version" \
		--build-arg REVISION="$revision" \
		--build-arg SOURCE="$source_url" \
		-f "$repo/docker/Containerfile" -t "$3" "$2" >/dev/null
	echo "image $3: linux/$1, $("$engine" image inspect --format '{{.Size}}' "$3") bytes ($engine)"
}

if [ $# = 1 ]; then
	build "${1%%=*}" "${1#*=}" "$tag"
	exit 0
fi
tags=()
for spec in "$@"; do
	t=$(arch_tag "${spec%%=*}")
	build "${spec%%=*}" "${spec#*=}" "$t"
	tags+=("$t")
done
if "$engine" manifest exists "$tag" 2>/dev/null; then
	"$engine" manifest rm "$tag" >/dev/null
elif "$engine" image exists "$tag" 2>/dev/null; then
	"$engine" rmi "$tag" >/dev/null
fi
"$engine" manifest create "$tag" >/dev/null
for t in "${tags[@]}"; do
	"$engine" manifest add "$tag" "containers-storage:$t" >/dev/null
done
echo "image index $tag: $("$engine" manifest inspect "$tag" |
	python3 -c 'import json,sys; print(", ".join(m["platform"]["os"] + "/" + m["platform"]["architecture"] for m in json.load(sys.stdin)["manifests"]))')"
