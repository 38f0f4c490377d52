#!/bin/sh
# run_views.sh - TAP tests of the views of a log on the known logs of
# gen_views.py: the Chrome trace with fdrd's side table (pids, process and
# thread names), replay, flame and the llvm-xray export.  Output bytes are
# compared with the files in views/.
# usage: run_views.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
V=$HERE/views
. "$HERE/tap_lib.sh"

generate gen_views.py "$WORK"
LOG=$WORK/views.xray
"$FDRLOG" convert --format yaml "$LOG" >"$WORK/views.yaml"

# ---- Chrome trace with the side table ----
"$FDRLOG" convert --format chrome "$LOG" >"$WORK/chrome.json"
same "$WORK/chrome.json" "$V/chrome.json" "chrome: LOG.threads read by default: real pids, process and thread names (bytes)"
python3 "$HERE/check_chrome.py" "$WORK/chrome.json" "$WORK/views.yaml" "$LOG.threads"
check $? "chrome: every event's pid is its thread's pid from the table; metadata first"
grep -q '"pid":100,"tid":102' "$WORK/chrome.json" && ! grep -q '"pid":102' "$WORK/chrome.json"
check $? "chrome: threads 101 and 102 share process 100 (not pid = tid)"
"$FDRLOG" convert --format chrome --no-threads "$LOG" >"$WORK/plain.json" &&
	python3 "$HERE/check_chrome.py" "$WORK/plain.json" "$WORK/views.yaml" &&
	! grep -q '"ph":"M"' "$WORK/plain.json"
check $? "chrome --no-threads: pid = tid as llvm-xray, no metadata"
cp "$LOG" "$WORK/copy.xray"
"$FDRLOG" convert --format chrome --threads "$LOG.threads" "$WORK/copy.xray" | cmp -s - "$V/chrome.json"
check $? "chrome --threads FILE: the same bytes"
# fdrd's finalize line of a trigger has fields after comm (tid, fid,
# duration_ns): the reader takes the table as before
sed 's/^finalize\t.*/finalize\ttrigger\tsignal\t0\t-\tpid\t100\tcomm\tserver\ttid\t101\tfid\t2\tduration_ns\t20300000/' \
	"$LOG.threads" >"$WORK/trigger.threads"
grep -q "	duration_ns	20300000\$" "$WORK/trigger.threads" &&
	"$FDRLOG" convert --format chrome --threads "$WORK/trigger.threads" "$WORK/copy.xray" | cmp -s - "$V/chrome.json"
check $? "chrome --threads FILE whose finalize line is a trigger's (more fields): the same bytes"
expect 1 "cannot open $WORK/none.threads" "--threads of a missing file is named" -- \
	"$FDRLOG" convert --format chrome --threads "$WORK/none.threads" "$LOG"
printf 'fdrd-threads\t2\n' >"$WORK/bad1.threads"
expect 1 "bad1.threads: line 1: expected" "a table of another format version is refused" -- \
	"$FDRLOG" convert --format chrome --threads "$WORK/bad1.threads" "$LOG"
printf 'fdrd-threads\t1\nthread\t5\tpid\tx\tbuffers\t1\tcomm\ta\texe\tb\n' >"$WORK/bad2.threads"
expect 1 "bad2.threads: line 2: expected thread" "a malformed thread line is named by number" -- \
	"$FDRLOG" convert --format chrome --threads "$WORK/bad2.threads" "$LOG"
printf 'fdrd-threads\t1\nthread\t5\tpid\t5\tbuffers\t1\tcomm\ta\\x00b\texe\tb\n' >"$WORK/bad3.threads"
expect 1 "bad3.threads: line 2" "an escaped NUL in a value is refused" -- \
	"$FDRLOG" convert --format chrome --threads "$WORK/bad3.threads" "$LOG"
cp "$WORK/bad2.threads" "$WORK/copy.xray.threads"
expect 1 "(--no-threads ignores it)" "a broken default table says how to go on without it" -- \
	"$FDRLOG" convert --format chrome "$WORK/copy.xray"
