#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh [OUT BINDIR]: bench/attach (README.md); Markdown on stdout and
# into results.md.  (1) spin.c (rounds of 1 M calls of one small function,
# thread CPU time per call) built three ways, each untraced, recorded by
# `fdr record -t 0` from its start, and attached to by `fdr record -p -t
# 0` for ATTACH_S seconds in the middle of a run; medians of the rounds.
# Embedded backend, every call kept.  (2) idle.py: the Lua interpreter
# built by clang-19 and by fdr-cc, nobody recording, CPU time.  (3)
# latency.py: attach and detach times on Lua and on 20,000 functions.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
OUT=${1:-$top/build/bench-attach} B=${2:-$top/build/bin}
IDLE_ROUNDS=${IDLE_ROUNDS:-15} LAT_REPEAT=${LAT_REPEAT:-5}
make -s -C "$here" build OUT="$OUT" BINDIR="$B" >&2
# Lua, bench/app's way: plain; fdr-cc alone (nobody records); and, to
# tell where a cost comes from, XRay's sleds alone (-fxray-instrument
# with fdr-cc's threshold, compiler-rt's runtime, no libfdr) and
# fdr-cc's XRay sleds at clang's default threshold (functions of 200
# instructions or more only; fdr-cc uses 1); and fdr-cc --patchable (a
# 5-byte nop a function, fdr's runtime patching them when recording)
for v in none fdrcc sleds thr200 pfe; do
	case $v in
	none) cc=clang-19 ;;
	fdrcc) cc=$B/fdr-cc ;;
	sleds) cc="clang-19 -fxray-instrument -fxray-instruction-threshold=1" ;;
	thr200) cc="$B/fdr-cc -fxray-instruction-threshold=200" ;;
	pfe) cc="$B/fdr-cc --patchable" ;;
	esac
	rm -rf "$OUT/lua-$v.src" "$OUT/lua-$v"; mkdir -p "$OUT/lua-$v"
	cp "$("$top/scripts/realprog/build-lua.sh" "$OUT/lua-$v.src" "$cc")" "$OUT/lua-$v/lua"
	rm -rf "$OUT/lua-$v.src"
done
cd "$here"
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
	# each line of fdr record's stderr with the time it came
	"$B/fdr" record -p "$pid" -o "$T/d" -t 0 --duration "${ATTACH_S}s" 2>&1 >/dev/null |
		while IFS= read -r l; do echo "$(now) $l"; done >"$T/attach.err"
	wait "$pid"
	# recording runs from its "attached" line to its "detached" line (the
	# flush after it runs untraced rounds): the rounds wholly between
	t0=$(awk '/ attached to process/ {print $1; exit}' "$T/attach.err")
	t1=$(awk '/ detached from process/ {print $1; exit}' "$T/attach.err")
	if [ -z "$t0" ] || [ -z "$t1" ]; then
		cat "$T/attach.err" >&2
		return
	fi
	inside "$2" "$t0" "$t1" >>"$2.in"
}

for k in $(seq "$REPEAT"); do
	for v in plain xray gcc pfe; do
		"$OUT/spin_$v" "$SECONDS_RUN" >"$T/$v.untraced.$k"
		middle "$T/$v.untraced.$k" >>"$T/$v.untraced"
	done
	for v in xray gcc pfe; do
		"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/spin_$v" "$SECONDS_RUN" >"$T/$v.start.$k" 2>/dev/null
		middle "$T/$v.start.$k" >>"$T/$v.start"
		attached "$OUT/spin_$v" "$T/$v.att.$k"
		cat "$T/$v.att.$k.in" >>"$T/$v.attached" 2>/dev/null || true
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
	echo "rounds wholly between its \"attached\" and \"detached\" lines count). $(date -u +%F), $(nproc) CPUs,"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
	echo
	echo "| build | untraced | recorded from the start | attached | attached rounds |"
	echo "|---|---|---|---|---|"
	row "clang-19 -O2 (no fdr-cc)" plain
	row "fdr-cc (XRay)" xray
	row "fdr-cc --gcc" gcc
	row "fdr-cc --patchable" pfe
	echo
	echo "## An fdr-cc --patchable build nobody records (issue 35: within 2 %)"
	echo
	python3 "$here/idle.py" "$IDLE_ROUNDS" "$OUT/lua-none/lua" "$OUT/lua-pfe/lua" \
		"fdr-cc -O2 (XRay, the default), nobody records=$OUT/lua-fdrcc/lua" \
		"clang-19 -fxray-instrument -fxray-instruction-threshold=1 (XRay sleds, no fdr)=$OUT/lua-sleds/lua" \
		"fdr-cc -O2 -fxray-instruction-threshold=200, nobody records=$OUT/lua-thr200/lua"
	echo
	echo "## Attach and detach times (issue 35)"
	echo
	python3 "$here/latency.py" "$B/fdr" "$LAT_REPEAT" \
		"Lua 5.4 (fdr-cc)":"$OUT/lua-fdrcc/lua" "$top/bench/app/workload.lua" 100000 \
		"$top/tests/realprog/workload.lua" -- \
		"Lua 5.4 (fdr-cc --patchable)":"$OUT/lua-pfe/lua" "$top/bench/app/workload.lua" 100000 \
		"$top/tests/realprog/workload.lua" -- \
		"gen_funcs.py 20000 (fdr-cc)":"$OUT/funcs_xray" 600 -- \
		"gen_funcs.py 20000 (fdr-cc --patchable)":"$OUT/funcs_pfe" 600
} >"$T/results.md"
cp "$T/results.md" results.md
cat results.md
