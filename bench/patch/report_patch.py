#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report_patch.py WL START ROUNDS CALLS COV_LUA COV_MANY: bench/patch's
Markdown from run.sh's raw lines.

WL:    "round set-up workload events cpu_ns", one per workload run
START: "program set-up wall_ns", one per start-up run
"""
import datetime
import os
import statistics
import sys

SETUPS = (("xray", "fdr, XRay mode (fdr-cc build)"),
          ("fdr-P", "fdr record -P (plain build)"),
          ("uftrace-P", "uftrace record -P (plain build)"))


def per_event(path):
    """{(set-up, workload): median ns per event over the rounds}"""
    cpu, events = {}, {}
    with open(path) as f:
        for line in f:
            r, who, wl, ev, ns = line.split()
            cpu[(r, who, wl)] = int(ns)
            events[wl] = int(ev)
    out = {}
    for who, _ in SETUPS:
        for wl in events:
            costs = [(ns - cpu[(r, "plain", wl)]) / events[wl]
                     for (r, w, k), ns in cpu.items()
                     if w == who and k == wl and (r, "plain", wl) in cpu]
            if costs:
                out[(who, wl)] = statistics.median(costs)
    return out, sorted(events)


def startup(path):
    """{(program, set-up): median wall ms}"""
    runs = {}
    with open(path) as f:
        for line in f:
            prog, who, ns = line.split()
            runs.setdefault((prog, who), []).append(int(ns) / 1e6)
    return {k: statistics.median(v) for k, v in runs.items()}


def main():
    wl_path, start_path, rounds, calls, cov_lua, cov_many = sys.argv[1:7]
    cost, wls = per_event(wl_path)
    st = startup(start_path)
    with open("/proc/cpuinfo") as f:
        cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    cpu = "%s, %s, %d CPUs, load average %s at the end" % (
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"), cpu,
        os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg()))
    print("# bench/patch: fdr record -P against fdr's XRay mode and uftrace record -P")
    print()
    print("%s interleaved rounds, each set-up its own process; %s calls per workload "
          "(bench/workload: leaf, tree), so %s events; -t 0 (every call kept), "
          "`--no-libcall -P '^bench_'` for both patchers (the workload's functions). "
          "Cost per event = (timed thread's CPU time − the untraced plain build's in "
          "the same round) ÷ events; medians. %s." % (rounds, calls, 2 * int(calls), cpu))
    print()
    print("| workload | %s |" % " | ".join(name + ", ns/event" for _, name in SETUPS))
    print("|---|---:|---:|---:|")
    for wl in wls:
        print("| %s | %s |" % (wl, " | ".join(
            "%.2f" % cost[(w, wl)] if (w, wl) in cost else "—" for w, _ in SETUPS)))
    print()
    xr = [cost[("fdr-P", wl)] / cost[("xray", wl)] for wl in wls
          if ("fdr-P", wl) in cost and cost.get(("xray", wl))]
    ur = [cost[("uftrace-P", wl)] / cost[("fdr-P", wl)] for wl in wls
          if ("uftrace-P", wl) in cost and cost.get(("fdr-P", wl))]
    if xr:
        print("- ratio (fdr -P ÷ fdr XRay mode, cost per event, the worse workload): "
              "%.2f (target: at most 1.5)" % max(xr))
    if ur:
        print("- uftrace -P ÷ fdr -P, cost per event, the worse workload: "
              "%.2f× (target: at least 3)" % min(ur))
    print()
    print("Start-up: wall time of the program doing nothing (`lua -e ''`; the "
          "generated program calls each of its functions once), medians in ms. "
          "`fdr record` without -P still preloads its runtime (library calls); "
          "the patching is the difference.")
    print()
    print("| program | untraced | fdr record | fdr record -P . | uftrace record --no-libcall -P . | -P coverage |")
    print("|---|---:|---:|---:|---:|---|")
    for prog, label, cov in (("lua", "Lua 5.4 (clang-19 -O2 -g)", cov_lua),
                             ("many", "20,000 functions (clang-19 -O2)", cov_many)):
        vals = ["%.1f" % st[(prog, w)] if (prog, w) in st else "—"
                for w in ("untraced", "fdr", "fdr-P", "uftrace-P")]
        print("| %s | %s | %s |" % (label, " | ".join(vals), cov or "—"))
    print()
    for prog, label in (("lua", "Lua"), ("many", "20,000 functions")):
        if (prog, "fdr-P") in st and (prog, "fdr") in st:
            print("- start-up to patch %s: %.1f ms (fdr record -P . − fdr record)"
                  % (label, st[(prog, "fdr-P")] - st[(prog, "fdr")]))


if __name__ == "__main__":
    main()
