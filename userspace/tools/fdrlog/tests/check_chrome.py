#!/usr/bin/env python3
"""Check `fdrlog convert --format chrome` output against the YAML of the
same log: valid JSON (python's json module), one trace event per YAML
record in the same order, with the right phase, pid/tid, timestamp
(TSC * 1e6 / CycleFrequency, microseconds, 3 decimals), call arguments and
custom event payloads.  With THREADS (fdrd's side table), pids must be
the table's and the trace must start with the process_name/thread_name
metadata events of the table.  With --sched FILE (fdrd's scheduling
file), the "sched" events must be exactly the thread states and wakeup
flows this script derives from the file by format.md's rules, on tracks
tid + 2^30 named "TID state".
usage: check_chrome.py [--sched FILE] TRACE.json LOG.yaml [THREADS]
Prints nothing and exits 0 when everything matches."""
import json
import re
import struct
import sys


def yaml_records(path):
    """The flow mappings llvm-xray prints, read with a regex (no YAML lib)."""
    header, records = {}, []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"  ([a-z-]+): +(\S+)$", line)
        if m:
            header[m.group(1)] = m.group(2)
        m = re.match(r"  - \{ (.*) \}$", line)
        if m:
            body = m.group(1)
            rec = {k: v for k, v in re.findall(r"(?:^|, )(type|func-id|cpu|thread|process|kind|tsc): ([^,]+)", body)}
            args = re.search(r"args: \[ ([^\]]*) \]", body)
            rec["args"] = [int(a) for a in args.group(1).split(", ")] if args else []
            records.append(rec)
    return header, records


def expected_ts(tsc, freq):
    ns = tsc * 1000000000 // freq if freq else tsc * 1000
    return "%d.%03d" % (ns // 1000, ns % 1000)


def thread_table(path):
    """tid -> (pid, comm, exe) from the `thread` lines, unescaped."""
    rows = {}
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if f[0] == "thread":
            unesc = lambda s: re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)),
                                     s).replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\")
            rows.setdefault(int(f[1]), (int(f[3]), unesc(f[7]), unesc(f[9])))
    return rows


def process_name(rows, pid):
    exes = [exe for (p, _, exe) in rows.values() if p == pid and exe != "unknown"]
    if exes:
        return exes[0].rsplit("/", 1)[-1] or exes[0]
    if pid in rows and rows[pid][0] == pid and rows[pid][1] != "unknown":
        return rows[pid][1]
    return "pid %d" % pid


def check_metadata(meta, rows):
    want = []
    for tid, (pid, comm, exe) in rows.items():
        if not any(m["name"] == "process_name" and m["pid"] == pid for m in want):
            want.append({"name": "process_name", "ph": "M", "pid": pid, "tid": pid,
                         "args": {"name": process_name(rows, pid)}})
        if comm != "unknown":
            want.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                         "args": {"name": comm}})
    if meta != want:
        sys.exit("metadata %r, expected %r" % (meta, want))


STATE_BASE = 1 << 30
STATES = ["Running", "Runnable", "Sleeping", "D", "Stopped"]


def sched_threads(path):
    """tid -> (pid, [(tsc, type, state, other_pid, other_tid)]) of known types, TSC order."""
    data = open(path, "rb").read()
    magic, version, hsize, rsize, _, _, _, nr, lost = struct.unpack_from("<IHHHHIQQQ", data)
    if (magic, version, hsize, rsize, len(data)) != (0x46534446, 1, 64, 32, 64 + 32 * nr):
        sys.exit("%s: not a valid scheduling file" % path)
    threads = {}
    for i in range(nr):
        tsc, typ, st, _, pid, tid, opid, otid = struct.unpack_from("<QBBHiiii", data, 64 + 32 * i)
        if 1 <= typ <= 3:
            threads.setdefault(tid, (pid, []))[1].append((tsc, i, typ, st, opid, otid))
    for tid in threads:
        threads[tid][1].sort()
    return threads, lost


def next_state(prev, typ, st):
    if typ == 1:
        return min(st, 3) + 1 if st else 1
    if typ == 2:
        return 0
    return prev if prev in (0, 1) else 1


