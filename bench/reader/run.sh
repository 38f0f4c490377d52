#!/bin/sh
# run.sh - fdrlog vs llvm-xray-19 converting the same >= 32 MB FDR log to
# YAML, side by side in one run: ROUNDS rounds, each running both tools
# (alternating which goes first), output to /dev/null; prints every
# timing, the medians and the ratios: of wall-clock time, and of CPU time
# (user + system; steadier when other jobs share the machine, but it
# does not credit fdrlog's parallel formatting).  Also checks once that
# both tools print identical bytes.
#   usage: bench/reader/run.sh [MEGABYTES=33] [ROUNDS=5] [VERSION=2]
set -eu
MB=${1:-33} ROUNDS=${2:-5} VERSION=${3:-2}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/bench/reader
LLVM_XRAY=${LLVM_XRAY:-llvm-xray-19}
FDRLOG=$TOP/build/bin/fdrlog
mkdir -p "$OUT"

# fdrlog is a link to fdr, which links libfdrlog.a: build both, in order
make -s -C "$TOP/userspace/tools/fdrlog" all >/dev/null
make -s -C "$TOP/userspace/tools/fdr" all >/dev/null
${CC:-cc} -O2 -std=gnu11 -Wall -Wextra -Werror -I"$TOP/uapi" \
	-o "$OUT/gen_big_log" "$TOP/bench/reader/gen_big_log.c"
LOG=$OUT/big-v$VERSION.log
"$OUT/gen_big_log" "$LOG" "$MB" "$VERSION"
"$FDRLOG" verify "$LOG"

"$FDRLOG" convert --format yaml "$LOG" >"$OUT/fdrlog.yaml"
"$LLVM_XRAY" convert -f yaml "$LOG" >"$OUT/llvm.yaml"
if cmp -s "$OUT/fdrlog.yaml" "$OUT/llvm.yaml"; then same=identical; else same=DIFFERENT; fi
rm -f "$OUT/fdrlog.yaml" "$OUT/llvm.yaml"

# One run of "$@", stdout to /dev/null: "wall cpu" seconds (GNU time).
measure() {
	/usr/bin/time -f "%e %U %S" -o "$OUT/time.tmp" "$@" >/dev/null
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$OUT/time.tmp"
}

: >"$OUT/fdrlog.times"
: >"$OUT/llvm.times"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		measure "$FDRLOG" convert --format yaml "$LOG" >>"$OUT/fdrlog.times"
		measure "$LLVM_XRAY" convert -f yaml "$LOG" >>"$OUT/llvm.times"
	else
		measure "$LLVM_XRAY" convert -f yaml "$LOG" >>"$OUT/llvm.times"
		measure "$FDRLOG" convert --format yaml "$LOG" >>"$OUT/fdrlog.times"
	fi
	echo "round $r: fdrlog $(tail -1 "$OUT/fdrlog.times" | awk '{print $1 " s wall, " $2 " s cpu"}')," \
	     "llvm-xray-19 $(tail -1 "$OUT/llvm.times" | awk '{print $1 " s wall, " $2 " s cpu"}')"
done

# Median of column $2 of file $1.
median() { awk -v c="$2" '{ print $c }' "$1" | sort -n |
	awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fw=$(median "$OUT/fdrlog.times" 1) fc=$(median "$OUT/fdrlog.times" 2)
lw=$(median "$OUT/llvm.times" 1) lc=$(median "$OUT/llvm.times" 2)
size=$(stat -c %s "$LOG")
echo "log: $LOG ($size bytes, FDR version $VERSION), $ROUNDS rounds, outputs $same"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median fdrlog convert --format yaml: $fw s wall, $fc s cpu"
echo "median llvm-xray-19 convert -f yaml: $lw s wall, $lc s cpu"
echo "$lw $fw $lc $fc" | awk '{ printf "ratio (llvm-xray-19 / fdrlog): %.1fx wall, %.1fx cpu\n", $1 / $2, $3 / $4 }'
