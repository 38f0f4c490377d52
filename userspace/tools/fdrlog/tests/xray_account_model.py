#!/usr/bin/env python3
"""What llvm-xray-19 account will say about a log, from the YAML of
`fdrlog convert --format yaml --no-sort LOG` (llvm-xray's own load order:
account never sorts) or of an export: LLVM 19's
LatencyAccountant::accountRecord (xray-account.cpp) restated:
  - a record whose TSC is below the FIRST record's TSC fails (CurrentMaxTSC
    is set once, from the first record, and never raised);
  - an Exit with an empty stack fails;
  - an Exit that is not the top of the stack fails without -d; with -d it
    closes the frames above the matching one, or fails if there is none.
Prints "accept" and "fid count" lines, or "reject: why" (exit 1).
--ignore-order leaves out the first rule: does the log hold every Enter
before its Exit, whatever llvm-xray's record order?
usage: xray_account_model.py YAML [-d] [--ignore-order]"""
import re
import sys


def records(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"  - \{ (.*) \}$", line)
        if m:
            f = dict(re.findall(r"(?:^|, )(func-id|thread|kind|tsc): ([^,]+)", m.group(1)))
            yield int(f["func-id"]), int(f.get("thread", 0)), f["kind"], int(f["tsc"])


def main():
    deduce = "-d" in sys.argv[2:]
    ignore_order = "--ignore-order" in sys.argv[2:]
    first = None
    stacks, counts = {}, {}
    for n, (fid, tid, kind, tsc) in enumerate(records(sys.argv[1])):
        first = tsc if first is None else first
        if tsc < first and not ignore_order:
            sys.exit(print("reject: record %d (thread %d) has TSC %d below the first record's %d"
                           % (n, tid, tsc, first)) or 1)
        st = stacks.setdefault(tid, [])
        if kind in ("function-enter", "function-enter-arg"):
            st.append(fid)
        elif kind in ("function-exit", "function-tail-exit"):
            if not st:
                sys.exit(print("reject: record %d (thread %d): exit of %d with an empty stack"
                               % (n, tid, fid)) or 1)
            if st[-1] != fid and (not deduce or fid not in st):
                sys.exit(print("reject: record %d (thread %d): exit of %d, top of stack %d"
                               % (n, tid, fid, st[-1])) or 1)
            while st[-1] != fid:
                counts[st[-1]] = counts.get(st[-1], 0) + 1
                st.pop()
            counts[fid] = counts.get(fid, 0) + 1
            st.pop()
    print("accept")
    for fid in sorted(counts):
        print(fid, counts[fid])


main()
