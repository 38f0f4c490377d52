#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""idle.py ROUNDS PLAIN FDRCC [NAME=LUA]...: does an fdr-cc build that
nobody records cost anything?  PLAIN and FDRCC are two builds of the Lua
interpreter (clang-19 -O2 and fdr-cc --patchable -O2, the same source, flags and
workload: bench/app/workload.lua over tests/realprog/workload.lua); the
others are shown beside them (where the cost comes from).  Each round
runs every build once, as its own process, the order rotating; CPU time
(user + system) of each run.  A build's ratio is the median over the
rounds of its CPU time ÷ the plain build's in the same round: on a
shared machine one run in a round may be 10 % off, and the medians of
the two builds taken apart moved 7 % from run to run where the paired
ratio moved 1 % (bench/attach/README.md).  Markdown on stdout; its
"- idle ratio" line is the issue-35 target (≤ 1.02), and one line more
gives each other build's ratio."""
import os
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
WORKLOAD = os.path.join(TOP, "tests", "realprog", "workload.lua")
SCRIPT = os.path.join(TOP, "bench", "app", "workload.lua")
LUA_ROUNDS = os.environ.get("BENCH_ATTACH_LUA_ROUNDS", "400")


def cpu_of(lua):
    """CPU seconds of one run of lua (run as ./lua in its directory, as
    bench/app does: argv[0] lives in Lua's heap), and its output."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("XRAY_OPTIONS", "FDR_OPTIONS", "FDR_TARGET")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(["./lua", SCRIPT, LUA_ROUNDS, WORKLOAD], cwd=os.path.dirname(lua),
                       env=env, stdout=subprocess.PIPE, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p.stdout


def main():
    rounds = int(sys.argv[1])
    builds = [("clang-19 -O2", sys.argv[2]),
              ("fdr-cc --patchable -O2, nobody records", sys.argv[3])]
    builds += [tuple(a.rsplit("=", 1)) for a in sys.argv[4:]]
    t = {lua: [] for _, lua in builds}
    outs = set()
    for r in range(rounds):
        for k in range(len(builds)):
            lua = builds[(r + k) % len(builds)][1]
            cpu, out = cpu_of(lua)
            t[lua].append(cpu)
            outs.add(out)
    plain = t[builds[0][1]]
    base = statistics.median(plain)

    def paired(lua):
        """the median of the per-round ratios to the plain build, and
        their quartiles"""
        r = sorted(a / b for a, b in zip(t[lua], plain))
        q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0], r[0], r[0]]
        return statistics.median(r), q[0], q[2]

    print("Lua 5.4 (bench/app's build and workload, %s workload rounds per run), CPU "
          "time (user + system) of the whole run, median of %d runs each, interleaved "
          "(the order rotates every round); ÷ clang-19 -O2 is the median of the "
          "rounds' ratios to the plain build's run in the same round:" % (LUA_ROUNDS, rounds))
    print()
    print("| build | CPU s (median) | min–max | ÷ clang-19 -O2 (paired) | quartiles of the ratio |")
    print("|---|---:|---|---:|---|")
    for name, lua in builds:
        m, q1, q3 = paired(lua)
        print("| %s | %.3f | %.3f–%.3f | %.3f× | %.3f–%.3f |" %
              (name, statistics.median(t[lua]), min(t[lua]), max(t[lua]), m, q1, q3))
    print()
    print("- idle ratio %.3f× (fdr-cc --patchable ÷ plain CPU time, median of the rounds' "
          "ratios; target ≤ 1.02×; ratio of the medians %.3f×)%s" %
          (paired(builds[1][1])[0], statistics.median(t[builds[1][1]]) / base,
           "" if len(outs) == 1 else "; the builds printed different output"))
    for name, lua in builds[2:]:
        print("- %s: %.3f×" % (name, paired(lua)[0]))


if __name__ == "__main__":
    main()
