#!/bin/sh
# run.sh - `fdrlog convert --format perfetto` against `--format chrome` on
# the same >= 32 MB FDR log (bench/reader's generator), side by side in
# one run: ROUNDS rounds, each converting with both formats (alternating
# which goes first) to a file in the build directory (the output size
# matters: a viewer loads it); prints every timing, the medians, the
# output sizes and the ratios, and checks that the Perfetto trace decodes
# with protoc against the tests' schema.  Wall-clock time and CPU time
# (user + system: steadier on a shared machine; the Chrome writer formats
# on every core, the Perfetto writer on one).
#   usage: bench/convert/run.sh [MEGABYTES=33] [ROUNDS=5]
set -eu
MB=${1:-33} ROUNDS=${2:-5}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/bench/convert
FDRLOG=$TOP/build/bin/fdrlog
mkdir -p "$OUT"

make -s -C "$TOP/userspace/tools/fdrlog" all >/dev/null
${CC:-cc} -O2 -std=gnu11 -Wall -Wextra -Werror -I"$TOP/uapi" \
	-o "$OUT/gen_big_log" "$TOP/bench/reader/gen_big_log.c"
LOG=$OUT/big.log
"$OUT/gen_big_log" "$LOG" "$MB" 2
"$FDRLOG" verify "$LOG"

# One conversion to OUT/trace.FORMAT: "wall cpu" seconds (GNU time).
measure() {
	/usr/bin/time -f "%e %U %S" -o "$OUT/time.tmp" \
		"$FDRLOG" convert --format "$1" -o "$OUT/trace.$1" "$LOG"
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$OUT/time.tmp"
}

: >"$OUT/perfetto.times"
: >"$OUT/chrome.times"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		measure perfetto >>"$OUT/perfetto.times"
		measure chrome >>"$OUT/chrome.times"
	else
		measure chrome >>"$OUT/chrome.times"
		measure perfetto >>"$OUT/perfetto.times"
	fi
	echo "round $r: perfetto $(tail -1 "$OUT/perfetto.times" | awk '{print $1 " s wall, " $2 " s cpu"}')," \
	     "chrome $(tail -1 "$OUT/chrome.times" | awk '{print $1 " s wall, " $2 " s cpu"}')"
done
if protoc --proto_path="$TOP/userspace/tools/fdrlog/tests" --decode=perfetto.protos.Trace \
	perfetto_min.proto <"$OUT/trace.perfetto" | grep -c TYPE_SLICE_BEGIN >"$OUT/slices"; then
	decoded="decodes with protoc, $(cat "$OUT/slices") slices"
else
	decoded="DOES NOT DECODE"
fi

median() { awk -v c="$2" '{ print $c }' "$1" | sort -n |
	awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pw=$(median "$OUT/perfetto.times" 1) pc=$(median "$OUT/perfetto.times" 2)
cw=$(median "$OUT/chrome.times" 1) cc=$(median "$OUT/chrome.times" 2)
ps=$(stat -c %s "$OUT/trace.perfetto") cs=$(stat -c %s "$OUT/trace.chrome")
echo "log: $LOG ($(stat -c %s "$LOG") bytes, FDR version 2), $ROUNDS rounds; the Perfetto trace $decoded"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median convert --format perfetto: $pw s wall, $pc s cpu, $ps bytes"
echo "median convert --format chrome:   $cw s wall, $cc s cpu, $cs bytes"
echo "$cw $pw $cc $pc $cs $ps" | awk '{ printf "ratio (chrome / perfetto): %.1fx wall, %.1fx cpu, %.1fx size\n", $1 / $2, $3 / $4, $5 / $6 }'
rm -f "$OUT/trace.perfetto" "$OUT/trace.chrome" "$OUT/slices" "$OUT/time.tmp"
