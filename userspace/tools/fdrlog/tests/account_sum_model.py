#!/usr/bin/env python3
"""account_sum_model.py YAML ACCOUNT: check fdrlog account's count and sum
columns against a model of its rules, written apart from call_walk.c:
records in the YAML's (TSC) order, one stack per thread, an exit closes
the topmost frame of its function and every frame above it (an exit of a
function not on the stack counts nothing), and a call adds to its
function's sum only when no frame of the same function is left below it
(recursion counted once).  Exit 0 when every function agrees."""
import collections
import re
import sys

REC = re.compile(r"func-id: (\d+), .*thread: (\d+), .*kind: function-([a-z-]+), tsc: (\d+)")


def model(yaml):
    stacks = collections.defaultdict(list)
    calls, ticks, freq = collections.Counter(), collections.Counter(), 1
    for line in open(yaml):
        if "cycle-frequency:" in line:
            freq = int(line.split()[-1]) or 1
        m = REC.search(line)
        if not m:
            continue
        fid, tid, kind, tsc = int(m[1]), int(m[2]), m[3], int(m[4])
        st = stacks[tid]
        if kind.startswith("enter"):
            st.append((fid, tsc))
            continue
        at = max((i for i, f in enumerate(st) if f[0] == fid), default=None)
        if at is None:
            continue
        entry = st[at][1]
        del st[at:]
        calls[fid] += 1
        if all(f != fid for f, _ in st):
            ticks[fid] += tsc - entry
    return {f: (calls[f], "%.9f" % (ticks[f] / freq)) for f in calls}


def account(path):
    got = {}
    for line in open(path):
        p = line.split()
        if len(p) >= 8 and p[0].lstrip("-").isdigit() and p[1].isdigit():
            got[int(p[0])] = (int(p[1]), p[7])
    return got


def main():
    want, got = model(sys.argv[1]), account(sys.argv[2])
    for f in sorted(set(want) | set(got)):
        if want.get(f) != got.get(f):
            print("function %d: model %s, account %s" % (f, want.get(f), got.get(f)))
    sys.exit(want != got)


if __name__ == "__main__":
    main()
