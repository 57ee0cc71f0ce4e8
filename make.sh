#!/bin/sh
# SPDX-License-Identifier: MIT
# ./make.sh [GOAL...]: make, on a machine that may not have it yet (a fresh Debian 12 has no
# make, git or sudo). ./make.sh run and ./make.sh check are the README's two set-up commands.
#
# If make is missing: as root, apt-get installs it; as anyone else, this prints the one
# apt-get line that installs make and the Debian packages the goals need, and stops. Then it
# is plain `make GOAL...`, whose deps step installs (as root) or names (otherwise) what is
# still missing. The package lists live in the Makefile (PKGS_*); this reads them from there.
set -eu
cd "$(dirname "$0")"

# apt_line PKG...: the exact command a non-root user runs (sudo when there is one, else su).
apt_line() {
	if command -v sudo >/dev/null 2>&1; then
		echo "sudo apt-get update && sudo apt-get install -y $*"
	else
		echo "su -c 'apt-get update && apt-get install -y $*'"
	fi
}

# pkgs GOAL...: the Debian packages of the goals, from the Makefile's PKGS_* lists. Building
# and running needs PKGS_BUILD; any other goal (check, image, bench, ...) gets them all.
pkgs() {
	[ $# -gt 0 ] || set -- all
	lists=PKGS_BUILD
	for g in "$@"; do
		case $g in
		all | run | rootfs | build/iops | *=*) ;;
		*) lists='PKGS_[A-Z0-9]*' ;;
		esac
	done
	sed -n "s/^$lists *:= *//p" Makefile | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ' | sed 's/ $//'
}

if ! command -v make >/dev/null 2>&1; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "make.sh: make is missing; install GNU make, then run: make${*:+ $*}" >&2
		exit 1
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "make.sh: make is missing; install it and the packages for '${*:-all}' as root with:" >&2
		echo "  $(apt_line make $(pkgs "$@"))" >&2
		echo "make.sh: then run ./make.sh${*:+ $*} again" >&2
		exit 1
	fi
	echo "make.sh: installing make (apt-get)"
	log=$(mktemp)
	if ! { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q make; } \
		</dev/null >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		rm -f "$log"
		echo "make.sh: apt-get failed; install make by hand: apt-get update && apt-get install -y make" >&2
		exit 1
	fi
	rm -f "$log"
fi
exec make "$@"
