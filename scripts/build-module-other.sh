#!/bin/bash
# Build-check fdr.ko against another kernel's headers without touching the
# checkout's kmod/fdr.ko: the sources (Kbuild, kmod/, uapi/) are copied to
# build/kmod-<series>/ and built there, warnings being errors.
#
# usage: scripts/build-module-other.sh SERIES      e.g. 6.12, 6.1-rt
# Uses the newest installed /usr/src/linux-headers-SERIES.*-amd64 (for
# SERIES-rt: linux-headers-SERIES.*-rt-amd64, PREEMPT_RT), or $KDIR_OTHER
# if set.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 SERIES" >&2; exit 2; }
series=$1

kdir=${KDIR_OTHER:-}
case $series in
*-rt) pattern="linux-headers-${series%-rt}.*-rt-amd64" ;;
*) pattern="linux-headers-$series.*-amd64" ;;
esac
if [ -z "$kdir" ]; then
	# A plain series never takes the -rt flavour's headers.
	kdir=$(ls -d /usr/src/$pattern 2>/dev/null | { case $series in *-rt) cat ;; *) grep -v -- '-rt-amd64$' ;; esac; } |
		sort -V | tail -n 1 || true)
fi
[ -n "$kdir" ] && [ -f "$kdir/Makefile" ] || {
	echo "build-module-other: no $pattern in /usr/src (run scripts/deps.sh module-6.12, or set KDIR_OTHER=)" >&2
	exit 1
}
[ -f "$top/Kbuild" ] || {
	echo "build-module-other: $top/Kbuild does not exist yet (the kernel module part has not landed)" >&2
	exit 1
}

dest=$top/build/kmod-$series
rm -rf "$dest"
mkdir -p "$dest"
cp "$top/Kbuild" "$dest/"
# Sources only: objects of the checkout's own build must not leak in.
tar -C "$top" -c \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
	--exclude='*.d' \
	kmod uapi | tar -C "$dest" -x
echo "build-module-other: building against $kdir in $dest"
"$top/scripts/build-module.sh" "$kdir" "$dest"
