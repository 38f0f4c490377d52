#!/bin/sh
# run_perfetto.sh - TAP tests of `fdrlog convert --format perfetto`: the
# output decoded by protoc against perfetto_min.proto (Perfetto's field
# numbers) and checked by check_perfetto.py against the YAML of the same
# log (threads, names, slices and their nesting, arguments, instants) and
# against the scheduling file (thread states, wakeups) and `fdrlog
# replay` (the same calls), on the logs of
# gen_sched.py, gen_views.py, cases/ and gen_crafted; the decoded sched
# trace byte for byte; size against the Chrome JSON; errors.  Without a
# filter the log is streamed, each thread's records in the log's order:
# the YAML compared is --no-sort's; with one, the sorted trace.
# usage: run_perfetto.sh FDRLOG HEX2BIN GEN_CRAFTED WORKDIR
set -u
FDRLOG=$1 HEX2BIN=$2 GEN=$3 WORK=$4
HERE=$(cd "$(dirname "$0")" && pwd)
V=$HERE/views
FDR=$(dirname "$FDRLOG")/fdr
. "$HERE/tap_lib.sh"

if ! command -v protoc >/dev/null; then
	not_ok "protoc not installed (package protobuf-compiler: scripts/deps.sh test)"
	echo "1..$n"
	exit 1
