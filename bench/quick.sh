#!/bin/bash
# SPDX-License-Identifier: MIT
# quick.sh ROUNDS CANDIDATE... - the per-event cost of a few builds of the
# bench workload, side by side, in a minute instead of make bench's 19:
# for telling whether a change to a record path helps before running the
# whole thing.
#
# A CANDIDATE is a name in build/bench (fdr-direct, fdr-inline, xray-fdr,
# floor-hooks, ...) or the path of a binary built the same way (a copy of
# one from another checkout: cp build/bench/xray-fdr /tmp/xray-old).  Its
# mode is told by its name, as run.sh tells it: xray* runs in fdr's XRay
# mode into a fresh embedded region, anything else with FDR_OPTIONS'
# threshold 0.  Each round runs the uninstrumented build and every
# candidate once, in that order; the cost per event is the candidate's
# CPU time per event less the uninstrumented build's in the same round.
# Prints, per workload and candidate, the median and the fastest of the
# rounds in ns per event.  Timing figures, not a verdict: the machine's
# other work moves the medians; compare candidates of one run only.
set -eu
OUT=$(cd "$(dirname "$0")/.." && pwd)/build/bench
CALLS=${BENCH_CALLS:-2000000}
[ $# -ge 2 ] && [ "$1" -gt 0 ] 2>/dev/null || {
	echo "usage: $0 ROUNDS CANDIDATE... (names in build/bench or paths; make -C bench build first)" >&2
	exit 2
}
rounds=$1
shift
bins=()
for c in none "$@"; do
	case $c in */*) b=$c ;; *) b=$OUT/$c ;; esac
	[ -x "$b" ] || { echo "quick.sh: $b: no such binary (make -C bench build)" >&2; exit 2; }
	bins+=("$b")
done
[ -x "$OUT/bench-region" ] || { echo "quick.sh: $OUT/bench-region missing (make -C bench build)" >&2; exit 2; }
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

run() { # binary: prints "workload calls events wall_ns cpu_ns" lines
	local b=$1 target
	case $(basename "$b") in
	xray*)
		target=embedded:quick-$$-$RANDOM
		"$OUT/bench-region" create "$target" >/dev/null
		FDR_TARGET=$target FDR_OPTIONS=func_duration_threshold_us=0 \
			XRAY_OPTIONS="patch_premain=true xray_mode=fdr" "$b" "$CALLS" || true
		"$OUT/bench-region" destroy "$target" >/dev/null ;;
	*)
		FDR_OPTIONS=func_duration_threshold_us=0 "$b" "$CALLS" ;;
	esac
}

for ((r = 1; r <= rounds; r++)); do
	for i in "${!bins[@]}"; do
		run "${bins[$i]}" 2>/dev/null | sed "s/^/$r $i /" >>"$raw"
	done
done
python3 - "$raw" "$OUT" "${bins[@]}" <<'EOF'
import os, statistics, sys
raw, out, bins = sys.argv[1], sys.argv[2], sys.argv[3:]
per = {}  # (workload, round, index) -> CPU ns per event
for line in open(raw):
    r, i, w, calls, events, wall, cpu = line.split()
    per[(w, r, int(i))] = int(cpu) / int(events)
for w in ("leaf", "tree"):
    for i, b in enumerate(bins[1:], 1):
        name = os.path.basename(b) if os.path.dirname(b) == out else b
        d = [per[k] - per[(w, k[1], 0)] for k in per
             if k[0] == w and k[2] == i and (w, k[1], 0) in per]
        if d:
            print(f"{w:5} {name:40} median {statistics.median(d):6.2f}"
                  f"  fastest {min(d):6.2f} ns/event ({len(d)} rounds)")
        else:
            print(f"{w:5} {name:40} no result: it failed (run it by hand)")
EOF