rm -f "$WORK/copy.xray.threads"

# ---- replay ----
SYM="--sym-map $WORK/views.symmap"
"$FDRLOG" replay $SYM "$LOG" >"$WORK/replay.txt"
same "$WORK/replay.txt" "$V/replay.txt" "replay: trees per thread, durations, arguments, custom event, C++ names demangled, lost entries and open calls marked (bytes)"
"$FDRLOG" replay $SYM -F work --depth 2 "$LOG" >"$WORK/replay-F.txt"
same "$WORK/replay-F.txt" "$V/replay-F-work-depth2.txt" "replay -F work --depth 2: only work's subtrees, two levels (bytes)"
"$FDRLOG" replay $SYM -N work -N '#6' "$LOG" >"$WORK/replay-N.txt"
same "$WORK/replay-N.txt" "$V/replay-N-work.txt" "replay -N work -N '#6': those calls and their callees left out (bytes)"
"$FDRLOG" replay --depth 1 "$LOG" >"$WORK/replay-ids.txt"
same "$WORK/replay-ids.txt" "$V/replay-ids-depth1.txt" "replay without names: #id; --depth 1 shows top-level calls as leaves (bytes)"
"$FDRLOG" replay $SYM -F 'void ns::bar<int>(int)' "$LOG" | grep -q 'ns::bar<int>();'
check $? "replay -F takes the full demangled symbol too"
expect 2 "fdr replay: -F wrok: no function of the log matches; close matches: work" \
	"replay -F of a name no function of the log has: exit 2, the close matches named" -- \
	"$FDRLOG" replay $SYM -F wrok "$LOG"
[ ! -s "$WORK/out" ]
check $? "... and nothing on standard output"
expect 2 "depth 0: expected a number" "replay --depth 0 is a usage error" -- "$FDRLOG" replay --depth 0 "$LOG"
expect 1 "views.xray.missing" "replay of a missing log names it" -- "$FDRLOG" replay "$LOG.missing"

# ---- graph (fdr graph; views/graph*.txt: the log's path is WORK) ----
graph_same() {
	want=$1 what=$2
	shift 2
	"$FDRLOG" graph $SYM "$@" "$LOG" | sed "s|$WORK|WORK|" >"$WORK/graph.txt"
	same "$WORK/graph.txt" "$V/$want" "$what"
}
graph_same graph.txt "graph: every thread's calls merged by path under the program, uftrace's layout (bytes)"
graph_same graph-leaf.txt "graph leaf: its two backtraces (hits, time), then its graph (bytes)" leaf
graph_same graph-tid102-N-leaf.txt "graph --tid 102 -N leaf: the filters' calls only (bytes)" --tid 102 -N leaf
expect 2 "fdr graph: -F wrok: no function of the log matches; close matches: work" \
	"graph FUNC naming no function: exit 2, close matches" -- "$FDRLOG" graph $SYM wrok "$LOG"
expect 2 "expected at most FUNC and one DIR or LOG" "graph: a third operand is a usage error" -- \
	"$FDRLOG" graph work "$LOG" "$LOG"

# ---- flame ----
rm -f "$WORK/flame.svg"
"$FDRLOG" flame $SYM -o "$WORK/flame.svg" "$LOG" &&
	python3 "$HERE/check_flame.py" "$WORK/flame.svg" "$V/flame.expect"
check $? "flame -o: well-formed self-contained SVG, frames merged by path, widths = 1180 px x time / total, callees on their callers"
"$FDRLOG" flame $SYM "$LOG" | cmp -s - "$WORK/flame.svg"
check $? "flame to stdout: the same bytes as -o"
"$FDRLOG" flame $SYM -F work "$LOG" >"$WORK/flame-F.svg" &&
	printf '%s\n' "all 2800 0" "work 2800 3" "leaf 900 4" >"$WORK/flame-F.expect" &&
	python3 "$HERE/check_flame.py" "$WORK/flame-F.svg" "$WORK/flame-F.expect"
