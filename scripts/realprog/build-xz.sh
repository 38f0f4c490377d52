#!/bin/bash
# SPDX-License-Identifier: MIT
# build-xz.sh DEST CC: xz and its shared liblzma from Debian's xz-utils
# source package (fetch-source.sh, cached), unpacked into DEST/ and built
# by its own build system (`./configure CC=CC && make`, libtool's shared
# library, in a build directory of its own; no docs, scripts, NLS or
# extra tools), as a user would; prints "XZ LIBDIR" on stdout: the real
# xz binary (not libtool's wrapper script) and the directory of
# liblzma.so.5 it runs with.  The build's output is in DEST/build.log,
# shown on failure.
set -eu

[ $# -eq 2 ] || { echo "usage: build-xz.sh DEST CC" >&2; exit 2; }
dest=$1 cc=$2
here=$(cd "$(dirname "$0")" && pwd)
case $cc in
/*) ;;
*/*) cc="$(pwd)/$cc" ;;
esac
mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
src=$("$here/fetch-source.sh" xz-utils "$dest")
bld=$src/build
mkdir -p "$bld"
jobs=$(nproc 2>/dev/null || echo 2)
if ! (cd "$bld" && "$src/configure" CC="$cc" --disable-static --disable-doc --disable-nls \
	--disable-scripts --disable-lzmadec --disable-lzmainfo --disable-xzdec \
	&& make -j"$jobs") >"$dest/build.log" 2>&1; then
	tail -40 "$dest/build.log" >&2
	echo "build-xz.sh: ./configure CC=\"$cc\" && make failed in $bld (log: $dest/build.log)" >&2
	exit 1
fi
echo "$bld/src/xz/.libs/xz $bld/src/liblzma/.libs"
