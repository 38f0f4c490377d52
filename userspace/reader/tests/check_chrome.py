#!/usr/bin/env python3
"""Check `fdrlog convert --format chrome` output against the YAML of the
same log: valid JSON (python's json module), one trace event per YAML
record in the same order, with the right phase, pid/tid, timestamp
(TSC * 1e6 / CycleFrequency, microseconds, 3 decimals), call arguments and
custom event payloads.  usage: check_chrome.py TRACE.json LOG.yaml
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


def main():
    trace = json.load(open(sys.argv[1], encoding="utf-8"))
    raw = open(sys.argv[1], encoding="utf-8").read()
    header, records = yaml_records(sys.argv[2])
    freq = int(header["cycle-frequency"])
    events = trace["traceEvents"]
    if len(events) != len(records):
        sys.exit("%d trace events for %d YAML records" % (len(events), len(records)))
    ts_text = re.findall(r'"ts":([0-9.]+)', raw)
    phases = {"function-enter": "B", "function-enter-arg": "B", "function-exit": "E",
              "function-tail-exit": "E", "custom-event": "i", "typed-event": "i"}
    for i, (ev, rec) in enumerate(zip(events, records)):
        want = {"ph": phases[rec["kind"]], "pid": int(rec.get("process", 0)),
                "tid": int(rec.get("thread", 0))}
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
