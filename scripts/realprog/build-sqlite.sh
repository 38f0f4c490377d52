#!/bin/bash
# SPDX-License-Identifier: MIT
# build-sqlite.sh DEST CC: the sqlite3 shell from Debian's source package
# (fetch-source.sh, cached), unpacked into DEST/ and built by SQLite's own
# build system (`./configure CC=CC && make sqlite3`, in a build directory
# of its own, with no Tcl extension and no readline), as a user would;
# prints the shell's path on stdout.  The amalgamation is generated with
# tclsh (scripts/packages.d/realprog.txt).  The build's output is in
# DEST/build.log, shown on failure.
set -eu

[ $# -eq 2 ] || { echo "usage: build-sqlite.sh DEST CC" >&2; exit 2; }
dest=$1 cc=$2
here=$(cd "$(dirname "$0")" && pwd)
case $cc in
/*) ;;
*/*) cc="$(pwd)/$cc" ;;
esac
mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
src=$("$here/fetch-source.sh" sqlite3 "$dest")
bld=$src/build
mkdir -p "$bld"
jobs=$(nproc 2>/dev/null || echo 2)
if ! (cd "$bld" && "$src/configure" CC="$cc" --disable-tcl --disable-readline \
	&& make -j"$jobs" sqlite3) >"$dest/build.log" 2>&1; then
	tail -40 "$dest/build.log" >&2
	echo "build-sqlite.sh: ./configure CC=\"$cc\" && make sqlite3 failed in $bld (log: $dest/build.log)" >&2
	exit 1
fi
echo "$bld/sqlite3"
