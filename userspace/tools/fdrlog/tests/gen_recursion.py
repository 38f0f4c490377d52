#!/usr/bin/env python3
"""Write recursion.xray, a log whose totals a report can get wrong by
adding a recursive function's nested frames again (issue 34), for
run_recursion.sh and fdr_test.sh.

v2, 1 GHz (a tick is a nanosecond), names in fdr-syms.100.map (the name
map fdr report finds next to a log), threads of
process 100 in recursion.xray.threads, and recursion.xray.sched: thread
101 is preempted for 30 ns inside fib's two outermost frames.

  thread 101: main [1000, 5000) calls
      fib [1100, 2100) -> fib [1200, 1700) -> fib [1300, 1400),
                                            fib [1500, 1550);
                          fib [1800, 1900)               (direct recursion)
      even [2200, 3200) -> odd [2300, 3000) -> even [2400, 2800)
                                            -> odd [2500, 2600)  (mutual)
      a [3300, 3350) tail-calls b [3350, 3400) tail-calls a [3400, 3500)
        tail-calls b [3500, 3800)                  (a tail-call chain)
      c [3900, 3950) tail-calls c [3950, 4000)     (tail self-call)
  thread 102, at the same time: worker [1150, 2000) calls
      fib [1250, 1650) -> fib [1350, 1450);
      fib [1700, 1900) -> fib [1750, 1800) -> fib [1760, 1790)
  thread 103: fib [2000, 3000) -> worker [2100, 2600) -> fib [2200, 2500)
                                               (recursion through worker)

A function's total runs from its outermost entry to that entry's exit, on
each thread; self times and calls count every call:
  fib    12 calls, total 1000 + 600 + 1000 = 2600, self 1000 + 600 + 800 = 2400
         (adding every frame: 1750 + 780 + 1300 = 3830)
  main    1, total 4000, self 1400      worker  2, total 1350, self 450
  even    2, total 1000, self 600       odd     2, total 700, self 400
  a       2, total 150, self 150        b       2, total 350, self 350
  c       2, total 100, self 100
With -F worker, only worker's subtrees: fib 6 calls, total 600 + 300 = 900
(on thread 103 the enclosing fib is not in the report), self 900.
usage: gen_recursion.py OUTDIR"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_views import ENTER, EXIT, TAIL, buffer, v2_header, write_symmap  # noqa: E402
from gen_sched import IN, OUT, sched_file  # noqa: E402

MAIN, FIB, EVEN, ODD, A, B, C, WORKER = range(1, 9)
T101 = [(1000, ENTER, MAIN),
        (1100, ENTER, FIB), (1200, ENTER, FIB), (1300, ENTER, FIB), (1400, EXIT, FIB),
        (1500, ENTER, FIB), (1550, EXIT, FIB), (1700, EXIT, FIB),
        (1800, ENTER, FIB), (1900, EXIT, FIB), (2100, EXIT, FIB),
        (2200, ENTER, EVEN), (2300, ENTER, ODD), (2400, ENTER, EVEN), (2500, ENTER, ODD),
        (2600, EXIT, ODD), (2800, EXIT, EVEN), (3000, EXIT, ODD), (3200, EXIT, EVEN),
        (3300, ENTER, A), (3350, TAIL, A), (3350, ENTER, B), (3400, TAIL, B),
        (3400, ENTER, A), (3500, TAIL, A), (3500, ENTER, B), (3800, EXIT, B),
        (3900, ENTER, C), (3950, TAIL, C), (3950, ENTER, C), (4000, EXIT, C),
        (5000, EXIT, MAIN)]
T102 = [(1150, ENTER, WORKER),
        (1250, ENTER, FIB), (1350, ENTER, FIB), (1450, EXIT, FIB), (1650, EXIT, FIB),
        (1700, ENTER, FIB), (1750, ENTER, FIB), (1760, ENTER, FIB), (1790, EXIT, FIB),
        (1800, EXIT, FIB), (1900, EXIT, FIB),
        (2000, EXIT, WORKER)]
T103 = [(2000, ENTER, FIB), (2100, ENTER, WORKER), (2200, ENTER, FIB), (2500, EXIT, FIB),
        (2600, EXIT, WORKER), (3000, EXIT, FIB)]
SYMS = [(MAIN, "main"), (FIB, "fib"), (EVEN, "even"), (ODD, "odd"), (A, "a"), (B, "b"),
        (C, "c"), (WORKER, "worker")]
# thread 101 runnable [1250, 1280): inside fib [1100, 2100) and fib [1200, 1700)
SCHED = [(1250, OUT, 0, 0, 101, 55), (1280, IN, 0, 0, 101, 55)]

THREADS = """fdrd-threads\t1
thread\t101\tpid\t100\tbuffers\t1\tcomm\tmain\texe\t/usr/bin/rec
thread\t102\tpid\t100\tbuffers\t1\tcomm\tworker\texe\t/usr/bin/rec
thread\t103\tpid\t100\tbuffers\t1\tcomm\tother\texe\t/usr/bin/rec
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    log = v2_header() + buffer(101, 10, 0, 1000, T101) + buffer(102, 10, 1, 1150, T102)
    log += buffer(103, 10, 1, 2000, T103)
    path = os.path.join(out, "recursion.xray")
    open(path, "wb").write(log)
    open(path + ".sched", "wb").write(sched_file(SCHED))
    open(path + ".threads", "w").write(THREADS)
    write_symmap(os.path.join(out, "fdr-syms.100.map"), SYMS, "/usr/bin/rec")


if __name__ == "__main__":
    main()
