#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh OUT BINDIR: spin.c (rounds of 1 M calls of one small function,
# thread CPU time per call) built four ways, each untraced, recorded by
# `fdr record -t 0` from its start, and attached to by `fdr record -p -t
# 0` for ATTACH_S seconds in the middle of a run; medians of the rounds
# into results.md.  Embedded backend, every call kept.
set -eu
OUT=$1 B=$2
SECONDS_RUN=${SECONDS_RUN:-3} ATTACH_S=${ATTACH_S:-1} REPEAT=${REPEAT:-3}
T=$(mktemp -d /tmp/bench-attach.XXXXXX)
trap 'rm -rf "$T"' EXIT
med() { sort -n | awk '{v[NR]=$1} END {if (NR) printf "%.2f", v[int((NR+1)/2)]; else print "-"}'; }
# rounds wholly inside [from, to] (ns)
inside() { awk -v a="$2" -v b="$3" '$1 >= a && $2 <= b {print $3}' "$1"; }
# the first and last round are partial or disturbed by start and exit
middle() { sed '1d;$d' "$1" | awk '{print $3}'; }
now() { date +%s%N; }

attached() { # PROG OUT: attach for ATTACH_S s once the program runs
	local pid t0 t1
	"$1" "$SECONDS_RUN" >"$2" &
	pid=$!
	sleep 0.8
	t0=$(now)
	"$B/fdr" record -p "$pid" -o "$T/d" -t 0 --duration "${ATTACH_S}s" 2>"$T/attach.err" ||
		{ cat "$T/attach.err" >&2; }
	t1=$(now)
	wait "$pid"
	# recording starts after the attach call and ends before the detach:
	# the rounds wholly between t0 and t1 are the attached ones
	inside "$2" "$t0" "$t1" >>"$2.in"
}

for k in $(seq "$REPEAT"); do
	for v in plain xray gcc; do
		"$OUT/spin_$v" "$SECONDS_RUN" >"$T/$v.untraced.$k"
		middle "$T/$v.untraced.$k" >>"$T/$v.untraced"
	done
	for v in xray gcc; do
		"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/spin_$v" "$SECONDS_RUN" >"$T/$v.start.$k" 2>/dev/null
		middle "$T/$v.start.$k" >>"$T/$v.start"
		attached "$OUT/spin_$v" "$T/$v.att.$k"
		cat "$T/$v.att.$k.in" >>"$T/$v.attached"
	done
done
row() { # NAME V
	local u s a
	u=$(med <"$T/$2.untraced")
	s=$( [ -f "$T/$2.start" ] && med <"$T/$2.start" || echo -)
	a=$( [ -f "$T/$2.attached" ] && med <"$T/$2.attached" || echo -)
	echo "| $1 | $u | $s | $a | $( [ -f "$T/$2.attached" ] && wc -l <"$T/$2.attached" || echo -) |"
}
{
	echo "# bench/attach: recording a running program"
	echo
	echo "\`spin.c\`: rounds of 1 M calls of a one-line \`noinline\` function, thread"
	echo "CPU time per call (ns), median of the rounds; $REPEAT runs of ${SECONDS_RUN} s each"
	echo "way; \`fdr record -t 0\` (every call kept, embedded backend) from the start,"
	echo "or \`fdr record -p PID -t 0 --duration ${ATTACH_S}s\` into a running one (only the"
	echo "rounds wholly inside the attached window count). $(date -u +%F), $(nproc) CPUs,"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
	echo
	echo "| build | untraced | recorded from the start | attached | attached rounds |"
	echo "|---|---|---|---|---|"
	row "clang-19 -O2 (no fdr-cc)" plain
	row "fdr-cc (XRay)" xray
	row "fdr-cc --gcc" gcc
} >results.md
cat results.md
