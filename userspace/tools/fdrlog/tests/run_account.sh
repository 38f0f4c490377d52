#!/bin/bash
# run_account.sh - llvm-xray-19 account on compiler-rt's FDR logs and on
# fdr's, of the same program and run shape (account_program.c built both
# ways), and on `fdrlog convert --for-llvm-xray`: where llvm-xray accepts
# compiler-rt's log, it accepts ours; where it rejects a log, it is for
# the reasons xray_account_model.py restates from LLVM 19's source (its
# verdict is checked against llvm-xray's on every log); and the export of
# a multi-threaded, wrapped log is accepted with the right counts.
# usage: run_account.sh FDRLOG BUILD_DIR WORKDIR
set -u
FDRLOG=$1 BUILD=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
CLANG=${CLANG:-$(command -v clang-19 || true)}
XRAY=${LLVM_XRAY:-$(command -v llvm-xray-19 || true)}
MODEL="python3 $HERE/xray_account_model.py"
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; return 1; fi; }
diag() { sed 's/^/# /'; }

for f in "$CLANG" "$XRAY" "$BUILD/adapters/libfdr-xray.a" "$BUILD/lib/libfdr.a" \
	 "$BUILD/bin/fdrd" "$BUILD/bin/fdrctl"; do
	if [ -z "$f" ] || [ ! -e "$f" ]; then
		echo "ok 1 llvm-xray account comparison # SKIP ${f:-clang-19 or llvm-xray-19} missing"
		echo "1..1"
		exit 0
	fi
done
rm -rf "$WORK"
mkdir -p "$WORK"
REGION=acct-test-$$
cleanup() { "$BUILD/bin/fdrctl" --embedded "$REGION" destroy >/dev/null 2>&1; }
trap cleanup EXIT
SRC=$HERE/account_program.c
XFLAGS="-O2 -g -fxray-instrument -fxray-instruction-threshold=1"
"$CLANG" $XFLAGS -DCRT_FDR -o "$WORK/crt" "$SRC" -lpthread 2>"$WORK/cc.err" &&
	"$CLANG" $XFLAGS -o "$WORK/ours" "$SRC" "$BUILD/adapters/libfdr-xray.a" \
		"$BUILD/lib/libfdr.a" -lpthread 2>>"$WORK/cc.err"
check $? "account_program.c built with compiler-rt's xray-fdr and with fdr's XRay mode" ||
	diag <"$WORK/cc.err"

