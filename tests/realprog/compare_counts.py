#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare_counts.py: per-function call counts, by name, from the files
the real-program test writes, and their comparison.

  compare_counts.py enters YAML          name<TAB>Enter records, from
                                         `fdr convert --format yaml` or
                                         `llvm-xray-19 convert -symbolize
                                         -output-format=yaml` (on stdin: -)
  compare_counts.py hooks OUT BINARY      name<TAB>calls from count_hooks.c's
                                         OUT ("offset count" lines), named
                                         with nm BINARY
  compare_counts.py equal A B            A and B ("name<TAB>count" lines,
                                         or llvm-xray account CSV, or
                                         fdr report --json) give every
                                         function the same count; else the
                                         differing functions, exit 1
                                         (also when either side is empty)
  compare_counts.py unwound REPORT ACCT  fdr report --json vs llvm-xray
                                         account -d: equal but for the
                                         frames a longjmp unwound, which
                                         account -d counts as calls and
                                         the report as frames_unwound

Functions of the same name (static functions of different files) are
summed, the same way on both sides.
"""
import csv
import json
import re
import subprocess
import sys
from collections import Counter

ENTER = re.compile(r"function: (.*?), .*kind: function-enter,")


def enters(path):
    counts = Counter()
    with (sys.stdin if path == "-" else open(path)) as f:
        for line in f:
            if "kind: function-enter," not in line:
                continue
            m = ENTER.search(line)
            if m:
                counts[m.group(1)] += 1
    return counts


def hooks(out, binary):
    """count_hooks.c's entries by offset from the image start, named."""
    names = {}
    nm = subprocess.run(["nm", binary], check=True, capture_output=True, text=True)
    for line in nm.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            names[int(f[0], 16)] = f[2]
    counts = Counter()
    with open(out) as f:
        for line in f:
            off, n = line.split()
            counts[names.get(int(off, 16), "#" + off)] += int(n)
    return counts


def load(path):
    """Counts by name from a count list, an account CSV or a report JSON."""
    counts = Counter()
    with open(path) as f:
        text = f.read()
    if text.startswith("{"):
        for fn in json.loads(text)["functions"]:
            counts[fn["name"]] += fn["calls"]
    elif text.startswith("funcid,count,"):
        for row in csv.DictReader(text.splitlines()):
            counts[row["function"]] += int(row["count"])
    else:
        for line in text.splitlines():
            name, n = line.rsplit("\t", 1)
            counts[name] += int(n)
    return counts


def differences(a, b):
    return [(k, a.get(k, 0), b.get(k, 0)) for k in sorted(set(a) | set(b))
            if a.get(k, 0) != b.get(k, 0)]


def cmd_equal(pa, pb):
    a, b = load(pa), load(pb)
    diff = differences(a, b)
    print("%d functions, %d calls in %s; %d functions, %d calls in %s"
          % (len(a), sum(a.values()), pa, len(b), sum(b.values()), pb))
    for name, x, y in diff:
        print("%-40s %10d %10d" % (name, x, y))
    if not a or not b:
        print("no calls on one side: nothing compared")
        return 1
    return 1 if diff else 0


def cmd_unwound(preport, pacct):
    report, acct = load(preport), load(pacct)
    with open(preport) as f:
        unwound = json.load(f)["frames_unwound"]
    diff = differences(acct, report)
    extra = sum(x - y for _, x, y in diff)
    bad = [d for d in diff if d[1] < d[2]]
    print("%d functions; %d calls in the report, %d frames unwound; "
          "account -d: %d calls" % (len(report), sum(report.values()),
                                    unwound, sum(acct.values())))
    for name, x, y in diff:
        print("%-40s account -d %10d  report %10d" % (name, x, y))
    return 0 if not bad and extra == unwound else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "enters":
        for name, n in sorted(enters(argv[2]).items()):
            print("%s\t%d" % (name, n))
        return 0
    if len(argv) == 4 and argv[1] == "hooks":
        for name, n in sorted(hooks(argv[2], argv[3]).items()):
            print("%s\t%d" % (name, n))
        return 0
    if len(argv) == 4 and argv[1] == "equal":
        return cmd_equal(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "unwound":
        return cmd_unwound(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
