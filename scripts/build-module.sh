#!/bin/bash
# Build fdr.ko against one kernel build tree with W=1 and fail on any
# compiler or modpost warning (Kbuild itself only fails on errors).
#
# usage: scripts/build-module.sh KDIR [SRCDIR]
#   KDIR    kernel build tree (e.g. /lib/modules/V/build)
#   SRCDIR  tree holding Kbuild, kmod/ and uapi/ (default: the checkout);
#           the module is built there, as kmod/fdr.ko
set -eu
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 KDIR [SRCDIR]" >&2; exit 2; }
kdir=$1
src=${2:-$top}

[ -f "$kdir/Makefile" ] || {
	echo "build-module: $kdir is not a kernel build tree (install linux-headers-<version>, or pass KDIR=)" >&2
	exit 1
}
[ -f "$src/Kbuild" ] || {
	echo "build-module: $src/Kbuild does not exist yet (the kernel module part has not landed)" >&2
	exit 1
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! make -C "$kdir" M="$src" W=1 modules 2>&1 | tee "$log"; then
	echo "build-module: building against $kdir failed" >&2
	exit 1
fi
if grep -Eiq 'warning:' "$log"; then
	echo "build-module: the build against $kdir printed warnings:" >&2
	grep -Ei 'warning:' "$log" | sed 's/^/  /' >&2
	exit 1
fi
[ -f "$src/kmod/fdr.ko" ] || { echo "build-module: $src/kmod/fdr.ko was not produced" >&2; exit 1; }
