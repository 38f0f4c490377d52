#!/usr/bin/env python3
"""Write the log the filter tests (run_filters.sh) read: filters.xray
(v2, 1 GHz: one tick is one nanosecond) and filters.symmap.

thread 301, from TSC 1000000 (elapsed times count from there):
  main            0 .. 10000
    outer       100 ..  9000
      mid       200 ..  8000
        outer   300 ..  7000     (outer again, under mid: a nested -F)
          mid   400 ..  6000
            leaf 500 .. 600
        leaf   7100 ..  7200
    std::push  9100 ..  9900     (a C++ name: -F '^std::')
thread 302, from TSC 1020000:
  main2   20000 .. 21000
    leaf  20100 .. 20200
usage: gen_filters.py OUTDIR"""
import os
import sys

from gen_views import ENTER, EXIT, buffer, v2_header, write_symmap

MAIN, OUTER, MID, LEAF, PUSH, MAIN2 = 1, 2, 3, 4, 5, 6
T0 = 1000000
T301 = [(0, ENTER, MAIN), (100, ENTER, OUTER), (200, ENTER, MID), (300, ENTER, OUTER),
        (400, ENTER, MID), (500, ENTER, LEAF), (600, EXIT, LEAF), (6000, EXIT, MID),
        (7000, EXIT, OUTER), (7100, ENTER, LEAF), (7200, EXIT, LEAF), (8000, EXIT, MID),
        (9000, EXIT, OUTER), (9100, ENTER, PUSH), (9900, EXIT, PUSH), (10000, EXIT, MAIN)]
T302 = [(20000, ENTER, MAIN2), (20100, ENTER, LEAF), (20200, EXIT, LEAF),
        (21000, EXIT, MAIN2)]
SYMS = [(MAIN, "main"), (OUTER, "outer"), (MID, "mid"), (LEAF, "leaf"),
        (PUSH, "_ZN3std4pushEv"), (MAIN2, "main2")]


def at(events):
    return [(T0 + e[0],) + e[1:] for e in events]


def main():
    out = sys.argv[1]
    log = v2_header() + buffer(301, 10, 0, T0, at(T301)) + buffer(302, 10, 1, T0, at(T302))
    open(os.path.join(out, "filters.xray"), "wb").write(log)
    write_symmap(os.path.join(out, "filters.symmap"), SYMS, "/usr/bin/prog")


if __name__ == "__main__":
    main()
