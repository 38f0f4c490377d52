#!/bin/bash
# The cost of the scheduling records per context switch, in the VM (the
# module is never loaded on the host): bench/sched/README.md.
#
# usage: bench/sched/run.sh [--kver KVER]    (ROUNDS, REPS: see guest.sh)
# Prints the per-case medians and the added ns per switch; writes
# bench/sched/results.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/bench/sched
mkdir -p "$out/stage/b" "$out/stage/bin"
cc -O2 -std=gnu11 -Wall -Wextra -Werror -I"$top/uapi" -static -pthread \
	-o "$out/stage/b/pingpong" "$here/pingpong.c"
cp "$here/guest.sh" "$out/stage/b/guest.sh"
make -s -C "$top/userspace/tools/fdrctl" vm-install DESTDIR="$out/stage" >&2
[ -f "$top/kmod/fdr.ko" ] || make -C "$top" module >&2
"$top/scripts/vm/run" "$@" --ko "$top/kmod/fdr.ko" --add "$out/stage:/" \
	--timeout 900 -- "ROUNDS=${ROUNDS:-20000} REPS=${REPS:-7} sh /b/guest.sh" \
	| tee "$out/raw.txt" >&2
python3 - "$out/raw.txt" <<'PY' | tee "$here/results.txt"
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 2 and f[0] in ("baseline", "untraced", "traced"):
        rows.setdefault(f[0], []).append(float(f[1]))
med = {k: statistics.median(v) for k, v in rows.items()}
for k in ("baseline", "untraced", "traced"):
    if k not in med:
        sys.exit(f"sched bench: no {k} rounds in the guest's output")
    print(f"{k:9} {med[k]:10.1f} ns/switch  (median of {len(rows[k])}: "
          + " ".join(f"{x:.0f}" for x in rows[k]) + ")")
print(f"untraced - baseline: {med['untraced'] - med['baseline']:+.1f} ns/switch "
      f"({med['untraced'] / med['baseline']:.3f}x)")
print(f"traced - untraced:   {med['traced'] - med['untraced']:+.1f} ns/switch "
      f"({med['traced'] / med['untraced']:.3f}x)")
PY
