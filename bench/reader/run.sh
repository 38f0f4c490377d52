#!/bin/sh
# run.sh - fdrlog vs llvm-xray-19 converting the same >= 32 MB FDR log to
# YAML, side by side in one run: ROUNDS rounds, each running both tools
# (alternating which goes first), output to /dev/null; prints every
# timing, the medians and the ratio.  Also checks once that both tools
# print identical bytes.
#   usage: bench/reader/run.sh [MEGABYTES=33] [ROUNDS=5] [VERSION=2]
set -eu
MB=${1:-33} ROUNDS=${2:-5} VERSION=${3:-2}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/bench/reader
LLVM_XRAY=${LLVM_XRAY:-llvm-xray-19}
FDRLOG=$TOP/build/bin/fdrlog
mkdir -p "$OUT"

make -s -C "$TOP/userspace/tools/fdrlog" all >/dev/null
${CC:-cc} -O2 -std=gnu11 -Wall -Wextra -Werror -I"$TOP/uapi" \
	-o "$OUT/gen_big_log" "$TOP/bench/reader/gen_big_log.c"
LOG=$OUT/big-v$VERSION.log
"$OUT/gen_big_log" "$LOG" "$MB" "$VERSION"
"$FDRLOG" verify "$LOG"

"$FDRLOG" convert --format yaml "$LOG" >"$OUT/fdrlog.yaml"
"$LLVM_XRAY" convert -f yaml "$LOG" >"$OUT/llvm.yaml"
if cmp -s "$OUT/fdrlog.yaml" "$OUT/llvm.yaml"; then same=identical; else same=DIFFERENT; fi
rm -f "$OUT/fdrlog.yaml" "$OUT/llvm.yaml"

# Wall-clock seconds of one run of "$@" with stdout to /dev/null.
seconds() {
	t0=$(date +%s%N)
	"$@" >/dev/null
	t1=$(date +%s%N)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", ($2 - $1) / 1e9 }'
}

: >"$OUT/fdrlog.times"
: >"$OUT/llvm.times"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		seconds "$FDRLOG" convert --format yaml "$LOG" >>"$OUT/fdrlog.times"
		seconds "$LLVM_XRAY" convert -f yaml "$LOG" >>"$OUT/llvm.times"
	else
		seconds "$LLVM_XRAY" convert -f yaml "$LOG" >>"$OUT/llvm.times"
		seconds "$FDRLOG" convert --format yaml "$LOG" >>"$OUT/fdrlog.times"
	fi
	echo "round $r: fdrlog $(tail -1 "$OUT/fdrlog.times") s, llvm-xray-19 $(tail -1 "$OUT/llvm.times") s"
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m_fdr=$(median "$OUT/fdrlog.times")
m_llvm=$(median "$OUT/llvm.times")
size=$(stat -c %s "$LOG")
echo "log: $LOG ($size bytes, FDR version $VERSION), $ROUNDS rounds, outputs $same"
echo "median fdrlog convert --format yaml: $m_fdr s"
echo "median llvm-xray-19 convert -f yaml: $m_llvm s"
echo "$m_llvm $m_fdr" | awk '{ printf "ratio (llvm-xray-19 / fdrlog): %.1fx\n", $1 / $2 }'
