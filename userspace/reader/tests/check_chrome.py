#!/usr/bin/env python3
"""Check `fdrlog convert --format chrome` output against the YAML of the
same log: valid JSON (python's json module), one trace event per YAML
record in the same order, with the right phase, pid/tid, timestamp
(TSC * 1e6 / CycleFrequency, microseconds, 3 decimals), call arguments and
custom event payloads.  With THREADS (fdrd's side table), pids must be
the table's and the trace must start with the process_name/thread_name
metadata events of the table.
usage: check_chrome.py TRACE.json LOG.yaml [THREADS]
Prints nothing and exits 0 when everything matches."""
import json
import re
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


def main():
    trace = json.load(open(sys.argv[1], encoding="utf-8"))
    raw = open(sys.argv[1], encoding="utf-8").read()
    header, records = yaml_records(sys.argv[2])
    rows = thread_table(sys.argv[3]) if len(sys.argv) > 3 else {}
    freq = int(header["cycle-frequency"])
    meta = [e for e in trace["traceEvents"] if e["ph"] == "M"]
    events = trace["traceEvents"][len(meta):]
    if any(e["ph"] == "M" for e in events):
        sys.exit("metadata events after the first trace event")
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
