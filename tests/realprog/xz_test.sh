#!/bin/bash
# SPDX-License-Identifier: MIT
# xz_test.sh BUILD: a program whose work is in its own shared library,
# xz and liblzma.so from Debian's xz-utils source package, built by its
# own build system through fdr-cc.  clang-19's XRay runtime never patches
# a library's sleds; fdr's mode does (Documentation/integrations.md,
# "Shared libraries"): under `fdr record` liblzma's functions are in the
# report, named, and xz's output is unchanged.  TAP on stdout;
# Documentation/realprog.md.
set -u
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
B=$BUILD/bin
T=$(mktemp -d /tmp/fdr-xz.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); echo "not ok $n $1"; shift; for l in "$@"; do printf '%s\n' "$l" | head -c 4000 | sed 's/^/# /'; done; }
bail() { echo "1..$n"; exit 0; }
t0=$SECONDS

if out=$("$TOP/scripts/realprog/build-xz.sh" "$T/src" "$B/fdr-cc" 2>"$T/build.err"); then
	read -r XZ LIBDIR <<<"$out"
	ok "build: Debian's xz-utils source, ./configure CC=fdr-cc && make ($((SECONDS - t0)) s)"
else
	nok "build: Debian's xz-utils source, ./configure CC=fdr-cc && make" "$(cat "$T/build.err")"; bail
fi
cd "$T" || exit 1
export LD_LIBRARY_PATH=$LIBDIR
# the work is in the library: its sleds are there, waiting for a runtime
nsleds=$(readelf -SW "$LIBDIR/liblzma.so.5" | grep -c ' xray_instr_map ')
[ "$nsleds" = 1 ] && ok "liblzma.so.5 holds an xray_instr_map" || nok "liblzma.so.5 holds an xray_instr_map" "$(readelf -SW "$LIBDIR/liblzma.so.5")"
# a fixed input (text of this tree), compressed single-threaded
cat "$TOP"/Documentation/*.md >in.txt
"$XZ" -6 -T1 -c in.txt >want.xz || { nok "untraced: xz compresses"; bail; }
ok "untraced: xz compresses ($(wc -c <in.txt) -> $(wc -c <want.xz) bytes)"

"$B/fdr" record -o data -t 0 -b 1M -n 64 -- "$XZ" -6 -T1 -c in.txt >got.xz 2>rec.err
rc=$?
cmp -s got.xz want.xz && [ $rc = 0 ] && ok "fdr record -t 0: the same output, status 0" \
	|| nok "fdr record -t 0: the same output, status 0" "rc=$rc" "$(cat rec.err)"
"$B/fdr" report --json data >r.json 2>r.err
python3 - r.json "$LIBDIR/liblzma.so.5" >check.out 2>&1 <<'P'
import json, subprocess, sys
fs = json.load(open(sys.argv[1]))["functions"]
names = {f["name"]: f["calls"] for f in fs}
# the library's exported functions, from its dynamic symbol table
dyn = subprocess.run(["nm", "-D", "--defined-only", sys.argv[2]], capture_output=True,
                     text=True, check=True).stdout.split()
exported = {w.split("@")[0] for w in dyn if w.startswith("lzma_")}  # lzma_code@@XZ_5.0
seen = sorted(n for n in names if n in exported)
unnamed = sorted(n for n in names if n.startswith("#"))
print("exported liblzma functions in the report:", len(seen), seen[:8])
assert names.get("lzma_code", 0) > 0, "lzma_code missing"
assert names.get("lzma_stream_encoder", 0) == 1, "lzma_stream_encoder: %r" % names.get("lzma_stream_encoder")
assert len(seen) >= 10, "too few exported functions"
assert not unnamed, "unnamed ids: %r" % unnamed[:5]
P
[ $? = 0 ] && ok "report: liblzma's functions named ($(head -1 check.out))" \
	|| nok "report: liblzma's functions named" "$(cat check.out)" "$(cat r.err)"
"$B/fdr" record -o dflt -- "$XZ" -6 -T1 -c in.txt >got2.xz 2>rec2.err
rc=$?
cmp -s got2.xz want.xz && [ $rc = 0 ] && ok "fdr record (default threshold): the same output, status 0" \
	|| nok "fdr record (default threshold): the same output, status 0" "rc=$rc" "$(cat rec2.err)"
echo "1..$n"
