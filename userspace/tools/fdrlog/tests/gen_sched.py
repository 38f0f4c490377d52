#!/usr/bin/env python3
"""Write a log and its scheduling files for run_sched.sh (and fdr_test.sh).

sched.xray (v2, 1 GHz: one tick is one nanosecond), sched.symmap, the
side table sched.xray.threads, and sched.xray.sched, the context switches
fdr.ko would record:
  thread 101 of process 100: main [1000, 9001000) calls work [2000,
      5002000), which calls leaf [3000, 2103000).  leaf sleeps at 100000,
      is woken by thread 102 at 2100000 and runs again at 2101000; work is
      preempted at 3000000 and runs again at 3500000; main waits in D
      state at 6000000, woken by a hard interrupt at 7000000, runs at
      7000500.
  thread 102 of process 100: waker [2000000, 2200000), sleeps at 2500000.
  A record of an unknown type (7) at 4000000, to be skipped.
So, in ns: leaf on CPU 99000, runnable 1000, blocked 2000000; work 2499000,
501000, 2000000; main 5498500, 501500, 3000000; waker 200000, 0, 0.

Next to it the hostile variants bad-*.sched (each must be refused and the
log read as without one) and lost.sched (records_lost = 3: time before a
thread's first record is unknown).
usage: gen_sched.py OUTDIR"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_views import ENTER, EXIT, FREQ, buffer, v2_header, write_symmap  # noqa: E402

MAIN = [(1000, ENTER, 1), (2000, ENTER, 2), (3000, ENTER, 3), (2103000, EXIT, 3),
        (5002000, EXIT, 2), (9001000, EXIT, 1)]
WAKER = [(2000000, ENTER, 4), (2200000, EXIT, 4)]
SYMS = [(1, "main"), (2, "work"), (3, "leaf"), (4, "waker")]
OUT, IN, WAKEUP = 1, 2, 3
# (tsc, type, state, cpu, tid, other_tid)
SCHED = [(100000, OUT, 1, 0, 101, 0), (2100000, WAKEUP, 0, 1, 101, 102),
         (2101000, IN, 0, 0, 101, 102), (2500000, OUT, 1, 1, 102, 0),
         (3000000, OUT, 0, 0, 101, 55), (3500000, IN, 0, 0, 101, 55),
         (4000000, 7, 0, 0, 101, 0), (6000000, OUT, 2, 0, 101, 0),
         (7000000, WAKEUP, 1, 0, 101, 0), (7000500, IN, 0, 0, 101, 0)]


THREADS = """fdrd-threads\t1
thread\t101\tpid\t100\tbuffers\t1\tcomm\tmain\texe\t/usr/bin/sched
thread\t102\tpid\t100\tbuffers\t1\tcomm\twaker\texe\t/usr/bin/sched
"""


def sched_file(records, lost=0, magic=0x46534446, version=1, record_size=32, nr=None):
    body = b"".join(struct.pack("<QBBHiiiiI", tsc, typ, st, cpu, 100, tid,
                                100 if other else 0, other, 0)
                    for tsc, typ, st, cpu, tid, other in records)
    head = struct.pack("<IHHHHIQQQII16x", magic, version, 64, record_size, 0, 1, FREQ,
                       len(records) if nr is None else nr, lost, 2, 0)
    return head + body


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    log = v2_header() + buffer(101, 10, 0, 1000, MAIN) + buffer(102, 10, 1, 2000000, WAKER)
    path = os.path.join(out, "sched.xray")
    open(path, "wb").write(log)
    open(path + ".sched", "wb").write(sched_file(SCHED))
    open(path + ".threads", "w").write(THREADS)
    write_symmap(os.path.join(out, "sched.symmap"), SYMS, "/usr/bin/sched")
    good = sched_file(SCHED)
    bad = {
        "magic": sched_file(SCHED, magic=0x46534447),
        "version": sched_file(SCHED, version=2),
        "recsize": sched_file(SCHED, record_size=40),
        "overflow": sched_file(SCHED, nr=2**64 - 1),
        "truncated": good[:-8],
        "short": good[:40],
    }
    for name, data in bad.items():
        open(os.path.join(out, "bad-%s.sched" % name), "wb").write(data)
    open(os.path.join(out, "lost.sched"), "wb").write(sched_file(SCHED, lost=3))


if __name__ == "__main__":
    main()
