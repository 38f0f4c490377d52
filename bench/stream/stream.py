#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stream.py - bench/stream's helpers (run.sh calls them).

  stream.py ctf-count TRACE_DIR
      Count the events of an LTTng-UST CTF trace without babeltrace2:
      prints "events N entries N exits N discarded N bytes N packets N".
      It reads the trace's metadata first and refuses (exit 3, and says
      why) a layout other than the one it knows: the large event header
      (uint16 id, 32-bit compact or 64-bit extended timestamp), byte-
      aligned fields, little endian, one stream class, the two fdrbench
      events of one int32 each.  `discarded` is the packet contexts'
      events_discarded of each stream's last packet (LTTng's own count).

  stream.py uftrace-count REPORT_FILE
      From `uftrace report` output: "events N calls N lost N" over the
      workload's functions (lines of linux:* kernel events left out).

  stream.py summary RAW META
      The Markdown report (stdout) from run.sh's raw lines
      (see run.sh: one line per run) and meta lines (key TAB value).
"""
import glob
import os
import re
import statistics
import struct
import sys

MIB = 1 << 20


# ---- LTTng CTF ------------------------------------------------------------

def ctf_metadata_text(path):
    """The TSDL text of a packetized (or plain) metadata file."""
    d = open(path, "rb").read()
    if d[:4] != struct.pack("<I", 0x75D11D57):
        return d.decode("utf-8", "replace")
    off, out = 0, []
    while off + 37 <= len(d):
        content, packet = struct.unpack_from("<II", d, off + 24)
        if packet == 0:
            break
        out.append(d[off + 37:off + content // 8])
        off += packet // 8
    return b"".join(out).decode("utf-8", "replace")


EXPECT = [
    "byte_order = le;",
    "event.header := struct event_header_large;",
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;",
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;",
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;",
    "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;",
]
PACKET_CONTEXT = re.compile(
    r"struct packet_context \{\s*uint64_clock_monotonic_t timestamp_begin;\s*"
    r"uint64_clock_monotonic_t timestamp_end;\s*uint64_t content_size;\s*"
    r"uint64_t packet_size;\s*uint64_t packet_seq_num;\s*unsigned long "
    r"events_discarded;\s*uint32_t cpu_id;\s*\};")
PACKET_HEADER = re.compile(
    r"packet\.header := struct \{\s*uint32_t magic;\s*uint8_t\s+uuid\[16\];\s*"
    r"uint32_t stream_id;\s*uint64_t stream_instance_id;\s*\};")
EVENT = re.compile(r"event \{\s*name = \"([^\"]+)\";\s*id = (\d+);\s*stream_id = 0;"
                   r"[^}]*?fields := struct \{\s*((?:integer \{[^}]*\} \w+;\s*)*)\};", re.S)
FID = "integer { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _fid;"
HEADER = 32 + 52	# packet header + packet context, bytes (byte-aligned fields)


def ctf_layout(text):
    """{event id: name}, or raise ValueError naming what differs."""
    for e in EXPECT:
        if e not in text:
            raise ValueError("metadata lacks `%s`" % e)
    if not PACKET_HEADER.search(text) or not PACKET_CONTEXT.search(text):
        raise ValueError("another packet header or context")
    if len(re.findall(r"\bstream \{", text)) != 1:
        raise ValueError("more than one stream class")
    events = {}
    for name, eid, fields in EVENT.findall(text):
        if fields.strip() != FID:
            raise ValueError("event %s has other fields: %s" % (name, fields.strip()))
        events[int(eid)] = name
    if sorted(events.values()) != ["fdrbench:func_entry", "fdrbench:func_exit"]:
        raise ValueError("other events: %s" % sorted(events.values()))
    return events


def count_packet(buf, start, end, counts):
    """Add the events of buf[start:end) to counts {id: n}."""
    n, rem = divmod(end - start, 6 + 4)
    if rem == 0:
        # Fast path: every header compact (2-byte id, 4-byte timestamp).
        # The first extended header (id 65535) would sit at one of these
        # strides and fail the check, so this is exact.
        lo, hi = buf[start:end:10], buf[start + 1:end:10]
        if hi.count(0) == n and lo.count(0) + lo.count(1) == n:
            counts[0] = counts.get(0, 0) + lo.count(0)
            counts[1] = counts.get(1, 0) + lo.count(1)
            return
    pos = start
    while pos < end:
        eid, = struct.unpack_from("<H", buf, pos)
        if eid == 65535:
            eid, = struct.unpack_from("<I", buf, pos + 2)
            pos += 2 + 4 + 8
        else:
            pos += 2 + 4
        if eid not in (0, 1):
            raise ValueError("event id %d at offset %d" % (eid, pos))
        pos += 4
        counts[eid] = counts.get(eid, 0) + 1
    if pos != end:
        raise ValueError("events overrun their packet")


def ctf_count(trace_dir):
    metas = glob.glob(os.path.join(trace_dir, "**", "metadata"), recursive=True)
    if len(metas) != 1:
        raise ValueError("%d metadata files under %s" % (len(metas), trace_dir))
    events = ctf_layout(ctf_metadata_text(metas[0]))
    counts, discarded, nbytes, packets = {}, 0, 0, 0
    ids = {v: k for k, v in events.items()}
    for path in sorted(glob.glob(os.path.join(os.path.dirname(metas[0]), "*"))):
        if not os.path.isfile(path) or os.path.basename(path) == "metadata":
            continue
        buf = open(path, "rb").read()
        nbytes += len(buf)
        off, last_discarded = 0, 0
        while off + HEADER <= len(buf):
            magic, = struct.unpack_from("<I", buf, off)
            if magic != 0xC1FC1FC1:
                raise ValueError("%s: bad packet magic at %d" % (path, off))
            content, size, _seq, disc = struct.unpack_from("<QQQQ", buf, off + 32 + 16)
            if size == 0 or off + size // 8 > len(buf):
                raise ValueError("%s: bad packet size at %d" % (path, off))
            count_packet(buf, off + HEADER, off + content // 8, counts)
            last_discarded = disc
            off += size // 8
            packets += 1
        discarded += last_discarded
    entries = counts.get(ids["fdrbench:func_entry"], 0)
    exits = counts.get(ids["fdrbench:func_exit"], 0)
    return entries, exits, discarded, nbytes, packets


# ---- uftrace ----------------------------------------------------------------

def uftrace_count(report):
    """events, calls, lost from `uftrace report` text."""
    calls, lost = 0, 0
    for line in open(report):
        m = re.match(r"\s*\S+ \S+\s+\S+ \S+\s+(\d+)\s+(\S.*)$", line)
        if not m:
            continue
        name = m.group(2).strip()
        if "LOST" in name.upper():
            lost += int(m.group(1))
        elif not name.startswith("linux:"):
            calls += int(m.group(1))
    return 2 * calls, calls, lost


# ---- the report -------------------------------------------------------------

NAMES = {
    "fdr": "**fdr, streaming** (`fdr record --stream --no-libcall -t 0 -b 64K -n 16`)",
    "uftrace": "uftrace record (`-pg` build, default options)",
    "lttng": "LTTng-UST, discard mode (`enable-channel --discard`, 4 × 256 KiB per CPU)",
    "none": "uninstrumented (reference: the loop alone)",
}
ORDER = ["fdr", "uftrace", "lttng", "none"]
PEERS = ["uftrace", "lttng"]


def load_raw(path):
    """run.sh's tab-separated lines: kind round cand status expected
    counted lost events wall_ns cmd_ns bytes [rate_asked]."""
    rows = []
    for line in open(path):
        p = line.rstrip("\n").split("\t")
        if len(p) < 11:
            continue
        rows.append({"kind": p[0], "round": int(p[1]), "cand": p[2], "status": p[3],
                     "expected": int(p[4] or 0), "counted": int(p[5] or 0),
                     "lost": p[6], "events": int(p[7] or 0), "wall": int(p[8] or 0),
                     "cmd": int(p[9] or 0), "bytes": int(p[10] or 0),
                     "asked": int(p[11]) if len(p) > 11 and p[11] else 0})
    return rows


def med(xs):
    return statistics.median(xs) if xs else None


def f_rate(v):
    return "—" if v is None else "%.2f M" % (v / 1e6)


def f_mib(v):
    return "—" if v is None else "%.0f" % v


def summary(raw, meta_path):
    meta = {}
    for line in open(meta_path):
        k, _, v = line.rstrip("\n").partition("\t")
        meta[k] = v
    rows = load_raw(raw) if os.path.exists(raw) else []
    main = [r for r in rows if r["kind"] == "main"]
    status = {c: meta.get("status." + c, "not run") for c in ORDER}
    ok = {c: [r for r in main if r["cand"] == c and r["status"] == "ok"] for c in ORDER}
    out = ["# Streaming throughput: fdr against uftrace and LTTng (bench/stream/run.sh)", "",
           "%s; %s rounds of N = %s leaf calls (%s events) per tracer, interleaved (the "
           "order rotates every round); medians over the rounds. **Events/s** = events of "
           "the timed leaf loop ÷ its wall time (the harness's own clock, what the traced "
           "program sees while its tracer streams); **MiB/s** = events/s × the bytes the "
           "tracer wrote per event it holds; **end to end** = from the tracer's start to its "
           "trace on disk (the command's wall time; LTTng: the program's run plus `lttng stop`)."
           % (meta.get("machine", "?"), meta.get("rounds", "?"), meta.get("calls", "?"),
              meta.get("events", "?")), ""]
    out += ["| tracer | events/s | MiB/s | bytes/event | end to end (s) | events held ÷ expected | lost | status |",
            "|---|---:|---:|---:|---:|---:|---|---|"]
    med_wall = {}
    for c in ORDER:
        rs = ok[c]
        rates = [r["events"] / (r["wall"] / 1e9) for r in rs if r["wall"]]
        bpe = [r["bytes"] / r["counted"] for r in rs if r["counted"] and r["bytes"]]
        mibs = [r["events"] / (r["wall"] / 1e9) * (r["bytes"] / r["counted"]) / MIB
                for r in rs if r["wall"] and r["counted"] and r["bytes"]]
        held = [r["counted"] / r["expected"] for r in rs if r["expected"]]
        lost = sorted({r["lost"] for r in rs})
        med_wall[c] = med([r["wall"] for r in rs])
        st = status[c]
        if not rs:
            out.append("| %s | — | — | — | — | — | — | %s |" % (NAMES[c], st))
            continue
        out.append("| %s | %s | %s | %s | %.3f | %s | %s | %s |" % (
            NAMES[c], f_rate(med(rates)), f_mib(med(mibs)) if c != "none" else "—",
            "%.1f" % med(bpe) if bpe else "—",
            med([r["cmd"] for r in rs]) / 1e9,
            ("%.4f" % min(held)) + ("" if min(held) == max(held) else "–%.4f" % max(held))
            if held else "—",
            ", ".join(lost), st))
    out.append("")

    # peer time ÷ fdr time, per round then the median
    out.append("Ratios, peer time ÷ fdr time for the same events (the timed loop's wall "
               "time, per round, then the median; > 1: fdr streams faster):")
    out.append("")
    fdr_by_round = {r["round"]: r["wall"] for r in ok["fdr"]}
    for c in PEERS:
        if not fdr_by_round:
            out.append("- peer %s: not measured (fdr streaming: %s)" % (c, status["fdr"]))
            continue
        if not ok[c]:
            out.append("- peer %s: not measured (%s)" % (c, status[c]))
            continue
        rs = [r["wall"] / fdr_by_round[r["round"]] for r in ok[c] if r["round"] in fdr_by_round]
        lost = {r["lost"] for r in ok[c]} - {"0"}
        out.append("- peer %s: %.2f× (%d round%s)%s" % (
            c, med(rs), len(rs), "" if len(rs) == 1 else "s", "; it LOST events: %s" % ", ".join(sorted(lost)) if lost else ""))
    out.append("")
    lossy = []
    for c in ORDER[:3]:
        bad = [r for r in ok[c] + [r for r in main if r["cand"] == c and r["status"].startswith("LOST")]
               if r["lost"] not in ("0", "-")]
        if bad:
            lossy.append("%s in %d of %d rounds (%s)" % (
                c, len(bad), len([r for r in main if r["cand"] == c]),
                ", ".join(sorted({r["lost"] for r in bad}))))
    out.append("Lost events: %s." % ("; ".join(lossy) if lossy else
                                     "none, in every run measured"))
    out.append("")

    # (d) and (e)
    out += ["## fdr alone: full speed and paced", ""]
    full = [r for r in rows if r["kind"] == "full"]
    paced = [r for r in rows if r["kind"] == "paced"]
    search = [r for r in rows if r["kind"] == "search"]
    if meta.get("fdr_alone"):
        out += ["Not measured: %s." % meta["fdr_alone"], "",
                "- fdr full speed: not measured (%s)" % meta["fdr_alone"], ""]
    else:
        out.append("`taskset -c %s fdr record --stream --no-libcall -t 0 -b 64K -n 16 -o DIR -- stream-leaf "
                   "CALLS RATE %s`: the leaf loop pinned to CPU %s, `fdr record` (the flusher) "
                   "on CPU %s." % (meta.get("flusher_cpu", "?"), meta.get("writer_cpu", "?"),
                                   meta.get("writer_cpu", "?"), meta.get("flusher_cpu", "?")))
        out.append("")
        out.append("| run | events | asked (events/s) | achieved events/s | MiB/s | records_dropped | status |")
        out.append("|---|---:|---:|---:|---:|---:|---|")
        for r in full + search + paced:
            rate = r["events"] / (r["wall"] / 1e9) if r["wall"] else None
            mib = rate * r["bytes"] / r["counted"] / MIB if rate and r["counted"] else None
            out.append("| %s %d | %d | %s | %s | %s | %s | %s |" % (
                {"full": "(d) unpaced", "search": "(d) paced search", "paced": "(e) paced"}[r["kind"]],
                r["round"], r["events"], f_rate(r["asked"]) if r["asked"] else "full speed",
                f_rate(rate), f_mib(mib), r["lost"], r["status"]))
        out.append("")
        nodrop = [r for r in full + search if r["status"] == "ok" and r["lost"] == "0"]
        best = max((r["events"] / (r["wall"] / 1e9) for r in nodrop if r["wall"]), default=None)
        fulls_ok = [r for r in full if r["status"] == "ok"]
        if fulls_ok and all(r["lost"] == "0" for r in fulls_ok):
            out.append("- (d) highest unpaced rate with no drop: %s events/s (median of %d "
                       "full-speed runs, none dropped a record)" % (
                           f_rate(med([r["events"] / (r["wall"] / 1e9) for r in fulls_ok])),
                           len(fulls_ok)))
        elif best is not None:
            out.append("- (d) at full speed fdr dropped records; the highest rate of this run "
                       "with no drop: %s events/s" % f_rate(best))
        else:
            out.append("- (d) highest rate with no drop: none found")
        for r in fulls_ok:
            if meta.get("flusher_wait.%d" % r["round"]):
                out.append("- (d) unpaced %d, fdr's summary: %s" % (
                    r["round"], meta["flusher_wait.%d" % r["round"]]))
        drops = [int(r["lost"]) for r in fulls_ok if r["lost"].isdigit()]
        if fulls_ok:
            out.append("- fdr full speed: %d records dropped (%d runs%s)" % (
                sum(drops), len(fulls_ok), "" if len(drops) == len(fulls_ok)
                else "; %d without a records_dropped line" % (len(fulls_ok) - len(drops))))
        else:
            out.append("- fdr full speed: not measured (no run succeeded)")
        for r in paced:
            rate = r["events"] / (r["wall"] / 1e9) if r["wall"] else 0
            out.append("- (e) paced at %s events/s: achieved %s events/s, %s records dropped (%s)"
                       % (f_rate(r["asked"]), f_rate(rate), r["lost"], r["status"]))
        out.append("")

    out += ["## How each tracer's events were counted", "",
            "- fdr: `records` of `DIR/log.xray.threads`'s `buffers` line (records in "
            "the log, buffer preambles included, so ≥ the function records expected: "
            "2 × the calls of every XRay-instrumented function of workload.c, warm-up "
            "included) and its `records_dropped` line (the writers' drops).",
            "- uftrace: `uftrace report` calls of the workload's functions × 2 "
            "(its `linux:schedule` lines left out), against the same expectation; "
            "lost = its LOST lines' count.",
            "- LTTng: %s; lost = the channel's `Discarded events` (`lttng list`) and "
            "the packets' events_discarded." % meta.get("lttng_counter", "?"),
            ""]
    notes = [v for k, v in sorted(meta.items()) if k.startswith("note.")]
    if notes:
        out += ["Notes:", ""] + ["- " + n for n in notes] + [""]
    sys.stdout.write("\n".join(out))


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "ctf-count":
        try:
            en, ex, disc, nbytes, packets = ctf_count(sys.argv[2])
        except (ValueError, OSError, struct.error) as e:
            print("ctf-count: %s" % e, file=sys.stderr)
            sys.exit(3)
        print("events %d entries %d exits %d discarded %d bytes %d packets %d"
              % (en + ex, en, ex, disc, nbytes, packets))
    elif cmd == "uftrace-count":
        ev, calls, lost = uftrace_count(sys.argv[2])
        print("events %d calls %d lost %d" % (ev, calls, lost))
    elif cmd == "summary":
        summary(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
