#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/flush/run.sh - fdrd's flush of 256 MiB of committed buffers vs
# plain write(2) of the same bytes to the same filesystem.
#
# An embedded region of 4096 x 64 KiB buffers is filled with valid records
# (userspace/fdrd/tests/fill_region), finalized, and flush_bench writes the
# log ROUNDS times per variant, interleaved.  Output: a Markdown table and
# a "ratio" line (read by bench/report.py).
#
#   FLUSH_DIR=/var/tmp FLUSH_ROUNDS=11 bench/flush/run.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
BUILD=$TOP/build
OUT=$BUILD/bench/flush
DIR=${FLUSH_DIR:-/var/tmp}
ROUNDS=${FLUSH_ROUNDS:-11}
NAME=fdrbench-flush-$$
TARGET=embedded:$NAME

make -s -C "$TOP/userspace/lib" >&2
make -s -C "$TOP/userspace/tools/fdrctl" >&2
make -s -C "$TOP/userspace/fdrd" all "$BUILD/fdrd/tests/fill_region" >&2
make -s -C "$HERE" >&2

FDRCTL=$BUILD/bin/fdrctl
trap '"$FDRCTL" --target "$TARGET" destroy >/dev/null 2>&1; rmdir "$WORK" 2>/dev/null' EXIT
WORK=$(mktemp -d "$DIR/fdr-flush-bench.XXXXXX")

"$FDRCTL" --target "$TARGET" init --buffer-size 65536 --buffers-per-cpu 1 >/dev/null
ncpu=$("$FDRCTL" --target "$TARGET" status --json | sed -n 's/.*"nr_cpus":\([0-9]*\).*/\1/p')
"$FDRCTL" --target "$TARGET" destroy >/dev/null
"$FDRCTL" --target "$TARGET" init --buffer-size 65536 --buffers-per-cpu $((4096 / ncpu)) >/dev/null
"$BUILD/fdrd/tests/fill_region" "$NAME" 4096 100000 >/dev/null
"$FDRCTL" --target "$TARGET" finalize >/dev/null

echo "## fdrd flush compared with plain write(2)"
echo
echo "$(nproc) CPUs, kernel $(uname -r), output directory $DIR ($(findmnt -n -o FSTYPE -T "$DIR")), $ROUNDS interleaved rounds"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews every figure; the ratios are side by side)"
echo
"$OUT/flush_bench" "$TARGET" "$WORK" "$ROUNDS"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
