#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""run.py BINS BIN TMP: bench/app's rounds and its Markdown (stdout).

BINS holds the three Lua interpreters run.sh built (none, fdr, pg; fdr
also runs compiler-rt's FDR mode);
BIN is fdr's build/bin (fdr record); TMP a scratch directory for the logs.
Each round runs every candidate once, as its own process, in an order
that rotates every round; every figure is a median over the rounds.
A candidate whose run fails or prints another checksum than the
uninstrumented interpreter is reported as such and not compared.
Environment: BENCH_APP_ROUNDS (default 5), BENCH_APP_LUA_ROUNDS (the
workload's own rounds, default 12).
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
COMPARE = os.path.join(TOP, "tests", "realprog", "compare_counts.py")
WORKLOAD = os.path.join(TOP, "tests", "realprog", "workload.lua")
MIB = 1 << 20
# Room for every record of the workload, so that no tracer drops or
# overwrites any (the counts are compared): 512 buffers of 1 MiB.
BUFFERS = 512

NAMES = {
    "none": "uninstrumented (clang-19 -O2)",
    "fdr-t0": "fdr, XRay mode, threshold 0, every call kept (`fdr record -t 0 --stream`)",
    "fdr-5us": "fdr, XRay mode, default threshold 5 µs (`fdr record --stream`)",
    "fdr-ring": "fdr, threshold 0, its default ring: 4 MiB per CPU, the last calls only (`fdr record -t 0`)",
    "fdr-big": "fdr, threshold 0, a 256 × 1 MiB ring per CPU kept whole (`fdr record -t 0 -b 1M -n 256`)",
    "xray-fdr-t0": "compiler-rt XRay FDR, threshold 0",
    "xray-fdr-5us": "compiler-rt XRay FDR, threshold 5 µs (its default)",
    "uftrace": "uftrace record (its own `-pg` build)",
}
ORDER = list(NAMES)
BUILD_OF = {"none": "none", "fdr-t0": "fdr", "fdr-5us": "fdr", "fdr-ring": "fdr",
            "fdr-big": "fdr", "xray-fdr-t0": "fdr",
            "xray-fdr-5us": "fdr", "uftrace": "pg"}


def command(cand, bindir, out, lua_rounds):
    """argv and environment of one run of cand, its log under out (it runs
    in the directory of its build, BUILD_OF)."""
    env = dict(os.environ)
    for k in ("XRAY_OPTIONS", "FDR_OPTIONS", "FDR_TARGET", "LUA_INIT", "LUA_INIT_5_4"):
        env.pop(k, None)
    # Each runs as ./lua in its own directory: argv[0] is a string in
    # Lua's heap, and another length would shift its garbage collector,
    # hence its calls (the counts are compared).
    lua = ["./lua", os.path.join(HERE, "workload.lua"), str(lua_rounds), WORKLOAD]
    if cand == "none":
        return lua, env
    if cand.startswith("fdr-"):
        # fdr keeps every call by streaming through its default ring
        # (64 KiB x 512 per CPU, reused); fdr-ring is that ring alone
        # (it wraps), fdr-big a ring with room for the whole run.
        # --no-libcall: Lua's functions only, as compiler-rt records
        # (the counts are compared).
        t = ["--no-libcall"] + ([] if cand == "fdr-5us" else ["-t", "0"])
        ring = {"fdr-ring": [], "fdr-big": ["-b", "1M", "-n", str(BUFFERS // 2)]}
        return [os.path.join(bindir, "fdr"), "record", "-o", out] + t + \
            ring.get(cand, ["--stream"]) + ["--"] + lua, env
    if cand.startswith("xray-fdr-"):
        os.makedirs(out)
        env["XRAY_OPTIONS"] = "patch_premain=false xray_logfile_base=%s/xray-log." % out
        env["BENCH_XRAY_FDR_OPTIONS"] = "buffer_size=%d buffer_max=%d func_duration_threshold_us=%d" % (
            MIB, BUFFERS, 0 if cand == "xray-fdr-t0" else 5)
        return lua, env
    return ["uftrace", "record", "-d", out] + lua, env


def run_once(cand, bins, bindir, tmp, lua_rounds):
    """(wall s, CPU s of the children, status text, stdout) of one run."""
    out = os.path.join(tmp, cand)
    shutil.rmtree(out, ignore_errors=True)
    argv, env = command(cand, bindir, out, lua_rounds)
    cwd = os.path.join(bins, BUILD_OF[cand])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(os.path.join(tmp, cand + ".err"), "w") as f:
        f.write(p.stderr)
    last = (p.stderr.strip().splitlines() or [""])[-1]
    if p.returncode < 0 or p.returncode >= 128:
        sig = -p.returncode if p.returncode < 0 else p.returncode - 128
        status = "crashed (signal %d)" % sig
    elif "terminated by signal" in p.stderr:	# uftrace's word for it
        status = "crashed (%s)" % last.replace("WARN: ", "")
    elif p.returncode:
        status = "failed (exit %d: %s)" % (p.returncode, last)
    elif cand.startswith("fdr-") and cand != "fdr-ring" and \
            " 0 buffers recycled, 0 dropped" not in p.stderr:
        status = "lost records: %s" % last
    else:
        status = "ok"
    return wall, cpu, status, p.stdout


def enters(bindir, log, binary, path):
    """Enter records per function name of log into path ("name<TAB>count",
    compare_counts.py's format), through fdrlog convert --format yaml."""
    conv = subprocess.Popen([os.path.join(bindir, "fdrlog"), "convert", "--format", "yaml",
                             "--instr-map", binary, log], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    with open(path, "w") as f:
        p = subprocess.run([sys.executable, COMPARE, "enters", "-"], stdin=conv.stdout, stdout=f)
    conv.stdout.close()
    return conv.wait() == 0 and p.returncode == 0


def counts_check(bins, bindir, tmp):
    """Do fdr's and compiler-rt's threshold-0 logs hold the same calls
    (Enter records) of every function?  (text, ok).  Enters, not
    llvm-xray-19 account: Lua's error() and coroutines longjmp over frames
    whose exits compiler-rt never records, and account refuses both logs
    of a thread of more than 16 buffers (Documentation/reader.md, rule 4)."""
    logs = [f for f in os.listdir(os.path.join(tmp, "xray-fdr-t0")) if f.startswith("xray-log.")]
    if not logs:
        return "compiler-rt wrote no log", False
    binary = os.path.join(bins, BUILD_OF["fdr-t0"], "lua")	# both modes' binary
    paths = []
    for name, log in (("fdr", os.path.join(tmp, "fdr-t0", "log.xray")),
                      ("xray", os.path.join(tmp, "xray-fdr-t0", logs[0]))):
        path = os.path.join(tmp, name + ".enters")
        if not enters(bindir, log, binary, path):
            return "fdrlog could not read %s's log" % name, False
        paths.append(path)
    p = subprocess.run([sys.executable, COMPARE, "equal"] + paths, capture_output=True, text=True)
    with open(paths[1]) as f:
        calls = sum(int(line.split("\t")[1]) for line in f)
    if p.returncode:
        return "they differ: %s" % " ".join(p.stdout.split())[:400], False
    return "equal for every function (%d calls)" % calls, True


def main():
    bins, bindir, tmp = sys.argv[1:4]
    rounds = int(os.environ.get("BENCH_APP_ROUNDS", "5"))
    lua_rounds = int(os.environ.get("BENCH_APP_LUA_ROUNDS", "12"))
    wall = {c: [] for c in ORDER}
    cpu = {c: [] for c in ORDER}
    status = {c: "ok" for c in ORDER}
    lost = {c: 0 for c in ORDER}	# runs whose stream dropped records
    _, _, st, want = run_once("none", bins, bindir, tmp, lua_rounds)
    if st != "ok":
        sys.exit("bench/app: the uninstrumented interpreter %s" % st)
    for r in range(rounds):
        for i in range(len(ORDER)):
            cand = ORDER[(i + r) % len(ORDER)]
            if status[cand] != "ok":
                continue
            w, c, st, got = run_once(cand, bins, bindir, tmp, lua_rounds)
            if st == "ok" and got != want:
                st = "printed something else than the uninstrumented interpreter"
            if st.startswith("lost records") and lost[cand] < rounds - 1:
                # reported, not timed; the candidate runs again next round
                lost[cand] += 1
                print("bench/app: %s %s" % (cand, st), file=sys.stderr)
                continue
            if st != "ok":
                status[cand] = st
                continue
            wall[cand].append(w)
            cpu[cand].append(c)
        print("bench/app: round %d of %d done" % (r + 1, rounds), file=sys.stderr)
    report(wall, cpu, status, lost, rounds, lua_rounds, want, bins, bindir, tmp)


def report(wall, cpu, status, lost, rounds, lua_rounds, want, bins, bindir, tmp):
    med = {c: statistics.median(v) for c, v in wall.items() if v and status[c] == "ok"}
    medc = {c: statistics.median(v) for c, v in cpu.items() if v and status[c] == "ok"}
    base = med["none"]
    counts, counts_ok = (counts_check(bins, bindir, tmp) if "fdr-t0" in med and "xray-fdr-t0" in med
                         else ("not compared (a threshold-0 run failed)", False))
    print("## Application: Lua 5.4 from Debian's source package (bench/app)\n")
    print("Lua 5.4 from Debian's source package, built by its own Makefile "
          "(`scripts/realprog/build-lua.sh`) three times: uninstrumented, through `fdr-cc` "
          "(the same binary runs fdr and compiler-rt's FDR mode, which `xray_fdr_start.c` "
          "starts), and with `-pg` for uftrace; all clang-19 -O2 -g. Input: `tests/realprog/workload.lua`, %d times in one "
          "interpreter (`bench/app/workload.lua`; its last line `%s`). Wall time of the whole command (the log written), medians of "
          "%d interleaved rounds. Every tracer keeps every record: compiler-rt in 1 MiB buffers, "
          "%d of them; fdr by streaming (`--stream`: its default ring of 64 KiB × 512 per CPU, "
          "reused, written out while Lua runs), or in a ring of 256 × 1 MiB per CPU (a row "
          "for reference); the row of fdr's default ring alone (it wraps and keeps the last "
          "calls) is the cost keeping everything is held to. fdr runs with `--no-libcall`: "
          "Lua's own functions, as compiler-rt records them.\n"
          % (lua_rounds, want.strip().splitlines()[-1], rounds, BUFFERS))
    print("| candidate | wall s | slowdown | CPU s | spread (min–max wall) |")
    print("|---|---:|---:|---:|---:|")
    for c in ORDER:
        if c not in med:
            print("| %s | %s | | | |" % (NAMES[c], status[c]))
            continue
        print("| %s | %.3f | %.2f× | %.3f | %.3f–%.3f |" % (
            NAMES[c], med[c], med[c] / base, medc[c], min(wall[c]), max(wall[c])))
    print()
    print("- calls per function, fdr's threshold-0 log vs compiler-rt's: %s" % counts)
    if "fdr-t0" in med and "fdr-5us" in med:
        print("- ratio %.3f (fdr's default threshold 5 µs ÷ threshold 0, wall time; target ≤ 1)"
              % (med["fdr-5us"] / med["fdr-t0"]))
    for peer, mine in (("xray-fdr-t0", "fdr-t0"), ("xray-fdr-5us", "fdr-5us"), ("uftrace", "fdr-t0")):
        if mine not in med:
            continue
        if peer not in med:
            print("- peer %s: %s" % (peer, status[peer]))
        else:
            print("- peer %s: %.3f (fdr %s ÷ it, wall time; < 1: fdr ahead)"
                  % (peer, med[mine] / med[peer], mine))
    if "fdr-t0" in medc and "fdr-ring" in medc:
        print("- keep ratio %.3f (fdr keeping every call, `--stream`, ÷ its 4 MiB ring, both "
              "threshold 0, CPU time of the whole command; target ≤ 1.3)"
              % (medc["fdr-t0"] / medc["fdr-ring"]))
    for c in ORDER:
        if lost[c]:
            print("- %s: records dropped in %d of %d runs (not timed): %s"
                  % (c, lost[c], len(cpu[c]) + lost[c], "the stream fell behind"))
    if not counts_ok:
        print("- counts check failed", file=sys.stderr)


if __name__ == "__main__":
    main()
