#!/bin/sh
# run_perfetto_memory.sh - TAP tests that `fdr convert --format perfetto`
# streams: the peak resident set of converting a 128 MB log stays within
# 1.5x that of a 32 MB one plus 8 MiB (the whole-trace path held about
# 40 bytes an event: 4x the log, 4x the memory), the smaller trace
# decodes, and the bigger one is 4x its size.  Logs from bench/reader's
# generator (threads interleaved in 16 KiB buffers, as a recording).  The
# peaks are printed, not timed: memory does not depend on the load.
# usage: run_perfetto_memory.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$HERE/../../../..
. "$HERE/tap_lib.sh"

rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
if ! ${CC:-cc} -O2 -std=gnu11 -I"$TOP/uapi" -o gen_big_log "$TOP/bench/reader/gen_big_log.c" ||
	! ./gen_big_log small.log 32 2 >/dev/null || ! ./gen_big_log big.log 128 2 >/dev/null; then
	echo "not ok 1 build bench/reader/gen_big_log.c and generate 32 and 128 MB logs"
	echo 1..1
	exit 1
fi

# peak_kib LOG OUT: convert LOG to OUT; the converter's peak RSS in KiB
# (getrusage of the child: the mapped log's pages count too)
peak_kib() {
	python3 - "$FDRLOG" "$1" "$2" <<'PY'
import resource, subprocess, sys
with open(sys.argv[3], "wb") as out:
    r = subprocess.run([sys.argv[1], "convert", "--format", "perfetto", sys.argv[2]], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)
PY
}
small=$(peak_kib small.log small.pb) big=$(peak_kib big.log big.pb)
echo "# peak RSS: $small KiB for $(stat -c %s small.log) bytes of log, $big KiB for $(stat -c %s big.log)"
[ "$small" -gt 0 ] && [ "$big" -gt 0 ] && [ "$big" -le $((small * 3 / 2 + 8192)) ]
check $? "128 MB log: peak RSS $big KiB within 1.5x the 32 MB log's ($small KiB) + 8 MiB"

slices=$(protoc --proto_path="$HERE" --decode=perfetto.protos.Trace perfetto_min.proto <small.pb |
	grep -c TYPE_SLICE_BEGIN)
s=$(stat -c %s small.pb) b=$(stat -c %s big.pb)
[ "${slices:-0}" -gt 1000000 ] && [ $((b * 10)) -ge $((s * 38)) ] && [ $((b * 10)) -le $((s * 42)) ]
check $? "the 32 MB log's trace decodes ($slices slices); 4x the log, 4x the trace ($s, $b bytes)"
rm -f small.log big.log small.pb big.pb

echo "1..$n"
[ $failed = 0 ]
