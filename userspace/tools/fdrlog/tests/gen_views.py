#!/usr/bin/env python3
"""Write the known logs the view tests (run_views.sh) read: replay, flame,
Chrome with the side table, and the llvm-xray export.

clean.xray: thread 101 alone (nothing lost).
unwound.xray: exits that close deeper frames and one of a function not on
the stack (see UNWOUND).
views.xray (v2, 1 GHz: one tick is one nanosecond), its .threads table
and views.symmap (C and C++ names):
  thread 101 of process 100 (server): main calls parse(7), a custom event,
      work calls leaf twice; every Enter has its Exit.
  thread 102 of process 100 (worker): its ring wrapped, so it starts with
      the Exits of leaf and work whose Enters were overwritten, then a
      complete work/leaf, then main left open at the end.
  thread 201 of process 200 (client): ns::foo() (C++), and ns::bar<int>
      leaving through a tail call.
usage: gen_views.py OUTDIR"""
import os
import struct
import sys

FREQ = 1000000000
ENTER, EXIT, TAIL, ENTER_ARG = 0, 1, 2, 3


def md(kind, payload=b""):
    return bytes([(kind << 1) | 1]) + payload.ljust(15, b"\0")


def fn(kind, fid, delta):
    return struct.pack("<II", (fid << 4) | (kind << 1), delta)


def buffer(tid, wall_s, cpu, base, events):
    """events: (tsc, kind, fid[, arg]) or (tsc, 'custom', bytes)."""
    body = md(0, struct.pack("<i", tid)) + md(4, struct.pack("<QI", wall_s, 0))
    body += md(2, struct.pack("<HQ", cpu, base))
    last = base
    for ev in events:
        if ev[1] == "custom":
            body += md(5, struct.pack("<iQ", len(ev[2]), ev[0])) + ev[2]
            continue
        body += fn(ev[1], ev[2], ev[0] - last)
        last = ev[0]
        if ev[1] == ENTER_ARG:
            body += md(6, struct.pack("<Q", ev[3]))
    return md(7, struct.pack("<Q", len(body))) + body


SERVER = [(1000, ENTER, 1), (1100, ENTER_ARG, 2, 7), (1400, EXIT, 2),
          (1500, "custom", b"hello"), (2000, ENTER, 3), (2100, ENTER, 4),
          (2600, EXIT, 4), (3000, ENTER, 4), (3200, EXIT, 4), (4000, EXIT, 3),
          (5000, EXIT, 1)]
WORKER = [(1200, EXIT, 4), (1500, EXIT, 3), (2000, ENTER, 3), (2100, ENTER, 4),
          (2300, EXIT, 4), (2500, EXIT, 3), (2600, ENTER, 1)]
# unwound.xray: thread 401 leaves f1 from under f2 and f3 (a longjmp), and
# exits f5, which is not on its stack, inside f4.
UNWOUND = [(100, ENTER, 1), (110, ENTER, 2), (120, ENTER, 3), (200, EXIT, 1),
           (300, ENTER, 4), (310, EXIT, 5), (320, EXIT, 4)]
CLIENT = [(1000, ENTER, 5), (1800, EXIT, 5), (1900, ENTER, 6), (2000, TAIL, 6)]

SYMS = [(1, "main"), (2, "parse"), (3, "work"), (4, "leaf"),
        (5, "_ZN2ns3fooEv"), (6, "_ZN2ns3barIiEEvT_")]

THREADS = """fdrd-threads\t1
log\tviews.xray
generation\t1
finalize\tioctl\tsignal\t0\t-\tpid\t0\tcomm\tunknown
buffers\t3\tdropped\t0\tcut\t0\trecords\t22
thread\t101\tpid\t100\tbuffers\t1\tcomm\tserver\texe\t/usr/bin/server
thread\t102\tpid\t100\tbuffers\t1\tcomm\tworker\texe\t/usr/bin/server
thread\t201\tpid\t200\tbuffers\t1\tcomm\tcli\\x01ent\texe\tunknown
"""


def v2_header():
    """The file header: version 2, FDR, constant and nonstop TSC, FREQ, 4 KiB."""
    return struct.pack("<HHIQQ8x", 2, 1, 3, FREQ, 4096)


def write_symmap(path, syms, exe):
    """The -finstrument-functions adapter's name map: fid, symbol, module, offset."""
    with open(path, "w") as f:
        for fid, name in syms:
            f.write("%d\t%s\t%s\t%x\n" % (fid, name, exe, 0x1000 + fid * 16))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    header = v2_header()
    log = header + buffer(101, 10, 0, 1000, SERVER) + buffer(102, 11, 1, 1200, WORKER)
    log += buffer(201, 12, 0, 1000, CLIENT)
    open(os.path.join(out, "views.xray"), "wb").write(log)
    open(os.path.join(out, "views.xray.threads"), "w").write(THREADS)
    open(os.path.join(out, "clean.xray"), "wb").write(header + buffer(101, 10, 0, 1000, SERVER))
    open(os.path.join(out, "unwound.xray"), "wb").write(header + buffer(401, 10, 0, 100, UNWOUND))
    write_symmap(os.path.join(out, "views.symmap"), SYMS, "/usr/bin/server")


if __name__ == "__main__":
    main()