check $? "flame -F work: only work's calls, merged over both threads"
"$FDRLOG" flame $SYM -N leaf -N parse "$LOG" >"$WORK/flame-N.svg" &&
	! grep -q '<title>leaf' "$WORK/flame-N.svg" &&
	python3 "$HERE/check_flame.py" "$WORK/flame-N.svg"
check $? "flame -N: the frames left out, the callers keep their whole width"
grep -q 'ns::bar&lt;int&gt;' "$WORK/flame.svg"
check $? "flame: names escaped for XML"
printf '1\ta&b"<\377\001>x_long_name_that_is_cut_in_its_label_somewhere_past_here_and_on_and_on_and_on\t/m\t10\n' >"$WORK/hostile.symmap"
"$FDRLOG" flame --sym-map "$WORK/hostile.symmap" "$LOG" >"$WORK/hostile.svg" &&
	python3 "$HERE/check_flame.py" "$WORK/hostile.svg"
check $? "flame: a hostile name (markup, a byte that is not UTF-8, a control byte) still gives well-formed XML"
expect 1 "cannot create $WORK/nodir/f.svg.tmp" "flame -o into a missing directory is named" -- \
	"$FDRLOG" flame -o "$WORK/nodir/f.svg" "$LOG"
[ -z "$(ls "$WORK" | grep 'svg.tmp')" ]
check $? "a failed flame leaves no temporary file"

# ---- the export for llvm-xray ----
XRAY=${LLVM_XRAY:-$(command -v llvm-xray-19 || true)}
for l in views unwound; do
	"$FDRLOG" convert --for-llvm-xray "$WORK/$l.xray" >"$WORK/export-$l.yaml" 2>"$WORK/export-$l.err"
	same "$WORK/export-$l.yaml" "$V/export-$l.yaml" "--for-llvm-xray of $l.xray: sorted, lost entries and exits added and marked (bytes)"
done
grep -q "added 2 Enter records (data fdr-entry-lost) and 0 Exit records" "$WORK/export-views.err" &&
	grep -q "added 1 Enter records (data fdr-entry-lost) and 2 Exit records" "$WORK/export-unwound.err"
check $? "--for-llvm-xray says on stderr how many records it added"
"$FDRLOG" convert --for-llvm-xray "$WORK/clean.xray" 2>"$WORK/err" | grep -v '^  version:' >"$WORK/export-clean.yaml"
"$FDRLOG" convert --format yaml "$WORK/clean.xray" | grep -v '^  version:' | cmp -s - "$WORK/export-clean.yaml" &&
	[ ! -s "$WORK/err" ] && grep -q '^  version:         1$' "$V/export-views.yaml"
check $? "--for-llvm-xray of a log that lost nothing: convert --format yaml's bytes but 'version: 1', and silent"
expect 2 "not with --format chrome" "--for-llvm-xray with --format chrome is a usage error" -- \
	"$FDRLOG" convert --for-llvm-xray --format chrome "$LOG"
if [ -n "$XRAY" ]; then
	! "$XRAY" account "$WORK/views.xray" >/dev/null 2>&1 &&
		! "$XRAY" account -d "$WORK/unwound.xray" >/dev/null 2>&1
	check $? "llvm-xray-19 account rejects both logs as they are (the unwound one with -d too)"
	"$XRAY" account "$WORK/export-views.yaml" 2>/dev/null | awk '/^ +[0-9]+ +[0-9]+ \[/ { print $1, $2 }' >"$WORK/acct"
	printf '1 1\n2 1\n3 3\n4 4\n5 1\n6 1\n' | cmp -s - "$WORK/acct"
	check $? "llvm-xray-19 account reads the export: every call counted, the ones with a lost entry too"
	"$XRAY" account "$WORK/export-unwound.yaml" >/dev/null 2>&1
	check $? "llvm-xray-19 account (no -d) reads the export of the unwound log"
else
	ok "llvm-xray-19 reads the exports # SKIP llvm-xray-19 not installed"
fi

echo "1..$n"
[ $failed = 0 ]
