#!/bin/sh
# run_own.sh - TAP tests on logs written by the project's own writer:
# a -finstrument-functions program records through libfdr into an
# embedded region, fdrd writes the v2 log, and fdrlog must accept it, print
# what llvm-xray-19 prints, and name the functions from the adapter's
# sym-map.  Skips when libfdr, the adapter, fdrctl or fdrd are not built
# (this suite reads their output; it does not build them).
# usage: run_own.sh FDRLOG BUILD_DIR WORKDIR
set -u
FDRLOG=$1 BUILD=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$HERE/../../../adapters/examples/cyg_hello.c
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }

for f in "$BUILD/bin/fdrctl" "$BUILD/bin/fdrd" "$BUILD/lib/libfdr.a" \
	 "$BUILD/adapters/libfdr-cyg.a" "$SRC"; do
	if [ ! -e "$f" ]; then
		echo "ok 1 logs from fdrd # SKIP $f not built"
		echo "1..1"
		exit 0
	fi
done
rm -rf "$WORK"
mkdir -p "$WORK/logs"
region=fdrlog-test-$$
cleanup() { "$BUILD/bin/fdrctl" --embedded "$region" destroy >/dev/null 2>&1; }
trap cleanup EXIT

${CC:-cc} ${LDFLAGS:-} -O2 -finstrument-functions -o "$WORK/cyg_hello" "$SRC" \
	"$BUILD/adapters/libfdr-cyg.a" "$BUILD/lib/libfdr.a" -lpthread &&
	"$BUILD/bin/fdrctl" init --embedded "$region" >/dev/null &&
	FDR_TARGET=embedded:$region FDR_SYMDIR=$WORK "$WORK/cyg_hello" 12 >/dev/null &&
	"$BUILD/bin/fdrctl" --embedded "$region" finalize >/dev/null &&
	"$BUILD/bin/fdrd" --once -f --target "embedded:$region" --output-dir "$WORK/logs" 2>/dev/null
check $? "record cyg_hello through libfdr, fdrd writes the log"
LOG=$(ls "$WORK"/logs/*.xray 2>/dev/null | head -1)
MAP=$(ls "$WORK"/fdr-syms.*.map 2>/dev/null | head -1)

"$FDRLOG" verify -q "$LOG"
check $? "fdrlog verify accepts fdrd's log"
[ "$(od -An -tu2 -N2 "$LOG" | tr -d ' ')" = 2 ]
check $? "fdrd wrote version 2"
if command -v llvm-xray-19 >/dev/null; then
	llvm-xray-19 convert -f yaml "$LOG" >"$WORK/llvm.yaml" &&
		"$FDRLOG" convert --format yaml "$LOG" | cmp -s - "$WORK/llvm.yaml"
	check $? "yaml equals llvm-xray-19 convert -f yaml"
fi
"$FDRLOG" convert --format yaml --sym-map "$MAP" "$LOG" >"$WORK/sym.yaml" &&
	grep -q "function: main," "$WORK/sym.yaml" && grep -q "function: fib," "$WORK/sym.yaml"
check $? "the adapter's sym-map names main and fib"
"$FDRLOG" account --sym-map "$MAP" "$LOG" >"$WORK/account.txt" &&
	grep -q "main$" "$WORK/account.txt" && grep -q "calls open at the end: 0" "$WORK/account.txt"
check $? "account: main accounted, no call left open"

echo "1..$n"
[ $failed = 0 ]
