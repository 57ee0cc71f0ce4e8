#!/bin/sh
# SPDX-License-Identifier: MIT
# The licence notices the image carries in /usr/share/doc/iops/ (the Makefile's rootfs step):
#
#   docker/notices.sh ARCH OUTDIR LINK_WORD...
#
# ARCH is the Debian architecture the binary was built for (amd64, arm64); LINK_WORDs are the
# libraries on its link line (the Makefile's MUSL_LIBS: /usr/lib/.../libaio.a, -lz, ...). Writes
#   OUTDIR/LICENSE                    iops' own (MIT)
#   OUTDIR/NOTICE                     what is linked into the binary, versions, licences, relinking
#   OUTDIR/copyright/{musl,libaio,liburing,zlib}   Debian's copyright files of those libraries
#   OUTDIR/common-licenses/{LGPL-2.1,GPL-2}        the texts those files refer to by path
# zlib's notice is there even before zlib is linked (NOTICE says whether it is).
set -eu
arch=${1:?usage: notices.sh ARCH OUTDIR LINK_WORD...}
out=${2:?usage: notices.sh ARCH OUTDIR LINK_WORD...}
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)

# linked NAME: is library NAME (libaio, liburing, libz) on the link line?
linked() {
	for w in $links; do
		case $w in
		*/"$1".a | -l"${1#lib}") return 0 ;;
		esac
	done
	return 1
}
links="$*"

# version PKG: the Debian version of PKG for ARCH (or of the architecture-independent package)
version() {
	dpkg-query -W -f '${Version}' "$1:$arch" 2>/dev/null || dpkg-query -W -f '${Version}' "$1" 2>/dev/null ||
		echo unknown
}

# copy PKG... NAME: the first of the packages' copyright files that exists, as copyright/NAME
copy() {
	name=$1
	shift
	for p in "$@"; do
		if [ -f "/usr/share/doc/$p/copyright" ]; then
			install -m 0644 "/usr/share/doc/$p/copyright" "$out/copyright/$name"
			return 0
		fi
	done
	echo "notices.sh: no copyright file for $name (/usr/share/doc/{$*}/copyright)" >&2
	exit 1
}

rm -rf "$out"
mkdir -p "$out/copyright" "$out/common-licenses"
install -m 0644 "$repo/LICENSE" "$out/LICENSE"
copy musl musl-dev musl
copy libaio libaio-dev libaio1
copy liburing liburing-dev liburing2
copy zlib zlib1g-dev zlib1g
for l in LGPL-2.1 GPL-2; do
	install -m 0644 "/usr/share/common-licenses/$l" "$out/common-licenses/$l"
done

state() { if linked "$1"; then echo linked; else echo "not linked into this build"; fi; }
row() { printf '  %-9s %-24s %-47s %s\n' "$@"; }
{
	echo "iops, linux/$arch: one static binary, /usr/bin/iops (MIT, see LICENSE)."
	echo
	echo "Linked into it: Debian 12's packages for $arch (version), their licences, and where their"
	echo "copyright files are here:"
	row musl "$(version musl-dev)" "MIT (a few files BSD, ISC, public domain)" copyright/musl
	row libaio "$(version libaio-dev)" "LGPL-2.1-or-later" copyright/libaio
	row liburing "$(version liburing-dev)" "MIT" copyright/liburing
	row zlib "$(version zlib1g-dev)" "Zlib ($(state libz))" copyright/zlib
	row libgcc "(gcc's)" "GPL-3.0 with the GCC Runtime Library Exception" "(no notice required)"
	echo "The licence texts that the copyright files cite as /usr/share/common-licenses/NAME are in"
	echo "common-licenses/."
	echo
	echo "libaio is under the LGPL-2.1: you may relink iops against another libaio. The complete source"
	echo "of iops is published (the image's label org.opencontainers.image.source); in a clone of it,"
	echo "  make relink LIBAIO=/path/to/libaio.a"
	echo "links the object files of build/iops again with that libaio.a (docs/containers.md, Licences)."
} >"$out/NOTICE"
