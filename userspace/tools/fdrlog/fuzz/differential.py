#!/usr/bin/env python3
"""Differential test: fdrlog against llvm-xray-19 on every file of a corpus
(normally the fuzzer's, full of mutated logs).

For each file, `fdrlog convert --format yaml` and `llvm-xray-19 convert -f
yaml` must either both reject it, or both print the same bytes.  The only
differences allowed are the documented ones (Documentation/reader.md):
  - fdrlog rejects, llvm-xray accepts: fdrlog's error is one of its
    stricter framing checks (v2 extents, v1 ThreadBufferSize padding);
  - fdrlog rejects a file that is not an FDR log (type != 1: llvm-xray also
    reads naive-mode logs and YAML traces);
  - fdrlog accepts or prints something else, on a v1 log: fdrlog skips the
    padding after each EndOfBuffer that llvm-xray parses as records; with
    those bytes zeroed llvm-xray must print exactly what fdrlog printed.
usage: differential.py FDRLOG LLVM_XRAY CORPUS_DIR...
Prints a summary; exits 1 if any difference is unexplained.
"""
import os
import re
import subprocess
import sys
import tempfile

STRICTER = [
    r"expected BufferExtents \(",
    r"runs past its buffer's extents",
    r"truncated: the last buffer's extents announce",
    r"BufferExtents: truncated",
    r"EndOfBuffer: expected the buffer that began",
    r"EndOfBuffer: truncated: the buffer that began",
]


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=60)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, b"", "timeout"


def skipped_ranges(fdrlog, path, size):
    """Byte ranges fdrlog skips after each EndOfBuffer (from its dump)."""
    _, out, _ = run([fdrlog, "dump", path])
    offs = []
    for line in out.decode(errors="replace").splitlines()[1:]:
        m = re.match(r"([0-9a-f]+)  (.*)", line)
        if m:
            offs.append((int(m.group(1), 16), m.group(2)))
    ranges = []
    for i, (off, what) in enumerate(offs):
        if what.startswith("EndOfBuffer"):
            end = offs[i + 1][0] if i + 1 < len(offs) else size
            ranges.append((off + 16, end))
    return ranges


def padding_explains(fdrlog, llvm, path, ours):
    data = bytearray(open(path, "rb").read())
    if len(data) < 2 or data[0] != 1 or data[1] != 0:
        return False
    for lo, hi in skipped_ranges(fdrlog, path, len(data)):
        data[lo:hi] = bytes(hi - lo)
    with tempfile.NamedTemporaryFile(suffix=".log") as z:
        z.write(data)
        z.flush()
        status, out, _ = run([llvm, "convert", "-f", "yaml", z.name])
    return status == 0 and out == ours


def is_fdr(path):
    head = open(path, "rb").read(4)
    return len(head) == 4 and head[2] == 1 and head[3] == 0


def main():
    fdrlog, llvm, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    counts = {"same": 0, "both reject": 0, "stricter": 0, "not FDR": 0, "v1 padding": 0,
              "UNEXPLAINED": 0}
    for d in dirs:
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            o_status, ours, o_err = run([fdrlog, "convert", "--format", "yaml", path])
            l_status, theirs, _ = run([llvm, "convert", "-f", "yaml", path])
            if o_status == 0 and l_status == 0 and ours == theirs:
                kind = "same"
            elif o_status != 0 and l_status != 0:
                kind = "both reject"
            elif o_status != 0 and any(re.search(p, o_err) for p in STRICTER):
                kind = "stricter"
            elif o_status != 0 and not is_fdr(path):
                kind = "not FDR"
            elif o_status == 0 and padding_explains(fdrlog, llvm, path, ours):
                kind = "v1 padding"
            else:
                kind = "UNEXPLAINED"
                print("unexplained: %s (fdrlog %d: %s; llvm-xray %d)"
                      % (path, o_status, o_err.strip()[:160], l_status))
            counts[kind] += 1
    total = sum(counts.values())
    print("%d files: " % total + ", ".join("%s %d" % kv for kv in counts.items()))
    sys.exit(1 if counts["UNEXPLAINED"] else 0)


if __name__ == "__main__":
    main()
