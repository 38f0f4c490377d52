#!/usr/bin/env python3
"""Check `fdrlog convert --format perfetto` against the YAML of the same
log, on the text `protoc --decode=perfetto.protos.Trace perfetto_min.proto`
prints of it (so the bytes are valid protobuf of Perfetto's field numbers):

- every packet is a known message (a field protoc could not name, printed
  as a bare number, fails);
- tracks: one ThreadDescriptor per (pid, tid) of the log, pid from the
  side table THREADS when given (and its thread and process names), each
  before the first event on it;
- the TrackEvents of each thread are exactly the slices the YAML gives by
  llvm-xray's matching (an exit closes the nearest open call of its
  function and every call above it; an exit whose entry is not in the log
  closes nothing): BEGIN with the name #FID (interned before use, on
  sequence 1, in a packet that needs the incremental state the first
  packet cleared) and the call's arguments arg1..argN, END at the exit's
  time, an instant per custom or typed event; times in ns from the
  CycleFrequency; when THREADS's finalize line names a latency trigger,
  an instant "trigger" (with its duration_ns) last on its thread, at the
  exit of the last call of its function there;
- with --sched FILE: the thread states Perfetto derives from the ftrace
  sched_switch/sched_waking events (next -> Running, prev -> its
  prev_state R/S/D/T, a woken thread not running -> Runnable) follow the
  states format.md's rules give for each record of FILE, and every
  wakeup names its waker (the waking thread, or an interrupt in
  common_flags).
- with --replay FILE (`fdrlog replay` of the same log and names): the
  completed calls, each thread's (depth, name, duration as replay prints
  it), are the ones replay lists (a log with no entry lost: replay draws
  those, Perfetto cannot).
usage: check_perfetto.py [--sched FILE] [--replay FILE] DECODED.txt LOG.yaml [THREADS]
Prints nothing and exits 0 when everything matches."""
import re
import sys

from check_chrome import next_state, process_name, sched_threads, thread_table, yaml_records


