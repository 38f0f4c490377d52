#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""latency.py FDR REPEAT NAME:PROG [ARG...] -- ...: how long
`fdr record -p` takes to attach and to detach.  For each program (its
arguments make it run for a while): start it, let it run 0.5 s, then
run `fdr record -p PID -o TMP` and time, on the monotonic clock,
  attach: from the command's start to its "attached to process" line
          (the program records from then on);
  detach: from SIGINT to its "detached from process" line (the program
          is as it was from then on);
  exit:   from SIGINT to fdr's exit (the flush of the log included).
REPEAT attaches per program, a fresh process each time; medians and
min–max.  Markdown on stdout."""
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def line_with(stream, word):
    """Read stream until a line containing word: (its time, the line), or
    (None, "") at EOF."""
    for line in stream:
        if word in line:
            return time.monotonic(), line
    return None, ""


def once(fdr, argv, tmp):
    prog = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        out = os.path.join(tmp, "d")
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.monotonic()
        rec = subprocess.Popen([fdr, "record", "-p", str(prog.pid), "-o", out],
                               stderr=subprocess.PIPE, text=True)
        t_att, said = line_with(rec.stderr, "attached to process")
        time.sleep(0.3)	# it records for a moment
        t1 = time.monotonic()
        rec.send_signal(signal.SIGINT)
        t_det, _ = line_with(rec.stderr, "detached from process")
        rec.stderr.read()
        rc = rec.wait()
        t_exit = time.monotonic()
        if t_att is None or t_det is None or rc:
            raise SystemExit("latency.py: fdr record -p on %s failed (exit %d)" % (argv[0], rc))
        m = re.search(r"(\d+) functions? patched", said)
        return t_att - t0, t_det - t1, t_exit - t1, m.group(1) if m else "?"
    finally:
        prog.kill()
        prog.wait()


def main():
    fdr, repeat = sys.argv[1], int(sys.argv[2])
    progs, cur = [], None
    for a in sys.argv[3:]:
        if a == "--":
            cur = None
        elif cur is None:
            name, path = a.split(":", 1)
            cur = [name, [path]]
            progs.append(cur)
        else:
            cur[1].append(a)
    tmp = tempfile.mkdtemp(prefix="bench-attach-lat.")
    print("`fdr record -p PID -o DIR` (default threshold, embedded backend) on a "
          "running program, %d attaches each, a fresh process each time; ms, median "
          "(min–max):" % repeat)
    print()
    print("| program | functions patched | attach: command to recording | detach: SIGINT to "
          "detached | SIGINT to fdr's exit (flush included) |")
    print("|---|---:|---:|---:|---:|")
    try:
        for name, argv in progs:
            r = [once(fdr, argv, tmp) for _ in range(repeat)]
            cells = []
            for k in range(3):
                v = [x[k] * 1000 for x in r]
                cells.append("%.1f (%.1f–%.1f)" % (statistics.median(v), min(v), max(v)))
            print("| %s | %s | %s |" % (name, r[-1][3], " | ".join(cells)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
