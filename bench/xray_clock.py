#!/usr/bin/env python3
"""xray_clock.py - which clock compiler-rt's XRay FDR mode timestamped with.

Reads the log header's CycleFrequency and the first NewCPUId record's
absolute "TSC", and prints two meta.tsv lines (key TAB value):

  xray_llvm_clock      clock_gettime(CLOCK_REALTIME) or TSC (rdtscp)
  xray_llvm_header     version, flags and CycleFrequency of the header

When the runtime cannot read a TSC frequency it writes 1e9 and uses
CLOCK_REALTIME nanoseconds as TSC values, which are then close to the
wall-clock time of the run; real TSC values are far from it.
"""
import struct
import sys
import time

NEW_CPU_ID = (2 << 1) | 1


def first_cpu_tsc(data):
    """Absolute TSC of the first NewCPUId record after the 32-byte header."""
    pos = 32
    while pos + 16 <= len(data):
        first = data[pos]
        if not first & 1:          # a function record: 8 bytes
            pos += 8
            continue
        if first == NEW_CPU_ID:
            return struct.unpack_from("<Q", data, pos + 3)[0]
        pos += 16                 # other metadata (no custom events here)
    return None


def main():
    data = open(sys.argv[1], "rb").read(1 << 20)
    version, _type, flags, freq = struct.unpack_from("<HHIQ", data, 0)
    tsc = first_cpu_tsc(data)
    now_ns = time.time_ns()
    if freq == 1000000000 and tsc is not None and abs(now_ns - tsc) < 86400e9:
        clock = ("clock_gettime(CLOCK_REALTIME) fallback: no TSC frequency "
                 "found (header CycleFrequency = 1e9, timestamps are wall-clock ns)")
    elif freq:
        clock = "TSC (rdtscp), CycleFrequency %d Hz" % freq
    else:
        clock = "TSC (rdtscp) with CycleFrequency 0 (frequency unknown)"
    print("xray_llvm_clock\t%s" % clock)
    print("xray_llvm_header\tversion %d, flags %#x, CycleFrequency %d"
          % (version, flags, freq))


if __name__ == "__main__":
    main()
