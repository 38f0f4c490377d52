#!/bin/bash
# crafted.sh - every fdrlog command on the logs of issue 15's crafted
# cases (userspace/tools/fdrlog/tests/gen_crafted.c), best of ROUNDS wall-clock
# runs each, output to /dev/null; with OLD=path/to/fdrlog the same for
# another build side by side (killed after 60 s: "> 60000").
#   usage: bench/reader/crafted.sh [ROUNDS=3]
set -u
ROUNDS=${1:-3}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/bench/reader/crafted
FDRLOG=$TOP/build/bin/fdrlog
mkdir -p "$OUT"
make -s -C "$TOP/userspace/tools/fdrlog" all >/dev/null
make -s -C "$TOP/userspace/tools/fdrlog/tests" all >/dev/null
GEN=$TOP/build/tools/fdrlog/tests/gen_crafted

best_ms() { # TOOL ARGS...: the shortest of ROUNDS runs, ms
	local best= t0 ms i
	for ((i = 0; i < ROUNDS; i++)); do
		t0=$(date +%s%N)
		timeout 60 "$@" >/dev/null 2>&1 || { [ $? = 124 ] && { echo "> 60000"; return; }; }
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		[ -z "$best" ] || [ "$ms" -lt "$best" ] && best=$ms
	done
	echo "$best"
}

"$GEN" orphans 200000 "$OUT/orphans.log"
"$GEN" threads 200000 "$OUT/threads.log"
"$GEN" collide 20000 "$OUT/collide.log"
"$GEN" threads 20000 "$OUT/plain.log"
echo "| log | command | fdrlog (ms)${OLD:+ | $OLD (ms)} |"
echo "|---|---|---:${OLD:+|---:}|"
for log in orphans threads collide plain; do
	for cmd in verify dump "convert --format yaml" "convert --format chrome" account; do
		row="| $log | $cmd | $(best_ms "$FDRLOG" $cmd "$OUT/$log.log")"
		[ -n "${OLD:-}" ] && row="$row | $(best_ms "$OLD" $cmd "$OUT/$log.log")"
		echo "$row |"
	done
done
echo
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$OUT"/*.log
