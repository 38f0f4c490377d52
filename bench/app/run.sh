#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh - bench/app: a real program nobody tuned for a tracer, Lua 5.4
# from Debian's source package (README.md).  Builds the interpreter three
# times with its own Makefile into build/bench/app/, then runs run.py's
# interleaved rounds; prints the Markdown on stdout, progress on stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/bench/app
bin=$top/build/bin
build_lua=$top/scripts/realprog/build-lua.sh
log() { echo "bench/app: $*" >&2; }

for f in "$bin/fdr" "$bin/fdr-cc"; do
	[ -x "$f" ] || { log "$f is missing: run make first"; exit 1; }
done
for t in clang-19 uftrace llvm-xray-19; do
	command -v "$t" >/dev/null || { log "$t is missing: scripts/deps.sh bench installs it"; exit 1; }
done

# build NAME CC [LIBS]: the interpreter as $out/NAME/lua (a fresh build
# each run: fdr's libraries may have changed).
build() {
	local name=$1 cc=$2 libs=${3:-} lua
	rm -rf "$out/$name.src" "$out/$name"
	log "building Lua ($name): make linux CC=\"$cc\""
	lua=$("$build_lua" "$out/$name.src" "$cc" "-O2 -g" "$libs")
	mkdir -p "$out/$name"
	cp "$lua" "$out/$name/lua"
	rm -rf "$out/$name.src"
}

mkdir -p "$out"
clang-19 -O2 -Wall -Werror -fxray-instrument \
	-I"$here/../peers" -c -o "$out/xray_fdr_start.o" "$here/xray_fdr_start.c"
build none clang-19
# One binary for fdr and compiler-rt's FDR mode, as in tests/realprog:
# the counts of two binaries differ (Lua caches C strings by address).
build fdr "$bin/fdr-cc" "$out/xray_fdr_start.o"
build pg "clang-19 -pg"

tmp=$(mktemp -d /tmp/fdr-bench-app.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/run.py" "$out" "$bin" "$tmp"
