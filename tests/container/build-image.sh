#!/usr/bin/env bash
# Build the iops image from docker/Containerfile around a context made by `make rootfs`.
#   tests/container/build-image.sh CONTEXT_DIR TAG
# CONTEXT_DIR holds rootfs.tar (build/image by default). The engine is $CONTAINER_ENGINE if set,
# else podman, else docker. VERSION (default: the Makefile's) becomes the version label;
# the git commit and remote URL, when there are any, become the revision and source labels.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
ctx=${1:?usage: build-image.sh CONTEXT_DIR TAG}
tag=${2:?usage: build-image.sh CONTEXT_DIR TAG}

if [ ! -f "$ctx/rootfs.tar" ]; then
	echo "build-image: $ctx/rootfs.tar is missing; run 'make rootfs' (or 'make image')" >&2
	exit 1
fi
engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
	if command -v podman >/dev/null 2>&1; then engine=podman
	elif command -v docker >/dev/null 2>&1; then engine=docker
	else echo "build-image: neither podman nor docker found; install one (apt-get install podman)" >&2; exit 1
	fi
fi
version=${VERSION:-$(sed -n 's/^VERSION *:= *//p' "$repo/Makefile")}
revision=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)
source_url=$(git -C "$repo" remote get-url origin 2>/dev/null || true)
case $source_url in
	http://* | https://*) ;;
	*) source_url= ;;	# a local path or an ssh address is no use to the image's users
esac

# podman keeps an intermediate image per instruction unless told not to; the image is tiny and
# rebuilds in a second, so leave nothing behind but the tagged result.
layers=()
[ "$(basename "$engine")" = podman ] && layers=(--layers=false)
"$engine" build --quiet "${layers[@]}" \
	--build-arg VERSION="$version" \
	--build-arg REVISION="$revision" \
	--build-arg SOURCE="$source_url" \
	-f "$repo/docker/Containerfile" -t "$tag" "$ctx" >/dev/null
size=$("$engine" image inspect --format '{{.Size}}' "$tag")
echo "image $tag: $size bytes ($engine)"
