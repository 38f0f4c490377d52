#!/usr/bin/env python3
"""Write the hand-built test logs of cases/ as annotated byte tables.

Each cases/NAME.hex is one record per line: hex bytes, then '# what it is'.
'@zero N' stands for N zero bytes (v1 padding).  hex2bin turns a table back
into a log at test time.  Record layouts follow uapi/linux/fdr_log.h and
Documentation/format.md (and the format draft ../shared/FORMAT.md for v1); nothing here is read back by the tests except the .hex files.
The .expect files (what `fdrlog verify` must say, and whether llvm-xray 19
accepts the file) are written by hand, not by this script.
Run: python3 gen_cases.py  (rewrites cases/*.hex)
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


class Log:
    def __init__(self, version=2, type_=1, flags=3, freq=10**9, bufsize=16384):
        self.version = version
        self.lines = []
        self.add(struct.pack("<HHIQQ8x", version, type_, flags, freq, bufsize),
                 "header: v%d type %d flags %d freq %d ThreadBufferSize %d"
                 % (version, type_, flags, freq, bufsize))

    def add(self, data, comment):
        self.lines.append((bytes(data), comment))
        return self

    def zero(self, n, comment="padding"):
        self.lines.append((None, n, comment))
        return self

    def raw(self, data, comment):
        return self.add(data, comment)

    # -- metadata records: first byte (kind << 1) | 1, 15 payload bytes --
    def md(self, kind, payload, comment):
        rec = bytes([(kind << 1) | 1]) + payload
        return self.add(rec + b"\0" * (16 - len(rec)), comment)

    def nb(self, tid):
        return self.md(0, struct.pack("<i", tid), "NewBuffer tid=%d" % tid)

    def eob(self):
        return self.md(1, b"", "EndOfBuffer")

    def cpu(self, cpu, tsc):
        return self.md(2, struct.pack("<HQ", cpu, tsc), "NewCPUId cpu=%d tsc=%d" % (cpu, tsc))

    def wrap(self, tsc):
        return self.md(3, struct.pack("<Q", tsc), "TSCWrap tsc=%d" % tsc)

    def wall(self, sec, usec):
        return self.md(4, struct.pack("<QI", sec, usec), "Walltime %d.%06d" % (sec, usec))

    def arg(self, v):
        return self.md(6, struct.pack("<Q", v), "CallArgument %d" % v)

    def ext(self, n):
        return self.md(7, struct.pack("<Q", n), "BufferExtents %d" % n)

    def pid(self, p):
        return self.md(9, struct.pack("<i", p), "Pid %d" % p)

    def custom(self, data, tsc=0, delta=0, cpu=0, size=None):
        size = len(data) if size is None else size
        if self.version >= 5:
            p, c = struct.pack("<ii", size, delta), "CustomEvent size=%d delta=%d" % (size, delta)
        elif self.version == 4:
            p, c = struct.pack("<iQH", size, tsc, cpu), "CustomEvent size=%d tsc=%d cpu=%d" % (size, tsc, cpu)
        else:
            p, c = struct.pack("<iQ", size, tsc), "CustomEvent size=%d tsc=%d" % (size, tsc)
        self.md(5, p, c)
        return self.add(data, "  payload %r" % data) if data else self

    def drop(self, records, tsc, magic=b"fdr.drop"):
        """The drop marker (struct fdr_drop_event), or a look-alike."""
        return self.custom(magic + struct.pack("<Q", records), tsc=tsc)

    def typed(self, data, delta, etype):
        self.md(8, struct.pack("<iiH", len(data), delta, etype),
                "TypedEvent size=%d delta=%d type=%d" % (len(data), delta, etype))
        return self.add(data, "  payload %r" % data)

    # -- function records: word0 = fid << 4 | kind << 1, word1 = delta --
    def fn(self, kind, fid, delta):
        names = {0: "Enter", 1: "Exit", 2: "TailExit", 3: "EnterArg"}
        return self.add(struct.pack("<II", (fid << 4) | (kind << 1), delta),
                        "Function %s fid=%d delta=%d" % (names.get(kind, "kind%d" % kind), fid, delta))

    def enter(self, fid, d): return self.fn(0, fid, d)
    def exit(self, fid, d): return self.fn(1, fid, d)
    def tail(self, fid, d): return self.fn(2, fid, d)
    def enter_arg(self, fid, d): return self.fn(3, fid, d)

    def size(self):
        return sum(len(l[0]) if l[0] is not None else l[1] for l in self.lines)

    def write(self, name):
        with open(os.path.join(OUT, name + ".hex"), "w") as f:
            for line in self.lines:
                if line[0] is None:
                    f.write("@zero %d  # %s\n" % (line[1], line[2]))
                else:
                    f.write("%-48s # %s\n" % (" ".join("%02x" % b for b in line[0]), line[1]))


def buffer(log, body, extents=None):
    """A v2+ buffer: BufferExtents counting the bytes body() adds."""
    mark = len(log.lines)
    log.ext(0)
    before = log.size()
    body(log)
    n = log.size() - before if extents is None else extents
    log.lines[mark] = (struct.pack("<B", 0x0F) + struct.pack("<Q", n) + b"\0" * 7,
                       "BufferExtents %d" % n)
    return log


def v1_buffer(log, body, bufsize=4096, eob=True):
    start = log.size()
    body(log)
    if eob:
        log.eob()
        log.zero(bufsize - (log.size() - start))
    return log


def preamble(log, tid, sec=1700000000, usec=250000, cpu=3, tsc=0x1000, pid=None):
    log.nb(tid).wall(sec, usec)
    if pid is not None:
        log.pid(pid)
    return log.cpu(cpu, tsc)


def valid_cases():
    # The format draft's (../shared/FORMAT.md) §8 example, verbatim.
    buffer(Log(), lambda l: preamble(l, 1234).enter(1, 0).exit(1, 100)).write("v2_example")

    def all_kinds_a(l):
        preamble(l, 1234)
        l.enter(1, 0).enter_arg(2, 5).arg(42).arg(7).exit(2, 10)
        l.custom(b"a'b\x01c", tsc=0x2000).tail(1, 3)
        l.typed(b"xyz", 4, 77).enter(3, 1)
        l.wrap(0x100000000).exit(3, 2).cpu(1, 0x100000010).enter(4, 0xFFFFFFFF).exit(4, 1)

    def all_kinds_b(l):
        preamble(l, 77, sec=1700000001, cpu=0, tsc=0x1005)
        l.enter(5, 0).exit(5, 7)

    def all_kinds_c(l):
        preamble(l, 1234, sec=1700000002, cpu=2, tsc=0x200000000)
        l.enter(6, 1).exit(6, 1)
    log = Log()
    buffer(log, all_kinds_a)
    buffer(log, all_kinds_b)
    buffer(log, all_kinds_c)
    log.write("v2_all_kinds")

    # v1: EOB then zero padding to ThreadBufferSize; custom events carry an
    # absolute TSC; process ids are 0 (left out of the YAML).
    log = Log(version=1, bufsize=4096)
    v1_buffer(log, lambda l: preamble(l, 10).enter(1, 0).custom(b"v1 event", tsc=0x1004).exit(1, 9))
    v1_buffer(log, lambda l: preamble(l, 11, cpu=1, tsc=0x1002).enter(2, 0).exit(2, 3))
    v1_buffer(log, lambda l: preamble(l, 10, sec=1700000005, tsc=0x3000).enter(3, 0).exit(3, 1))
    log.write("v1_padded")

    # v1 whose last buffer has no EOB (LLVM accepts it).
    log = Log(version=1, bufsize=4096)
    v1_buffer(log, lambda l: preamble(l, 10).enter(1, 0).exit(1, 9))
    preamble(log, 10, sec=1700000009, tsc=0x5000).enter(2, 0)
    log.write("v1_no_final_eob")

    # v3: Pid after Walltime.
    log = Log(version=3)
    buffer(log, lambda l: preamble(l, 20, pid=4000).enter(1, 0).custom(b"v3", tsc=0x1001).exit(1, 4))
    buffer(log, lambda l: preamble(l, 21, pid=4001, cpu=5).enter(1, 2).exit(1, 4))
    log.write("v3_pid")

    # v4: custom events carry a CPU.
    log = Log(version=4)
    buffer(log, lambda l: preamble(l, 30, pid=5000).enter(1, 0).custom(b"cpu9", tsc=0x1003, cpu=9).exit(1, 8))
    log.write("v4_custom_cpu")

    # v5: custom events carry a signed delta; padding between buffers with
    # no 0x0f byte is skipped, as LLVM 19 does.
    log = Log(version=5)
    buffer(log, lambda l: preamble(l, 40, pid=6000).enter(1, 0).custom(b"plus", delta=5)
           .custom(b"minus", delta=-3).exit(1, 10))
    log.raw(b"\0" * 24, "24 bytes between buffers (skipped up to the next 0x0f)")
    buffer(log, lambda l: preamble(l, 41, pid=6000, sec=1700000001).enter(2, 0).typed(b"t", -1, 5).exit(2, 3))
    log.write("v5_delta_events")

    # v2 custom event with bytes in the marker's padding: LLVM 19 decodes
    # every version with its default (v5) reader, so it takes bytes 13-14
    # as the event's CPU even before v4.
    def padded_cpu(l):
        preamble(l, 50).enter(1, 0)
        l.md(5, struct.pack("<iQH", 3, 0x1001, 0x1234), "CustomEvent size=3 tsc=4097, 0x1234 in bytes 13-14")
        l.add(b"abc", "  payload 'abc'")
        l.exit(1, 2)
    buffer(Log(), padded_cpu).write("v2_custom_cpu_in_padding")

    # v5 extents of 2^32 + 72: LLVM 19 counts extents in a uint32_t, so the
    # buffer ends after 72 bytes and what follows (an Exit) is skipped up to
    # the next 0x0f.
    log = Log(version=5)
    buffer(log, lambda l: preamble(l, 61, pid=1).enter(1, 0).exit(1, 5), extents=2**32 + 72)
    buffer(log, lambda l: preamble(l, 61, pid=1, sec=1700000001, tsc=0x2000).enter(2, 0).exit(2, 1))
    log.write("v5_extents_uint32")

    # Numbers at every decimal length boundary (the YAML writer formats
    # integers by hand): TSCs from 9 to 2^64 - 1, the largest function id,
    # CPU 65535, arguments 0 and 2^64 - 1.
    def digits(l):
        preamble(l, 2147483647, cpu=65535, tsc=9)
        for i, tsc in enumerate([10, 99, 100, 99999999, 100000000, 100000001, 999999999999,
                                 10**15, 10**16 - 1, 10**16, 10**19 - 1, 10**19, 2**64 - 2]):
            l.wrap(tsc).enter(i + 1, 0)
        l.wrap(2**64 - 1).enter_arg(2**28 - 1, 0).arg(0).arg(2**64 - 1)
    buffer(Log(), digits).write("v2_number_widths")

    # Old-style argument logging: Enter followed by CallArgument becomes
    # function-enter-arg.
    buffer(Log(), lambda l: preamble(l, 7).enter(1, 0).arg(99).exit(1, 5)).write("v2_enter_then_arg")

    # Thread ids print as unsigned.
    buffer(Log(), lambda l: preamble(l, -5).enter(1, 0).exit(1, 5)).write("v2_negative_tid")

    # A buffer without function records: valid, no YAML records.
    buffer(Log(), lambda l: preamble(l, 8)).write("v2_no_records")

    # 40 threads, every record at the same TSC: the output order of ties
    # is llvm-xray's DenseMap order of (pid, tid).
    log = Log()
    for tid in list(range(1, 31)) + [1000, 65536, 123456789, -1, 7777, 42424, 31, 99, 100, 2**31 - 2]:
        buffer(log, lambda l, t=tid: preamble(l, t, tsc=500).enter(1, 0).exit(1, 0))
    log.write("v2_tie_order")

    # 100 threads: the map grows (64 -> 128 -> 256 buckets) and rehashes.
    log = Log()
    for i in range(100):
        tid = (i * 7919 + 13) % 100003 - 500
        buffer(log, lambda l, t=tid: preamble(l, t, tsc=900).enter(2, 0).exit(2, 0))
    log.write("v2_tie_order_growth")

    # v5: the map key is (pid, tid); 60 pairs over 3 processes, equal TSCs.
    log = Log(version=5)
    for i in range(60):
        buffer(log, lambda l, i=i: preamble(l, 100 + i % 20, pid=7000 + i // 20, tsc=77)
               .enter(3, 0).exit(3, 0))
    log.write("v5_tie_order_pids")

    # One thread, 20 blocks whose wall times llvm-xray orders with its odd
    # comparator (seconds < AND micros <) through libstdc++'s std::sort.
    log = Log()
    walls = [(5, 9), (3, 1), (4, 8), (1, 7), (2, 2), (9, 0), (6, 6), (8, 3), (7, 5), (0, 4),
             (5, 1), (3, 9), (2, 8), (4, 0), (1, 2), (6, 3), (9, 9), (0, 0), (8, 8), (7, 1)]
    for i, (s, u) in enumerate(walls):
        buffer(log, lambda l, i=i, s=s, u=u: preamble(l, 3, sec=1000 + s, usec=u, tsc=0x1000 + i)
               .enter(i + 1, 0).exit(i + 1, 1))
    log.write("v2_walltime_order")

    # 70 blocks of one thread, pseudo-random wall times with many equal
    # seconds: several rounds of libstdc++'s introsort partitioning.
    log = Log()
    x = 12345
    for i in range(70):
        x = (x * 1103515245 + 12345) % 2**31
        s, u = (x >> 8) % 6, (x >> 16) % 9
        buffer(log, lambda l, i=i, s=s, u=u: preamble(l, 5, sec=2000 + s, usec=u, tsc=0x100 + i)
               .enter(i + 1, 0).exit(i + 1, 1))
    log.write("v2_walltime_order_many")

    # Custom event payloads through every YAML quoting rule.
    payloads = [b"plain text", b"true", b"123", b"-x", b" lead", b"trail ", b"a:b", b"x/y",
                "héllo".encode(), b"bad\xffutf8 rest", b"del\x7f", b"line\nbreak", b"tab\there",
                b"null", b"0x1F", b"1e5", b"~", b"'q'", b'"dq"', b"back\\slash", b"\x00\x07\x1b",
                b".5", b"0o17", b".inf", b"-.INF", b"1.5e+3", b"e5", b"#c", "\u00a0nbsp\u2028".encode(),
                "\u0085x".encode(), "\u200bzw".encode(), "\U0001F600".encode(), "\u0378".encode()]

    def quoting(l):
        preamble(l, 9)
        for i, p in enumerate(payloads):
            l.custom(p, tsc=0x1000 + i)
    buffer(Log(version=2), quoting).write("v2_yaml_quoting")

    # Flight-recorder leftovers: an exit whose entry was overwritten, and a
    # call still open at the end.
    buffer(Log(), lambda l: preamble(l, 12).exit(7, 0).enter(1, 10).enter(2, 10).exit(2, 30)
           .exit(1, 50).enter(3, 5).enter(1, 5).exit(1, 20)).write("v2_account_leftovers")

    # Streaming mode's drop markers: thread 1234 lost 5 records before its
    # second buffer and 1000 before its third, thread 77 lost 7; next to
    # them custom events that only look like one (another magic, 17 and 8
    # bytes).  llvm-xray sees custom events.
    log = Log()
    buffer(log, lambda l: preamble(l, 1234).enter(1, 0).exit(1, 100))
    buffer(log, lambda l: preamble(l, 1234, sec=1700000001, tsc=0x3000).drop(5, 0x3000)
           .enter(2, 1).exit(2, 10))
    buffer(log, lambda l: preamble(l, 77, cpu=0, tsc=0x3100).drop(7, 0x3100).enter(3, 0)
           .drop(9, 0x3102, magic=b"fdr.dros").custom(b"fdr.drop\x05\0\0\0\0\0\0\0!", tsc=0x3103)
           .custom(b"fdr.drop", tsc=0x3104).exit(3, 20))
    buffer(log, lambda l: preamble(l, 1234, sec=1700000002, tsc=0x5000).drop(1000, 0x5000)
           .enter(1, 0).exit(1, 3))
    log.write("v2_drop_markers")

    # 20 threads with a marker each, the last of 2^64 - 1 records: the sum
    # saturates, the thread list stops at 16.
    log = Log()
    for tid in range(1, 21):
        buffer(log, lambda l, t=tid: preamble(l, t, tsc=0x100 * t)
               .drop(2**64 - 1 if t == 20 else 1, 0x100 * t).enter(1, 0).exit(1, 1))
    log.write("v2_drop_markers_many")


def invalid_cases():
    Log().write("header_only")
    log = Log()
    log.lines = [(log.lines[0][0][:10], "header cut after 10 bytes")]
    log.write("short_header")
    buffer(Log(version=6), lambda l: preamble(l, 1).enter(1, 0)).write("bad_version")
    buffer(Log(type_=2), lambda l: preamble(l, 1).enter(1, 0)).write("bad_type")
    buffer(Log(type_=0), lambda l: preamble(l, 1).enter(1, 0)).write("naive_type")

    log = Log(version=1)
    preamble(log, 1).enter(1, 0)
    log.raw(struct.pack("<I", 0x12), "Function Exit cut after 4 bytes")
    log.write("truncated_function")
    log = Log(version=1)
    preamble(log, 1)
    log.raw(b"\x07\x00\x10", "TSCWrap cut after 3 bytes")
    log.write("truncated_metadata")

    buffer(Log(), lambda l: preamble(l, 1).enter(1, 0).exit(1, 3), extents=80).write("v2_extents_past_eof")
    buffer(Log(), lambda l: preamble(l, 1).enter(1, 0).exit(1, 3), extents=52).write("v2_record_past_extents")
    buffer(Log(version=5), lambda l: preamble(l, 1, pid=2).enter(1, 0).exit(1, 3), extents=68).write("v5_record_past_extents")
    buffer(Log(), lambda l: preamble(l, 1).enter(1, 0).eob()).write("v2_end_of_buffer")
    buffer(Log(), lambda l: preamble(l, 1).enter(1, 0).md(10, b"", "metadata kind 10")).write("unknown_metadata_kind")
    buffer(Log(), lambda l: preamble(l, 1).enter(1, 0).fn(5, 1, 0)).write("unknown_function_kind")
    buffer(Log(), lambda l: l.nb(1).enter(1, 0)).write("function_after_newbuffer")
    buffer(Log(), lambda l: preamble(l, 1).custom(b"ev", tsc=1).arg(5)).write("callarg_after_custom")
    buffer(Log(version=5), lambda l: preamble(l, 1).pid(3)).write("pid_after_newcpuid")
    buffer(Log(), lambda l: preamble(l, 1).custom(b"", tsc=1, size=0)).write("custom_size_zero")
    buffer(Log(version=5), lambda l: preamble(l, 1, pid=1).custom(b"", delta=1, size=-4)).write("custom_size_negative")
    log = Log(version=1)
    preamble(log, 1).custom(b"abc", tsc=1, size=40)
    log.write("custom_payload_past_eof")
    buffer(Log(), lambda l: l.nb(1).wall(1, 2)).write("block_ends_after_walltime")
    log = Log(version=1)
    log.enter(1, 0)
    preamble(log, 1).enter(1, 0)
    log.write("v1_record_before_newbuffer")
    log = Log(version=1, bufsize=64)
    v1_buffer(log, lambda l: preamble(l, 1).enter(1, 0).exit(1, 2), bufsize=96)
    log.write("v1_eob_past_buffer_size")
    log = Log(version=1, bufsize=4096)
    preamble(log, 1).enter(1, 0).eob()
    log.zero(64, "padding cut short")
    log.write("v1_truncated_padding")
    preamble(Log(), 1).enter(1, 0).write("v2_missing_extents")
    log = Log(version=5)
    buffer(log, lambda l: preamble(l, 1, pid=1).enter(1, 0))
    log.raw(b"\x01\x02\x03", "3 trailing bytes without 0x0f")
    log.write("v5_trailing_garbage")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    valid_cases()
    invalid_cases()