fi
# decode PB TXT: protoc's text of a Perfetto trace
decode() { protoc --proto_path="$HERE" --decode=perfetto.protos.Trace perfetto_min.proto <"$1" >"$2"; }
# convert_check NAME LOG [THREADS] [--sched FILE]: convert, decode, check
convert_check() {
	name=$1 log=$2 threads=${3:-}
	shift $(($# < 3 ? $# : 3))
	"$FDRLOG" convert --format yaml --no-sort "$log" >"$name.yaml" &&
		"$FDRLOG" convert --format perfetto -o "$name.pb" "$log" &&
		decode "$name.pb" "$name.txt" &&
		python3 "$HERE/check_perfetto.py" "$@" "$name.txt" "$name.yaml" $threads
}

generate gen_sched.py "$WORK/sched"
cd "$WORK/sched" || exit 1
LOG=$WORK/sched/sched.xray

# ---- the scheduling log ----
convert_check sched "$LOG" "$LOG.threads" --sched "$LOG.sched"
check $? "sched: slices, names, pids/tids and thread states as the log and LOG.sched give"
"$FDRLOG" convert --format perfetto --sym-map sched.symmap "$LOG" >named.pb && decode named.pb named.txt
same named.txt "$V/sched-perfetto.txt" "sched: the decoded trace with --sym-map (bytes)"
"$FDRLOG" replay --sym-map sched.symmap "$LOG" >replay.txt &&
	python3 "$HERE/check_perfetto.py" --replay replay.txt named.txt sched.yaml
check $? "sched: the same calls (thread, depth, name, duration) as fdrlog replay lists"
sed 's/^  2.100 ms/  2.101 ms/' replay.txt >replay-changed.txt
python3 "$HERE/check_perfetto.py" --replay replay-changed.txt named.txt sched.yaml 2>/dev/null
check $(( ! $? )) "check_perfetto.py --replay fails on a call replay does not list"
grep -q 'name: "leaf"' named.txt && grep -q 'thread_name: "waker"' named.txt &&
	grep -q 'process_name: "sched"' named.txt
check $? "sched: function, thread and process names"
python3 - "$LOG.sched" mutated.sched <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[64 + 9] = 2	# record 0: the sleep becomes a D wait
open(sys.argv[2], "wb").write(d)
PY
python3 "$HERE/check_perfetto.py" --sched mutated.sched sched.txt sched.yaml "$LOG.threads" 2>/dev/null
check $(( ! $? )) "check_perfetto.py --sched fails on states the trace does not have"
"$FDRLOG" convert --format perfetto --no-sched "$LOG" >nosched.pb && decode nosched.pb nosched.txt &&
	! grep -q ftrace_events nosched.txt && python3 "$HERE/check_perfetto.py" nosched.txt sched.yaml "$LOG.threads"
check $? "--no-sched: the calls without ftrace events"
mkdir bad && cp "$LOG" bad/ && cp bad-magic.sched bad/sched.xray.sched
"$FDRLOG" convert --format perfetto bad/sched.xray >bad.pb 2>bad.err && decode bad.pb bad.txt &&
	! grep -q ftrace_events bad.txt && grep -q "reading the log without it" bad.err
check $? "hostile .sched: refused with its cause, the trace without it"

# ---- views: the side table, arguments, a custom event, unwound frames ----
generate gen_views.py "$WORK/views"
cd "$WORK/views" || exit 1
convert_check views views.xray views.xray.threads
check $? "views: pids from the side table, names, slices, arguments, the custom event"
grep -q 'string_value: "hello"' views.txt && grep -q 'process_name: "server"' views.txt
check $? "views: the custom event's payload, the process's name"
sed 's/^finalize\t.*/finalize\ttrigger\tsignal\t0\t-\tpid\t100\tcomm\tserver\ttid\t101\tfid\t3\tduration_ns\t20300000/' \
	views.xray.threads >trigger.threads
"$FDRLOG" convert --format perfetto --threads trigger.threads views.xray >trigger.pb && decode trigger.pb trigger.txt &&
	python3 "$HERE/check_perfetto.py" trigger.txt views.yaml trigger.threads &&
	[ "$(grep -c 'name: "trigger"' trigger.txt)" = 1 ] && grep -q 'uint_value: 20300000' trigger.txt
check $? "a latency trigger in the side table: an instant at the exit of the call that fired, with its duration"
python3 "$HERE/check_perfetto.py" views.txt views.yaml trigger.threads 2>/dev/null
check $(( ! $? )) "check_perfetto.py fails on a trace without the trigger's instant"
convert_check unwound unwound.xray
check $? "unwound: an END for every frame an exit closes, nothing for an exit without entry"
python3 "$HERE/check_perfetto.py" views.txt unwound.yaml 2>/dev/null
check $(( ! $? )) "check_perfetto.py fails on another log's calls"
"$FDRLOG" convert --format perfetto -o fdrlog.pb views.xray && "$FDR" convert --format perfetto -o fdr.pb views.xray &&
	cmp -s fdrlog.pb fdr.pb
check $? "fdr convert --format perfetto: the bytes of fdrlog convert"

# ---- a filter: the whole trace, sorted by TSC, instead of the stream ----
cd "$WORK/views" || exit 1
"$FDRLOG" convert --format yaml --tid 101,102,201 views.xray >tid.yaml &&
	"$FDRLOG" convert --format perfetto --tid 101,102,201 -o tid.pb views.xray && decode tid.pb tid.txt &&
	python3 "$HERE/check_perfetto.py" tid.txt tid.yaml views.xray.threads &&
	! cmp -s tid.pb fdr.pb
check $? "--tid (every thread): the whole-trace path, the calls of the sorted YAML, packets in another order"

# ---- every valid hand-built case (drop markers, typed events, v1, ...) ----
mkdir -p "$WORK/cases" && cd "$WORK/cases" || exit 1
bad=
for y in "$HERE"/cases/*.yaml; do
	c=$(basename "$y" .yaml)
	"$HEX2BIN" "$HERE/cases/$c.hex" "$c.log" && convert_check "$c" "$c.log" || bad="$bad $c"
done
[ -z "$bad" ]
check $? "cases/: every valid log's trace checks out${bad:+ (not:$bad)}"

# ---- crafted: nesting with lost exits, linear time, size ----
"$GEN" mixed 30000 mixed.xray >/dev/null && convert_check mixed mixed.xray
check $? "crafted mixed 30000: unwound frames, orphan exits and open calls nest as the YAML gives"
"$FDRLOG" convert --format chrome -o mixed.json mixed.xray
p=$(stat -c %s mixed.pb) j=$(stat -c %s mixed.json)
[ $((p * 5)) -le "$j" ]
check $? "perfetto at least 5x smaller than the Chrome JSON ($p against $j bytes)"
"$GEN" orphans 200000 orphans.xray >/dev/null && timeout 20 "$FDRLOG" convert --format perfetto -o orphans.pb orphans.xray
check $? "200,000 exits without entry under a stack 200,000 deep: converts in linear time"

# ---- errors ----
"$FDRLOG" convert --format perfetto -o nodir/out.pb "$WORK/views/views.xray" 2>err.txt
[ $? = 1 ] && [ ! -e nodir/out.pb ] && grep -q "nodir" err.txt
check $? "-o into a missing directory: an error naming it, no file"
"$FDRLOG" convert --format protobuf "$WORK/views/views.xray" 2>err.txt
[ $? = 2 ] && grep -q "expected yaml, chrome or perfetto" err.txt
check $? "an unknown format names the three"

echo "1..$n"
[ $failed = 0 ]
