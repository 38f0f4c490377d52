#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh OUT BINDIR: fdr record -P against fdr's XRay mode and uftrace
# record -P, in interleaved rounds, one process each; prints Markdown
# (its "ratio" line is the headline bench/report.py reads) and writes it
# to results.md beside this script.
#
# Per event: the harness's timed-thread CPU time of each workload, minus
# that of the same plain binary untraced in the same round, over the
# events (an entry and an exit per call); medians over the rounds.
# Start-up: wall time of `PROG` doing nothing (`lua -e ''`; the 20,000
# functions' main) under each recorder, medians.
set -eu
OUT=$1 B=$2
ROUNDS=${ROUNDS:-5} CALLS=${CALLS:-2000000}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/bench-patch.XXXXXX)
trap 'rm -rf "$T"' EXIT
SEL='^bench_'	# the workload's traced functions, as XRay's build has them

# set-up name, then its command line; the plain binary's workloads
run_wl() {
	local name=$1
	shift
	"$@" "$CALLS" leaf tree 2>>"$T/err" | awk -v n="$name" -v r="$r" '{print r, n, $1, $3, $5}' >>"$T/wl"
}
now() { date +%s%N; }
# name, then the command: its wall time in ns into $T/start
run_start() {
	local name=$1 t0
	shift
	rm -rf "$T/d"
	t0=$(now)
	"$@" >/dev/null 2>>"$T/err"
	echo "$name $(($(now) - t0))" >>"$T/start"
}
startup_round() { # NAME PROG ARGS...
	local p=$1
	shift
	run_start "$p untraced" "$@"
	run_start "$p fdr" "$B/fdr" record -o "$T/d" -- "$@"
	run_start "$p fdr-P" "$B/fdr" record -o "$T/d" -P . -- "$@"
	run_start "$p uftrace-P" uftrace record --no-libcall -P . -d "$T/d" "$@"
}

for r in $(seq "$ROUNDS"); do
	run_wl plain "$OUT/plain"
	run_wl xray "$B/fdr" record -o "$T/d" -t 0 -- "$OUT/xray"
	run_wl fdr-P "$B/fdr" record -o "$T/d" -t 0 --no-libcall -P "$SEL" -- "$OUT/plain"
	rm -rf "$T/d"
	run_wl uftrace-P uftrace record --no-libcall -P "$SEL" -d "$T/d" "$OUT/plain"
	rm -rf "$T/d"
	startup_round lua "$OUT/lua" -e ''
	startup_round many "$OUT/many"
done
# what -P patched: the coverage line of one more run of each program
cov() { "$B/fdr" record -o "$T/c" -P . -- "$@" 2>&1 >/dev/null | sed -n 's/^fdr record: -P: [^:]*: //p'; rm -rf "$T/c"; }
cov_lua=$(cov "$OUT/lua" -e '') cov_many=$(cov "$OUT/many")
python3 "$HERE/report_patch.py" "$T/wl" "$T/start" "$ROUNDS" "$CALLS" "$cov_lua" "$cov_many" \
	>"$HERE/results.md"
cat "$HERE/results.md"