def expected_sched(path, rows, lo, hi, freq):
    threads, lost = sched_threads(path)
    ns = lambda t: t * 1000000000 // freq if freq else t * 1000
    us = lambda n: "%d.%03d" % (n // 1000, n % 1000)
    spans, flows = [], []
    for tid in sorted(threads):
        pid, recs = threads[tid]
        pid = rows[tid][0] if tid in rows else pid
        first = recs[0][2]
        state = None if lost else {1: 0, 2: 1, 3: 2}[first]
        points = [(lo, state)] if lo < recs[0][0] else []
        for tsc, _, typ, st, _, _ in recs:
            state = next_state(state, typ, st)
            points.append((tsc, state))
        points.append((max(hi, points[-1][0]), None))
        merged = [points[0]]
        for p in points[1:-1]:
            if p[1] != merged[-1][1]:
                merged.append(p)
        merged.append(points[-1])
        for (a, st), (b, _) in zip(merged, merged[1:]):
            if st is not None and b > a:
                spans.append({"name": STATES[st], "ts": us(ns(a)), "dur": us(ns(b) - ns(a)),
                              "pid": pid, "tid": STATE_BASE + tid})
    for tid in sorted(threads):
        pid, recs = threads[tid]
        for tsc, _, typ, st, opid, otid in recs:
            if typ == 3 and st == 0 and otid:
                wpid = rows[otid][0] if otid in rows else opid
                wtid = otid + STATE_BASE if otid in threads else otid
                flows.append(("s", us(ns(tsc)), wpid, wtid))
                flows.append(("f", us(ns(tsc)), rows[tid][0] if tid in rows else pid,
                              STATE_BASE + tid))
    names = [{"name": "thread_name", "ph": "M", "pid": rows[t][0] if t in rows else threads[t][0],
              "tid": STATE_BASE + t, "args": {"name": "%d state" % t}} for t in sorted(threads)]
    return spans, flows, names


def check_sched(path, sched_events, sched_text, rows, header, records):
    tscs = [int(r["tsc"]) for r in records]
    freq = int(header["cycle-frequency"])
    spans, flows, names = expected_sched(path, rows, min(tscs, default=0), max(tscs, default=0), freq)
    got_spans = [e for e in sched_events if e["ph"] == "X"]
    texts = re.findall(r'"ph":"X","ts":([0-9.]+),"dur":([0-9.]+)', sched_text)
    got = [{"name": e["name"], "ts": t, "dur": d, "pid": e["pid"], "tid": e["tid"]}
           for e, (t, d) in zip(got_spans, texts)]
    if got != spans:
        sys.exit("state events %r, expected %r" % (got, spans))
    got_flows = []
    for e in sched_events:
        if e["ph"] in "sf":
            got_flows.append((e["ph"], e["id"], e["pid"], e["tid"], e.get("bp")))
    fl_ts = re.findall(r'"ph":"[sf]"(?:,"bp":"e")?,"id":[0-9]+,"ts":([0-9.]+)', sched_text)
    if [(f[0], t, f[2], f[3]) for f, t in zip(got_flows, fl_ts)] != flows:
        sys.exit("flows %r at %r, expected %r" % (got_flows, fl_ts, flows))
    for i in range(0, len(got_flows), 2):
        if got_flows[i][1] != got_flows[i + 1][1] or got_flows[i + 1][4] != "e":
            sys.exit("flow %r: start and end do not pair" % (got_flows[i:i + 2],))
    return names


def main():
    sched = None
    if sys.argv[1] == "--sched":
        sched = sys.argv[2]
        del sys.argv[1:3]
    trace = json.load(open(sys.argv[1], encoding="utf-8"))
    raw = open(sys.argv[1], encoding="utf-8").read()
    header, records = yaml_records(sys.argv[2])
    rows = thread_table(sys.argv[3]) if len(sys.argv) > 3 else {}
    freq = int(header["cycle-frequency"])
    meta = [e for e in trace["traceEvents"] if e["ph"] == "M"]
    events = trace["traceEvents"][len(meta):]
    if any(e["ph"] == "M" for e in events):
        sys.exit("metadata events after the first trace event")
    sched_events = [e for e in events if e.get("cat") == "sched"]
    if sched_events != events[len(events) - len(sched_events):]:
        sys.exit("scheduling events before the last call event")
    events = events[:len(events) - len(sched_events)]
    if sched:
        names = check_sched(sched, sched_events, raw[raw.index('"cat":"sched"') - 30:]
                            if sched_events else "", rows, header, records)
        if meta[len(meta) - len(names):] != names:
            sys.exit("state track names %r, expected %r" % (meta[len(meta) - len(names):], names))
        meta = meta[:len(meta) - len(names)]
    elif sched_events:
        sys.exit("scheduling events without --sched")
    check_metadata(meta, rows)
    if len(events) != len(records):
        sys.exit("%d trace events for %d YAML records" % (len(events), len(records)))
    ts_text = re.findall(r'"ts":([0-9.]+)', raw)
    phases = {"function-enter": "B", "function-enter-arg": "B", "function-exit": "E",
              "function-tail-exit": "E", "custom-event": "i", "typed-event": "i"}
    for i, (ev, rec) in enumerate(zip(events, records)):
        tid = int(rec.get("thread", 0))
        want = {"ph": phases[rec["kind"]],
                "pid": rows[tid][0] if tid in rows else int(rec.get("process", 0)),
                "tid": tid}
        got = {k: ev[k] for k in want}
        if got != want:
            sys.exit("event %d: %r, expected %r" % (i, got, want))
        if ts_text[i] != expected_ts(int(rec["tsc"]), freq):
            sys.exit("event %d: ts %s, expected %s" % (i, ts_text[i], expected_ts(int(rec["tsc"]), freq)))
        if ev["args"]["cpu"] != int(rec["cpu"]) or ev["args"].get("call_args", []) != rec["args"]:
            sys.exit("event %d: args %r do not match %r" % (i, ev["args"], rec))
        if rec["kind"].endswith("event") and "data" not in ev["args"]:
            sys.exit("event %d: payload missing" % i)
        if not rec["kind"].endswith("event") and ev["name"] != "#" + rec["func-id"]:
            sys.exit("event %d: name %r, expected #%s" % (i, ev["name"], rec["func-id"]))


if __name__ == "__main__":
    main()