def parse_text(path):
    """protoc's text format as nested lists of (field, value) pairs."""
    root, stack = [], []
    cur = root
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if line.endswith("{"):
            child = []
            cur.append((line[:-1].strip(), child))
            stack.append(cur)
            cur = child
        elif line == "}":
            cur = stack.pop()
        else:
            m = re.match(r"([a-z_]+): (.*)$", line)
            if not m:
                sys.exit("%s:%d: not a field protoc named: %r" % (path, n, line))
            v = m.group(2)
            if v.startswith('"'):
                v = v[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
            elif re.match(r"-?[0-9]+$", v):
                v = int(v)
            cur.append((m.group(1), v))
    return root


def get(msg, key, default=None):
    return next((v for k, v in msg if k == key), default)


def every(msg, key):
    return [v for k, v in msg if k == key]


def trigger_of(path):
    """(tid, fid, duration_ns) of a `finalize trigger` line (fid != 0), else None."""
    for line in open(path, encoding="utf-8") if path else []:
        f = line.rstrip("\n").split("\t")
        if f[:2] == ["finalize", "trigger"] and len(f) >= 15 and f[12] != "0":
            return int(f[10]), f[12], int(f[14])
    return None


def expected_events(records, freq, trigger=None):
    """(pid?, tid) -> [(type, ns, name, args)] by llvm-xray's matching, each
    thread's records in the YAML's order (the stream's: --no-sort), a
    slice's time never below the thread's last slice time, the trigger at
    the latest exit of its function on its thread; as Perfetto orders them
    (by time, stably)."""
    ns = lambda t: t * 1000000000 // freq if freq else t * 1000
    out, stacks, last, mark = {}, {}, {}, None
    for r in records:
        tid = int(r.get("thread", 0))
        tid = tid - (1 << 32) if tid >= 1 << 31 else tid   # a hidden task's -id (fdr_sched.h)
        ev, st = out.setdefault(tid, []), stacks.setdefault(tid, [])
        kind, t = r["kind"], ns(int(r["tsc"]))
        slice_t = max(t, last.get(tid, 0))
        if kind in ("function-enter", "function-enter-arg"):
            st.append(r["func-id"])
            ev.append(("TYPE_SLICE_BEGIN", slice_t, "#" + r["func-id"], r["args"]))
            last[tid] = slice_t
        elif kind in ("function-exit", "function-tail-exit"):
            if r["func-id"] in st:
                i = len(st) - 1 - st[::-1].index(r["func-id"])
                ev += [("TYPE_SLICE_END", slice_t, None, [])] * (len(st) - i)
                last[tid] = slice_t
                del st[i:]
                if trigger and trigger[:2] == (tid, r["func-id"]) and (not mark or t >= mark[1][1]):
                    mark = (tid, ("TYPE_INSTANT", t, "trigger", [trigger[2]]))
        else:
            ev.append(("TYPE_INSTANT", t, kind, []))
    if mark:
        out[mark[0]].append(mark[1])
    return {tid: by_time(evs) for tid, evs in out.items()}


def by_time(events):
    """A thread's events as Perfetto sorts them: by time, ties in file order."""
    return sorted(events, key=lambda e: e[1])


def track_events(packets, rows):
    """Check descriptors and sequence state; tid -> [(type, ns, name, args)]."""
    names, arg_names, tracks, procs, got = {}, {}, {}, {}, {}
    first = True
    for p in packets:
        td = get(p, "track_descriptor")
        if td is not None:
            th, pr = get(td, "thread"), get(td, "process")
            if th is not None:
                tracks[get(td, "uuid")] = get(th, "tid")
                tid, pid = get(th, "tid"), get(th, "pid")
                if tid in rows and (pid, get(th, "thread_name")) != (rows[tid][0], rows[tid][1]):
                    sys.exit("thread %d: pid %r name %r, expected %r" % (tid, pid, get(th, "thread_name"), rows[tid][:2]))
                got.setdefault(tid, [])
            if pr is not None:
                procs[get(pr, "pid")] = get(pr, "process_name")
            continue
        if get(p, "ftrace_events") is not None:
            continue
        if get(p, "trusted_packet_sequence_id") != 1:
            sys.exit("packet %r: not on sequence 1" % p)
        flags = get(p, "sequence_flags")
        if flags != (1 if first else 2):
            sys.exit("packet %r: sequence_flags %r" % (p, flags))
        first = False
        for d in every(p, "interned_data"):
            for e in every(d, "event_names"):
                names[get(e, "iid")] = get(e, "name")
            for e in every(d, "debug_annotation_names"):
                arg_names[get(e, "iid")] = get(e, "name")
        te = get(p, "track_event")
        if te is None:
            continue
        uuid = get(te, "track_uuid")
        if uuid not in tracks:
            sys.exit("event on track %r before its descriptor" % uuid)
        typ = get(te, "type")
        name = names.get(get(te, "name_iid")) if typ != "TYPE_SLICE_END" else None
        if typ != "TYPE_SLICE_END" and name is None:
            sys.exit("event %r: name not interned before" % te)
        args = [(arg_names.get(get(a, "name_iid")), get(a, "uint_value"))
                for a in every(te, "debug_annotations")]
        if typ == "TYPE_SLICE_BEGIN":
            if [a[0] for a in args] != ["arg%d" % (i + 1) for i in range(len(args))]:
                sys.exit("event %r: argument names %r" % (te, args))
            args = [a[1] for a in args]
        elif name == "trigger":
            args = [a[1] for a in args if a[0] == "duration_ns"]
        else:
            name, args = {"custom-event": "custom-event", "typed-event": "typed-event",
                          "records dropped": "custom-event"}.get(name, name), []
        got[tracks[uuid]].append((typ, get(p, "timestamp"), name, args))
    for pid, pname in procs.items():
        if rows and pname != process_name(rows, pid):
            sys.exit("process %d named %r, expected %r" % (pid, pname, process_name(rows, pid)))
    return {tid: by_time(evs) for tid, evs in got.items()}


# Perfetto's thread states from prev_state (Linux TASK_* bits), as check_chrome's numbers.
PREV_STATE = {0: 1, 1: 2, 2: 3, 4: 4}


def check_sched(path, packets):
    events = []
    for p in packets:
        b = get(p, "ftrace_events")
        if b is not None:
            events += [(get(e, "timestamp"), get(b, "cpu"), e) for e in every(b, "event")]
    events.sort(key=lambda x: x[0])
    threads, _ = sched_threads(path)
    got = {tid: [] for tid in threads}
    wakes = []
    for ts, cpu, e in events:
        sw, wk = get(e, "sched_switch"), get(e, "sched_waking")
        if sw is not None:
            for tid, st in ((get(sw, "prev_pid"), PREV_STATE[get(sw, "prev_state")]),
                            (get(sw, "next_pid"), 0)):
                if tid in got:
                    got[tid].append((ts, st))
        elif wk is not None:
            tid = get(wk, "pid")
            cur = got[tid][-1][1] if got.get(tid) else None
            got[tid].append((ts, 0 if cur == 0 else 1))
            wakes.append((ts, tid, get(e, "pid"), get(e, "common_flags", 0), cpu))
        else:
            sys.exit("ftrace event %r: neither sched_switch nor sched_waking" % e)
    want, want_wakes = {}, []
    for tid, (_, recs) in threads.items():
        state, want[tid] = None, []
        for tsc, _, typ, st, _, otid in recs:
            state = next_state(state, typ, st)
            want[tid].append((tsc, state))
            if typ == 3:
                want_wakes.append((tsc, tid, otid if st == 0 else 0, {0: 0, 1: 8, 2: 16}[st]))
    # The time in the file is ns here (1 GHz logs only: the runner's).
    dedup = lambda xs: [x for i, x in enumerate(xs) if i == 0 or x[1] != xs[i - 1][1]]
    for tid in threads:
        if dedup(got[tid]) != dedup(want[tid]):
            sys.exit("thread %d: states %r, expected %r" % (tid, got[tid], want[tid]))
    if sorted(w[:4] for w in wakes) != sorted(want_wakes):
        sys.exit("wakeups %r, expected %r" % (wakes, want_wakes))


def replay_time(ns):
    """replay.c's put_time: 3 decimals of us, ms or s."""
    unit, div = ("s", 10**9) if ns >= 10**9 else ("ms", 10**6) if ns >= 10**6 else ("us", 1000)
    return "%d.%03d %s" % (ns // div, ns % div * 1000 // div, unit)


def replay_calls(path):
    """The completed calls replay lists: sorted (tid, depth, name, duration)."""
    calls, open_ = [], []
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(.{10}) \[ *(-?[0-9]+)\] \| ((?:  )*)(.*)$", line.rstrip("\n"))
        if not m or m.group(4).startswith(("--", "/*")):
            continue
        dur, tid, depth, body = m.group(1).strip(), int(m.group(2)), len(m.group(3)) // 2, m.group(4)
        if body.endswith("{"):
            open_.append(re.match(r"(.*?)\(", body).group(1))
        elif body.startswith("}"):
            calls.append((tid, depth, open_.pop(), dur))
        else:
            calls.append((tid, depth, re.match(r"(.*?)\(", body).group(1), dur))
    return sorted(calls)


def perfetto_calls(events):
    """The same from the decoded slices of each thread."""
    calls = []
    for tid, evs in events.items():
        stack = []
        for typ, ts, name, _ in evs:
            if typ == "TYPE_SLICE_BEGIN":
                stack.append((name, ts))
            elif typ == "TYPE_SLICE_END":
                name, t0 = stack.pop()
                calls.append((tid, len(stack), name, replay_time(ts - t0)))
    return sorted(calls)


def main():
    sched = replay = None
    while sys.argv[1] in ("--sched", "--replay"):
        if sys.argv[1] == "--sched":
            sched = sys.argv[2]
        else:
            replay = sys.argv[2]
        del sys.argv[1:3]
    packets = [v for k, v in parse_text(sys.argv[1]) if k == "packet"]
    header, records = yaml_records(sys.argv[2])
    rows = thread_table(sys.argv[3]) if len(sys.argv) > 3 else {}
    want = expected_events(records, int(header["cycle-frequency"]),
                           trigger_of(sys.argv[3] if len(sys.argv) > 3 else None))
    got = track_events(packets, rows)
    if replay and perfetto_calls(got) != replay_calls(replay):
        sys.exit("calls %r, replay lists %r" % (perfetto_calls(got), replay_calls(replay)))
    if replay:
        return
    for tid in sorted(set(want) | set(got)):
        if got.get(tid, []) != want.get(tid, []):
            sys.exit("thread %d: events %r, expected %r" % (tid, got.get(tid), want.get(tid)))
    if sched:
        check_sched(sched, packets)
    elif any(get(p, "ftrace_events") is not None for p in packets):
        sys.exit("ftrace events without --sched")


if __name__ == "__main__":
    main()
