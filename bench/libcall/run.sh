#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh OUT BINDIR: interleaved rounds of the four set-ups, medians of
# ns/call into results.md (Makefile).  Per-call cost of a recorder = its
# median minus the untraced median of the same binary.
set -eu
OUT=$1 B=$2
ROUNDS=${ROUNDS:-11} CALLS=${CALLS:-1000000}
T=$(mktemp -d /tmp/bench-libcall.XXXXXX)
trap 'rm -rf "$T"' EXIT
for r in $(seq "$ROUNDS"); do
	"$OUT/lib_calls" "$CALLS" >>"$T/lib_plain"
	"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/lib_calls" "$CALLS" 2>/dev/null >>"$T/lib_fdr"
	"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/xray_calls" "$CALLS" 2>/dev/null >>"$T/xray_fdr"
	"$OUT/xray_calls" "$CALLS" >>"$T/xray_plain"
done
med() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
lp=$(med "$T/lib_plain") lf=$(med "$T/lib_fdr") xp=$(med "$T/xray_plain") xf=$(med "$T/xray_fdr")
{
	echo "# bench/libcall: library-call tracing against fdr's XRay mode"
	echo
	echo "$ROUNDS interleaved rounds of $CALLS calls of \`bench_nop\` (\`return x + 1\`),"
	echo "thread CPU time, medians, ns per call; recorded with \`fdr record -t 0\`"
	echo "(every call kept) on the embedded backend. $(date -u +%F), $(nproc) CPUs,"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
	echo
	echo "| set-up | untraced | recorded | recorder's cost per call |"
	echo "|---|---|---|---|"
	echo "| library call (plain build, libfdr-plt.so) | $lp | $lf | $(echo "$lf - $lp" | bc -l | xargs printf %.2f) |"
	echo "| XRay function (fdr-cc build, fdr mode) | $xp | $xf | $(echo "$xf - $xp" | bc -l | xargs printf %.2f) |"
	echo
	echo "Ratio (library call / XRay): $(echo "($lf - $lp) / ($xf - $xp)" | bc -l | xargs printf %.2f) (target: at most 2)."
} > results.md
cat results.md
