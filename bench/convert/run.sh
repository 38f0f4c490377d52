#!/bin/sh
# run.sh - `fdr convert --format perfetto` against `--format chrome`, side
# by side in one run, in three parts (bench/convert/README.md):
#  1. ROUNDS rounds on the same MB-megabyte FDR log (bench/reader's
#     generator), each converting with both formats (alternating which
#     goes first); every timing, the medians and the ratios;
#  2. one conversion each of a BOTH_MB log (the largest size the Chrome
#     writer, which holds the whole trace, is run on here);
#  3. the Perfetto writer alone on a BIG_MB log (4 GB: it streams), and
#     the Chrome writer too only if what it would hold (the bytes per
#     byte of log measured in part 2) fits in half of MemAvailable.
# Each conversion: wall-clock time, CPU time (user + system: steadier on a
# shared machine; the Chrome writer formats on every core, the Perfetto
# writer on one), peak resident set (GNU time %M) and output size (the
# output piped to wc -c: a 4 GB log's traces would not fit the disk).  The
# logs of parts 2 and 3 are written to a directory under /var/tmp and
# removed after.  The part-1 Perfetto trace is checked to decode with
# protoc against the tests' schema.
#   usage: bench/convert/run.sh [MB=33] [ROUNDS=5] [BOTH_MB=256] [BIG_MB=4096]
set -eu
MB=${1:-33} ROUNDS=${2:-5} BOTH_MB=${3:-256} BIG_MB=${4:-4096}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/bench/convert
FDR=$TOP/build/bin/fdr
mkdir -p "$OUT"
TMP=$(mktemp -d /var/tmp/fdr-bench-convert.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM

make -s -C "$TOP/userspace/tools/fdr" all >/dev/null
${CC:-cc} -O2 -std=gnu11 -Wall -Wextra -Werror -I"$TOP/uapi" \
	-o "$OUT/gen_big_log" "$TOP/bench/reader/gen_big_log.c"
LOG=$OUT/big.log
"$OUT/gen_big_log" "$LOG" "$MB" 2
"$FDR" verify "$LOG"

# measure FORMAT LOG: one conversion, "wall cpu maxrss_kib bytes"
measure() {
	/usr/bin/time -f "%e %U %S %M" -o "$TMP/time" \
		"$FDR" convert --format "$1" "$2" | wc -c >"$TMP/size"
	awk -v b="$(cat "$TMP/size")" '{ printf "%.3f %.3f %d %s\n", $1, $2 + $3, $4, b }' "$TMP/time"
}
show() { awk '{ printf "%s s wall, %s s cpu, %d MiB max RSS, %s bytes", $1, $2, $3 / 1024, $4 }'; }

# ---- 1: rounds on the MB log ----
: >"$OUT/perfetto.times"
: >"$OUT/chrome.times"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		measure perfetto "$LOG" >>"$OUT/perfetto.times"
		measure chrome "$LOG" >>"$OUT/chrome.times"
	else
		measure chrome "$LOG" >>"$OUT/chrome.times"
		measure perfetto "$LOG" >>"$OUT/perfetto.times"
	fi
	echo "round $r: perfetto $(tail -1 "$OUT/perfetto.times" | show)," \
	     "chrome $(tail -1 "$OUT/chrome.times" | show)"
done
if "$FDR" convert --format perfetto "$LOG" | protoc --proto_path="$TOP/userspace/tools/fdrlog/tests" \
	--decode=perfetto.protos.Trace perfetto_min.proto | grep -c TYPE_SLICE_BEGIN >"$OUT/slices"; then
	decoded="decodes with protoc, $(cat "$OUT/slices") slices"
else
	decoded="DOES NOT DECODE"
fi

median() { awk -v c="$2" '{ print $c }' "$1" | sort -n |
	awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pw=$(median "$OUT/perfetto.times" 1) pc=$(median "$OUT/perfetto.times" 2) pm=$(median "$OUT/perfetto.times" 3)
cw=$(median "$OUT/chrome.times" 1) cc=$(median "$OUT/chrome.times" 2) cm=$(median "$OUT/chrome.times" 3)
ps=$(tail -1 "$OUT/perfetto.times" | cut -d' ' -f4) cs=$(tail -1 "$OUT/chrome.times" | cut -d' ' -f4)
echo "log: $LOG ($(stat -c %s "$LOG") bytes, FDR version 2), $ROUNDS rounds; the Perfetto trace $decoded"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "median convert --format perfetto: $pw s wall, $pc s cpu, $((pm / 1024)) MiB max RSS, $ps bytes"
echo "median convert --format chrome:   $cw s wall, $cc s cpu, $((cm / 1024)) MiB max RSS, $cs bytes"
echo "$cw $pw $cc $pc $cs $ps $cm $pm" | awk '{ printf "ratio (chrome / perfetto): %.1fx wall, %.1fx cpu, %.1fx size, %.1fx max RSS\n", $1 / $2, $3 / $4, $5 / $6, $7 / $8 }'
rm -f "$OUT/slices"

# ---- 2 and 3: one conversion each of bigger logs ----
# pair SIZE_MB: generate, convert with perfetto, then chrome when $chrome_kib
# (its estimated peak) fits in half of MemAvailable; the log removed after
pair() {
	"$OUT/gen_big_log" "$TMP/log" "$1" 2 >/dev/null
	bytes=$(stat -c %s "$TMP/log")
	p=$(measure perfetto "$TMP/log")
	echo "$1 MB log ($bytes bytes): perfetto $(echo "$p" | show)"
	avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	need=$(awk -v b="$bytes" -v r="${kib_per_byte:-0}" 'BEGIN { printf "%d", b * r }')
	if [ "$need" -gt $((avail / 2)) ]; then
		echo "$1 MB log: chrome not run: it holds the whole trace, about $((need / 1048576)) GiB here" \
		     "(the ${BOTH_MB} MB log's peak per byte), more than half of MemAvailable ($((avail / 1048576)) GiB)"
	else
		c=$(measure chrome "$TMP/log")
		echo "$1 MB log ($bytes bytes): chrome   $(echo "$c" | show)"
		echo "$c $p" | awk '{ printf "ratio (chrome / perfetto): %.1fx wall, %.1fx cpu, %.1fx size, %.1fx max RSS\n", $1 / $5, $2 / $6, $4 / $8, $3 / $7 }'
		kib_per_byte=$(echo "$c" | awk -v b="$bytes" '{ printf "%.9f", $3 / b }')
	fi
	rm -f "$TMP/log"
}
kib_per_byte=0
pair "$BOTH_MB"
pair "$BIG_MB"