# crt_log NAME THREADS CALLS: compiler-rt's log of one run
crt_log() {
	mkdir -p "$WORK/$1"
	XRAY_OPTIONS="xray_logfile_base=$WORK/$1/" "$WORK/crt" "$2" "$3" 2>/dev/null
	ls "$WORK/$1"/crt.* 2>/dev/null | head -1
}
# our_log NAME THREADS CALLS BUFFER_SIZE BUFFERS_PER_CPU: fdr's log of one run
our_log() {
	local ctl="$BUILD/bin/fdrctl --embedded $REGION"
	mkdir -p "$WORK/$1"
	$ctl destroy >/dev/null 2>&1
	$ctl init --buffer-size "$4" --buffers-per-cpu "$5" >/dev/null &&
		XRAY_OPTIONS="patch_premain=true xray_mode=fdr" FDR_TARGET=embedded:$REGION \
		FDR_OPTIONS=func_duration_threshold_us=0 "$WORK/ours" "$2" "$3" 2>/dev/null &&
		$ctl finalize >/dev/null &&
		"$BUILD/bin/fdrd" --once -f --target "embedded:$REGION" --grace-ms 0 \
			--output-dir "$WORK/$1" 2>/dev/null
	ls "$WORK/$1"/*.xray 2>/dev/null | head -1
}
# counts LOG_OR_YAML BINARY: "name count" of llvm-xray account, by name
counts() {
	"$XRAY" account -m "$2" "$1" 2>/dev/null |
		awk '/^ +[0-9]+ +[0-9]+ \[/ { print $NF, $2 }' | sed 's/^.*: //' | sort
}
# verdict_matches LOG: llvm-xray account's exit status is what the model says
verdict_matches() {
	"$FDRLOG" convert --format yaml --no-sort "$1" >"$1.load-order.yaml" 2>/dev/null || return 1
	$MODEL "$1.load-order.yaml" >"$1.model" ; local want=$?
	"$XRAY" account "$1" >/dev/null 2>&1; local got=$?
	echo "# $(basename "$(dirname "$1")"): llvm-xray account exit $got, model: $(head -1 "$1.model")"
	[ $want = 0 -a $got = 0 ] || [ $want != 0 -a $got != 0 ]
}

# 1. one thread, a ring that does not wrap: llvm-xray accepts both
C1=$(crt_log crt1 0 100); O1=$(our_log ours1 0 100 65536 8)
[ -n "$C1" ] && [ -n "$O1" ]
check $? "single-threaded logs written by compiler-rt and by fdr"
"$XRAY" account "$C1" >/dev/null 2>&1; c=$?
"$XRAY" account "$O1" >/dev/null 2>"$WORK/o1.err"; o=$?
check $(( c || o )) "single-threaded, not wrapped: llvm-xray account accepts compiler-rt's log ($c) and ours ($o)"
[ $o = 0 ] || diag <"$WORK/o1.err"
counts "$C1" "$WORK/crt" | grep -E '^(run|branch|leaf) ' >"$WORK/c1.counts"
counts "$O1" "$WORK/ours" | grep -E '^(run|branch|leaf) ' >"$WORK/o1.counts"
printf 'branch 100\nleaf 200\nrun 1\n' | cmp -s - "$WORK/c1.counts" && cmp -s "$WORK/c1.counts" "$WORK/o1.counts"
check $? "... with the same counts on both (run 1, branch 100, leaf 200)" ||
	{ diag <"$WORK/c1.counts"; diag <"$WORK/o1.counts"; }

# 2. five threads one after the other, not wrapped: whatever llvm-xray
# says, it is what its own rules say, for compiler-rt's log as for ours
C5=$(crt_log crt5 4 100); O5=$(our_log ours5 4 100 65536 8)
verdict_matches "$C5"
check $? "5 threads: llvm-xray account's verdict on compiler-rt's log is the model's"
verdict_matches "$O5"
check $? "5 threads: llvm-xray account's verdict on ours is the model's"
"$FDRLOG" convert --format yaml --no-sort "$O5" >"$WORK/o5.yaml" &&
	$MODEL "$WORK/o5.yaml" --ignore-order >/dev/null &&
	"$FDRLOG" convert --format yaml --no-sort "$C5" >"$WORK/c5.yaml" &&
	$MODEL "$WORK/c5.yaml" --ignore-order >/dev/null
check $? "... and both logs hold an Enter before every Exit: only llvm-xray's record order can fail them"
"$FDRLOG" convert --for-llvm-xray -o "$WORK/c5.export.yaml" "$C5" 2>/dev/null &&
	"$FDRLOG" convert --for-llvm-xray -o "$WORK/o5.export.yaml" "$O5" 2>/dev/null &&
	"$XRAY" account "$WORK/c5.export.yaml" >/dev/null 2>&1 &&
	"$XRAY" account "$WORK/o5.export.yaml" >/dev/null 2>&1
check $? "5 threads: llvm-xray account accepts the --for-llvm-xray export of both logs"
counts "$WORK/c5.export.yaml" "$WORK/crt" | grep -E '^(run|branch|leaf|thread_main) ' >"$WORK/c5.counts"
counts "$WORK/o5.export.yaml" "$WORK/ours" | grep -E '^(run|branch|leaf|thread_main) ' >"$WORK/o5.counts"
printf 'branch 500\nleaf 1000\nrun 5\nthread_main 4\n' | cmp -s - "$WORK/o5.counts" &&
	cmp -s "$WORK/c5.counts" "$WORK/o5.counts"
check $? "... with the calls the program made, equal on both (run 5, branch 500, leaf 1000, thread_main 4)" ||
	{ diag <"$WORK/c5.counts"; diag <"$WORK/o5.counts"; }

# 3. five threads and a ring that wraps (4 KiB buffers, 2 per CPU)
OW=$(our_log oursw 4 3000 4096 2)
"$FDRLOG" account "$OW" >"$WORK/ow.account" 2>/dev/null
orph=$(sed -n 's/^exits without entry: //p' "$WORK/ow.account")
[ -n "$OW" ] && [ "${orph:-0}" -gt 0 ]
check $? "a wrapped 5-thread log: exits whose entry the ring overwrote (${orph:-?})"
verdict_matches "$OW"; v=$?
"$XRAY" account -d "$OW" >/dev/null 2>&1; d=$?
check $(( v || d == 0 )) "llvm-xray account rejects it, with -d too, as the model says"
"$FDRLOG" convert --for-llvm-xray -o "$WORK/ow.export.yaml" "$OW" 2>"$WORK/ow.export.err"
"$XRAY" account "$WORK/ow.export.yaml" >"$WORK/ow.llvm" 2>"$WORK/ow.llvm.err"
check $? "llvm-xray account exits 0 on its --for-llvm-xray export" || diag <"$WORK/ow.llvm.err"
added=$(grep -c 'data: fdr-entry-lost }' "$WORK/ow.export.yaml")
[ "$added" = "$orph" ] && grep -q "added $orph Enter records" "$WORK/ow.export.err"
check $? "the export adds one Enter marked fdr-entry-lost per exit without entry ($added), and says so"
# counts: llvm-xray's on the export = fdrlog account's calls + exits without entry
awk '/^[0-9]+ +[0-9]+ / { c[$1] = $2 } /^  funcid [0-9]+:/ { sub(":", "", $2); o[$2] = $3 }
     END { for (f in o) c[f] += 0; for (f in c) print f, c[f] + o[f] }' "$WORK/ow.account" | sort -n >"$WORK/ow.want"
awk '/^ +[0-9]+ +[0-9]+ \[/ { print $1, $2 }' "$WORK/ow.llvm" | sort -n >"$WORK/ow.got"
[ -s "$WORK/ow.want" ] && cmp -s "$WORK/ow.want" "$WORK/ow.got"
check $? "llvm-xray's counts on the export = fdrlog account's calls + exits without entry, per function" ||
	{ diag <"$WORK/ow.want"; diag <"$WORK/ow.got"; }
"$FDRLOG" convert --format yaml "$OW" | grep -v '^  version:' >"$WORK/ow.sorted"
grep -v 'data: fdr-entry-lost }' "$WORK/ow.export.yaml" | grep -v '^  version:' | cmp -s - "$WORK/ow.sorted"
check $? "take the added records out and the export is convert --format yaml's sorted YAML"

echo "1..$n"
[ $failed = 0 ]
