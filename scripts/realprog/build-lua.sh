#!/bin/bash
# SPDX-License-Identifier: MIT
# build-lua.sh DEST CC [CFLAGS [LIBS]]: Lua 5.4 from Debian's source package
# (fetch-source.sh, cached), unpacked into DEST/ and built by Lua's own
# Makefile (`make linux`, no readline) with CC (e.g. "fdr-cc", "gcc -pg");
# prints the interpreter's path (DEST/lua5.4-VERSION/src/lua) on stdout.
#
# CFLAGS (default -O2 -g) go to the Makefile's MYCFLAGS, with a fixed
# string-hash seed added: Lua seeds its hashes from the time and from
# addresses, so two runs of one workload would make different calls
# (table collisions) without it.  And a one-entry API string cache
# (STRCACHE_N/M=1): luaS_new() caches strings by the address of the C
# string, modulo 53, so a binary laid out otherwise (the same objects
# linked with other code: libfdr's hooks, or counting hooks) would make
# other calls of luaS_newlstr; with one entry, only the contents count.  LIBS (e.g. an object to link into the
# interpreter) go to the Makefile's MYLIBS.  The build's output is in
# DEST/build.log, shown on failure.
set -eu

[ $# -ge 2 ] && [ $# -le 4 ] || { echo "usage: build-lua.sh DEST CC [CFLAGS [LIBS]]" >&2; exit 2; }
dest=$1 cc=$2 cflags=${3:--O2 -g} libs=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
# make runs CC in the source directory: a relative path must not be.
case $cc in
/*) ;;
*/*) cc="$(pwd)/$cc" ;;
esac
mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
src=$("$here/fetch-source.sh" lua5.4 "$dest")
jobs=$(nproc 2>/dev/null || echo 2)
if ! make -C "$src" -j"$jobs" linux CC="$cc -std=gnu99" \
	MYCFLAGS="$cflags '-Dluai_makeseed(L)=0' -DSTRCACHE_N=1 -DSTRCACHE_M=1" MYLIBS="$libs" >"$dest/build.log" 2>&1; then
	tail -40 "$dest/build.log" >&2
	echo "build-lua.sh: make linux CC=\"$cc\" failed in $src (log: $dest/build.log)" >&2
	exit 1
fi
echo "$src/src/lua"
