#!/bin/bash
# SPDX-License-Identifier: MIT
# fdr_test.sh BUILD - host tests of fdr record/report/convert and fdr-cc
# on the embedded backend (TAP on stdout).  Every program is built by
# fdr-cc/fdr-c++ here, so the wrappers are tested by the same runs.
# Every record has --no-libcall: the checks count the programs' own
# functions; their library calls (on by default) are libcall_test.sh's.
set -u
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
B=$BUILD/bin
FDR=$B/fdr
T=$(mktemp -d /tmp/fdr-test.XXXXXX)
MNT=
cleanup() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
check() { local name=$1; shift; if "$@" >"$T/check.out" 2>&1; then ok "$name"; else nok "$name" "$(head -c 2000 "$T/check.out")"; fi; }

# calls of FUNC in `fdr report --json` output FILE (0 if absent)
calls() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(sum(f["calls"] for f in d["functions"] if f["name"]==sys.argv[2]))' "$1" "$2"
}
# "name=calls ..." of every function, sorted by name
profile() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(" ".join("%s=%d" % (f["name"], f["calls"]) for f in sorted(d["functions"], key=lambda f: f["name"])))' "$1"
}
expect_profile() { # name dir expected [report args]
	local name=$1 dir=$2 want=$3; shift 3
	"$FDR" report --json "$@" ${dir:+"$dir"} >"$T/r.json" 2>"$T/r.err"
	local got; got=$(profile "$T/r.json" 2>/dev/null)
	if [ "$got" = "$want" ]; then ok "$name"; else nok "$name" "want: $want" "got:  $got" "$(cat "$T/r.err")"; fi
}
no_leftovers() { # name parent dir: no DIR, no staging directory
	if [ ! -e "$2/$3" ] && ! ls -a "$2" | grep -q "^\.$3\.tmp-"; then ok "$1"; else nok "$1" "$(ls -a "$2")"; fi
}

cd "$T" || exit 1
cp "$HERE/traced.c" .
# Regions other runs left before this test began (a recorder killed by
# SIGKILL cannot remove its own): not this test's to answer for.
shm_before=$(ls /dev/shm/fdr-record.* 2>/dev/null)

# ---- fdr-cc and fdr-c++ ----
check "fdr-cc: compile and link in one step (XRay)" "$B/fdr-cc" -O2 -g -o traced traced.c
check "fdr-cc: compile only adds no link flags (-c)" "$B/fdr-cc" -O2 -g -c -o traced.o traced.c
check "fdr-cc: link separately compiled objects" "$B/fdr-cc" -o traced_sep traced.o
check "fdr-cc: static link" "$B/fdr-cc" -static -O2 -o traced_static traced.c
check "fdr-cc --gcc: -finstrument-functions hooks" "$B/fdr-cc" --gcc -O1 -g -o traced_gcc traced.c
check "FDR_CC=gcc: static link" env FDR_CC=gcc "$B/fdr-cc" -static -O1 -o traced_gcc_static traced.c
cat > lib.c <<'X'
__attribute__((noinline)) int lib_twice(int x) { return 2 * x; }
X
cat > uselib.c <<'X'
int lib_twice(int);
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += lib_twice(i); return s == 6 ? 0 : 1; }
X
check "fdr-cc --gcc -shared: a library" "$B/fdr-cc" --gcc -O1 -fPIC -shared -o libtw.so lib.c
check "fdr-cc --gcc: a program linking it" "$B/fdr-cc" --gcc -O1 -o uselib uselib.c -L. -ltw -Wl,-rpath,"$T"
check "fdr-cc -shared (XRay): a library" "$B/fdr-cc" -O1 -fPIC -shared -o libtwx.so lib.c
[ ! -s check.out ] && ok "fdr-cc -shared (XRay): no warning (fdr patches a library's sleds)" \
	|| nok "fdr-cc -shared (XRay): no warning (fdr patches a library's sleds)" "$(cat check.out)"
"$B/fdr-cc" --gcc -O1 -fPIC -shared -o libtw2.so lib.c 2>gcc-shared.err && [ ! -s gcc-shared.err ] \
	&& ok "fdr-cc --gcc -shared: no warning" || nok "fdr-cc --gcc -shared: no warning" "$(cat gcc-shared.err)"
check "fdr-cc (XRay): a program linking it" "$B/fdr-cc" -O1 -o uselibx uselib.c -L. -ltwx -Wl,-rpath,"$T"
cat > cxx.cc <<'X'
namespace shapes { struct Sq { int s; __attribute__((noinline)) int area() const { return s * s; } }; }
__attribute__((noinline)) int total(int n) { int t = 0; for (int i = 0; i < n; i++) t += shapes::Sq{i}.area(); return t; }
int main() { return total(3) == 5 ? 0 : 1; }
X
check "fdr-c++: a C++ program (XRay)" "$B/fdr-c++" -O1 -o cxx cxx.cc
check "fdr-c++ --gcc: a C++ program" "$B/fdr-c++" --gcc -O1 -o cxx_gcc cxx.cc
mkdir proj && cp traced.c proj/ && printf 'traced: traced.o\n\t$(CC) $(LDFLAGS) -o $@ traced.o -lpthread\n' >proj/Makefile
check "make CC=fdr-cc: a project's own Makefile (implicit .c.o rule, separate link)" make -s -C proj CC="$B/fdr-cc" CFLAGS=-O2
"$FDR" record --no-libcall -o projd -t 0 -- proj/traced calls 2>/dev/null
expect_profile "make CC=fdr-cc: the program records" projd "leaf=12 main=1 middle=4 work=1"
check "fdr-cc: source on standard input (-x c -)" sh -c "'$B/fdr-cc' -x c -o stdin_prog - <traced.c && '$FDR' record -o stdind -t 0 -- ./stdin_prog calls 2>/dev/null"
mkdir libdir && cp "$BUILD/adapters/libfdr-xray-objs.a" "$BUILD/adapters/libfdr-xray-preinit.a" "$BUILD/adapters/libfdr-cyg.a" "$BUILD/lib/libfdr.a" libdir/
check "fdr-cc with FDR_LIBDIR (a copied tree)" env FDR_LIBDIR="$T/libdir" "$B/fdr-cc" -O2 -o traced_libdir traced.c
env FDR_LIBDIR="$T/nowhere" "$B/fdr-cc" -o x traced.c 2>e.err; rc=$?
[ $rc != 0 ] && grep -q 'libfdr-xray-objs.a is missing.*FDR_LIBDIR' e.err && ok "fdr-cc: a missing library is named" || nok "fdr-cc: a missing library is named" "$(cat e.err)"
if nm traced.o | grep -q fdr_xray_mode_link || ! readelf -S traced.o | grep -q xray_instr_map; then
	nok "fdr-cc -c: instrumented object without the mode"
else ok "fdr-cc -c: instrumented object without the mode"; fi

# ---- record and report ----
CALLS="leaf=12 main=1 middle=4 work=1"
"$FDR" record --no-libcall -t 0 -- ./traced calls 2>rec.err; rc=$?
[ $rc = 0 ] && [ -f fdr.data/log.xray ] && [ -f fdr.data/info ] && [ -f fdr.data/log.xray.threads ] \
	&& ok "record: exit 0, fdr.data/ with log, side table and info" \
	|| nok "record: exit 0, fdr.data/ with log, side table and info" "rc=$rc" "$(cat rec.err)"
grep -q "^fdr record: $T/fdr.data/log.xray: 39 records, 1 thread, 0 buffers recycled, 0 dropped (private embedded region)\$" rec.err \
	&& ok "record: one summary line" || nok "record: one summary line" "$(cat rec.err)"
check "record: fdrlog verify accepts the log" "$B/fdrlog" verify fdr.data/log.xray
[ ! -e fdr.data/log.xray.sched ] && ok "record: no .sched from an embedded region (no kernel)" ||
	nok "record: no .sched from an embedded region (no kernel)" "$(ls fdr.data)"
"$FDR" record --no-libcall --no-sched -o nosched -t 0 -- ./traced calls 2>ns.err; rc=$?
[ $rc = 0 ] && [ -f nosched/log.xray ] && [ -f nosched/log.xray.threads ] && [ ! -e nosched/log.xray.sched ] &&
	grep -q ": 39 records, 1 thread," ns.err && ok "record --no-sched: the same log, no .sched" ||
	nok "record --no-sched: the same log, no .sched" "rc=$rc" "$(cat ns.err)"
"$FDR" record --no-libcall --no-sched=1 -o nosched2 -- ./traced calls 2>ns.err; rc=$?
[ $rc = 2 ] && [ ! -e nosched2 ] && "$FDR" record --no-libcall --help | grep -q -- '--no-sched' &&
	ok "record --no-sched takes no value; --help names it" ||
	nok "record --no-sched takes no value; --help names it" "rc=$rc" "$(cat ns.err)"
got=$("$B/fdrlog" dump fdr.data/log.xray | grep -c 'Function ')
[ "$got" = 36 ] && ok "record: 36 function records (18 calls)" || nok "record: 36 function records (18 calls)" "got $got"
# the reading commands fdrlog had, on fdr.data by default (issue 37)
"$FDR" dump >dump.dir 2>&1 && "$B/fdrlog" dump fdr.data/log.xray | cmp -s - dump.dir &&
	[ "$("$FDR" verify)" = "fdr.data/log.xray: ok (FDR version 2)" ]
check "dump, verify: fdr.data by default, the bytes of fdrlog dump LOG" test $? = 0
"$FDR" graph >graph.txt 2>&1 &&
	sed 's/^ *[0-9.]* [um]s : //' graph.txt | sed -n 4,8p | tr '\n' ' ' >graph.shape &&
	[ "$(cat graph.shape)" = "(1) traced (1) main (1) work (4) middle (12) leaf " ]
check "graph: the program's calls by path, counts and names (uftrace graph)" test $? = 0
"$FDR" graph leaf >graph.txt 2>&1 && grep -qx ' backtrace #0: hit 12, time .* us' graph.txt &&
	grep -A4 '^ backtrace #0' graph.txt | sed -n 2,5p | tr -s ' \n' ' ' >graph.shape &&
	[ "$(cat graph.shape)" = " [0] main [1] work [2] middle [3] leaf " ] &&
	tail -n 1 graph.txt | grep -q ' : (12) leaf$'
check "graph leaf: its one backtrace (12 hits), then its graph" test $? = 0
"$FDR" graph leaf fdr.data extra >/dev/null 2>graph.err; rc=$?
[ $rc = 2 ] && grep -q '^fdr graph: expected at most FUNC and one DIR or LOG' graph.err
check "graph: a third operand is a usage error naming fdr graph" test $? = 0
if command -v llvm-xray-19 >/dev/null; then
	check "record: llvm-xray-19 fdr-dump --verify accepts the log" llvm-xray-19 fdr-dump --verify fdr.data/log.xray
fi
expect_profile "report --json: call counts of the program" fdr.data "$CALLS"
expect_profile "report: fdr.data is the default" "" "$CALLS" 2>/dev/null || true
"$FDR" report >rep.txt 2>&1
grep -qE '^ +[0-9.]+ [nmu]?s +[0-9.]+ [nmu]?s +12  leaf$' rep.txt && ok "report: text table, names resolved" \
	|| nok "report: text table, names resolved" "$(cat rep.txt)"
"$FDR" report --sort name --json >r.json; names=$(python3 -c 'import json;print(" ".join(f["name"] for f in json.load(open("r.json"))["functions"]))')
[ "$names" = "leaf main middle work" ] && ok "report --sort name" || nok "report --sort name" "$names"
"$FDR" report --sort blocked >/dev/null 2>e.err; rc=$?
[ $rc = 1 ] && grep -q -- '--sort on-cpu, runnable and blocked need the kernel.s scheduling data: no scheduling data was recorded (no usable LOG.sched: the embedded backend' e.err &&
	ok "report --sort blocked without scheduling data: says what it needs" ||
	nok "report --sort blocked without scheduling data: says what it needs" "rc=$rc" "$(cat e.err)"
python3 - r.json <<'X' && ok "report --json: total >= self, ns, ids" || nok "report --json: total >= self, ns, ids"
import json, sys
d = json.load(open(sys.argv[1]))
assert all(f["total_ns"] >= f["self_ns"] >= 0 and f["id"] > 0 for f in d["functions"])
m = {f["name"]: f for f in d["functions"]}
assert m["main"]["total_ns"] >= m["work"]["total_ns"] >= m["middle"]["total_ns"]
X
expect_profile "report -F middle: middle and what it calls" fdr.data "leaf=12 middle=4" -F middle
expect_profile "report -N middle: all but middle and its callees" fdr.data "main=1 work=1" -N middle
expect_profile "report --depth 2" fdr.data "main=1 work=1" --depth 2
expect_profile "report -F work --depth 2" fdr.data "middle=4 work=1" -F work --depth 2
# uftrace's filter language, one parser for report, replay, flame, convert
expect_profile "report -F '^mid': a regular expression, as uftrace" fdr.data "leaf=12 middle=4" -F '^mid'
expect_profile "report --match glob -F 'mid*'" fdr.data "leaf=12 middle=4" --match glob -F 'mid*'
expect_profile "report -N middle -F middle: the later option wins" fdr.data "leaf=12 middle=4" -N middle -F middle
expect_profile "report -C leaf: leaf's callers, leaf a leaf" fdr.data "leaf=12 main=1 middle=4 work=1" -C leaf
expect_profile "report -t 1h: -t is uftrace's time filter (no call that long)" fdr.data "" -t 1h
for c in replay report flame convert; do
	case $c in
	replay|report) "$FDR" $c -F midle fdr.data >filt.out 2>filt.err; rc=$?; rm -f filt.out ;;
	flame) "$FDR" flame -F midle -o filt.out fdr.data 2>filt.err; rc=$? ;;
	convert) "$FDR" convert --format chrome -F midle -o filt.out fdr.data 2>filt.err; rc=$? ;;
	esac
	[ $rc = 2 ] && grep -q -- "-F midle: no function of the log matches; close matches: middle" filt.err &&
		[ ! -e filt.out ] && ok "$c -F midle: exit 2, names the close match, writes nothing" ||
		nok "$c -F midle: exit 2, names the close match, writes nothing" "rc=$rc" "$(cat filt.err)"
done
"$FDR" record --no-libcall -T 'main@trace_off' -o trig.data -- ./traced calls 2>trig.err; rc=$?
[ $rc = 2 ] && [ ! -e trig.data ] && grep -q "not at record time yet" trig.err &&
	ok "record -T: not there at record time: a clear usage error" ||
	nok "record -T: not there at record time: a clear usage error" "rc=$rc" "$(cat trig.err)"
"$FDR" record --no-libcall -o fdr.data -t 0 -- ./traced calls 2>/dev/null
[ "$(ls -A fdr.data | sort | tr '\n' ' ')" = "fdr-syms.xray.map info log.xray log.xray.threads " ] \
	&& ok "record: a second run replaces the data directory" || nok "record: a second run replaces the data directory" "$(ls -A fdr.data)"
"$FDR" record --no-libcall -o defthr -- ./traced calls 2>/dev/null
grep -q "^threshold_us	default" defthr/info && ok "record: default threshold noted in info" || nok "record: default threshold noted in info"
# ---- the threshold in the report's header (issue 34) ----
# Whether it dropped anything is not recorded (libfdr counts no rewinds), so
# the header says it whenever the threshold could: > 0 (reader.md).
THR_NOTE="# calls shorter than 5 us were not recorded (fdr record's threshold): fdr record --threshold 0 keeps every call"
thr_json() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["threshold_us"])' "$1"; }
"$FDR" report defthr >thr.txt 2>/dev/null; "$FDR" report --json defthr >thr.json 2>/dev/null
[ "$(head -1 thr.txt)" = "$THR_NOTE" ] && [ "$(grep -c 'were not recorded' thr.txt)" = 1 ] && [ "$(thr_json thr.json)" = 5 ] &&
	ok "report, default threshold: the header's first line says calls under 5 us were not recorded and how to keep them; JSON threshold_us 5" ||
	nok "report, default threshold: the header's first line says calls under 5 us were not recorded and how to keep them; JSON threshold_us 5" "$(head -2 thr.txt)" "$(thr_json thr.json)"
"$FDR" report fdr.data >thr0.txt 2>/dev/null; "$FDR" report --json fdr.data >thr0.json 2>/dev/null
! grep -q "were not recorded" thr0.txt && [ "$(thr_json thr0.json)" = 0 ] &&
	ok "report, --threshold 0: no such line; JSON threshold_us 0" || nok "report, --threshold 0: no such line; JSON threshold_us 0" "$(head -2 thr0.txt)"
"$FDR" record --no-libcall -o thr20 -t 20us -- ./traced calls 2>/dev/null
"$FDR" report thr20 2>/dev/null | head -1 | grep -qx "# calls shorter than 20 us were not recorded (fdr record's threshold): fdr record --threshold 0 keeps every call" &&
	ok "report, --threshold 20us: the header says 20 us" || nok "report, --threshold 20us: the header says 20 us" "$("$FDR" report thr20 2>&1 | head -2)"
mkdir bare && cp defthr/log.xray bare/
"$FDR" report bare/log.xray >thrb.txt 2>/dev/null; "$FDR" report --json bare/log.xray >thrb.json 2>/dev/null
! grep -q "were not recorded" thrb.txt && [ "$(thr_json thrb.json)" = None ] &&
	ok "report of a log without DIR/info: the threshold is not known, no line; JSON null" ||
	nok "report of a log without DIR/info: the threshold is not known, no line; JSON null" "$(head -2 thrb.txt)"
FDR_OPTIONS=func_duration_threshold_us=0 "$FDR" record --no-libcall -o envthr -- ./traced calls 2>/dev/null
"$FDR" report --json envthr >envthr.json 2>/dev/null
grep -qx "threshold_us	FDR_OPTIONS" envthr/info && ! "$FDR" report envthr 2>/dev/null | grep -q "were not recorded" &&
	[ "$(calls envthr.json leaf)" = 12 ] && [ "$(thr_json envthr.json)" = None ] &&
	ok "record without --threshold, \$FDR_OPTIONS names one: info says so, report claims no threshold (leaf 12)" ||
	nok "record without --threshold, \$FDR_OPTIONS names one: info says so, report claims no threshold (leaf 12)" "$(cat envthr/info)"

# ---- record -F/-N: only the named sleds are patched ----
"$FDR" record --no-libcall -o flt -t 0 -F middle -- ./traced calls 2>/dev/null
expect_profile "record -F middle: only middle is recorded" flt "middle=4"
"$FDR" record --no-libcall -o flt -t 0 -F leaf -F '#1' -- ./traced calls 2>/dev/null
expect_profile "record -F by name and by #id" flt "leaf=12 main=1"
"$FDR" record --no-libcall -o flt -t 0 -N leaf -N main -- ./traced calls 2>/dev/null
expect_profile "record -N leaf -N main: all but those" flt "middle=4 work=1"
"$FDR" record --no-libcall -o e5 -F nosuch -- ./traced 2>e.err; rc=$?
[ $rc = 125 ] && grep -q -- '-F nosuch: no such function' e.err && [ ! -e e5 ] \
	&& ok "record -F with an unknown name: error, no data directory" || nok "record -F with an unknown name: error, no data directory" "rc=$rc" "$(cat e.err)"
"$FDR" record --no-libcall -o e6 -F midle -- ./traced 2>e.err; rc=$?
[ $rc = 125 ] && grep -q -- "-F midle: no such function in the program's XRay instrumentation map\( nor in its shared libraries'\)\?; close matches: middle" e.err &&
	[ ! -e e6 ] && ok "record -F midle: the close matches named, as the reading commands name them" ||
	nok "record -F midle: the close matches named, as the reading commands name them" "rc=$rc" "$(cat e.err)"
"$FDR" record --no-libcall -o e6 -F leaf -- ./traced_gcc 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'need a program built with fdr-cc' e.err && ok "record -F on a --gcc build: says it needs XRay" \
	|| nok "record -F on a --gcc build: says it needs XRay" "rc=$rc" "$(cat e.err)"

# ---- convert ----
check "convert --format chrome: JSON with names" sh -c \
	"'$FDR' convert --format chrome -o t.json && python3 -c 'import json; e=json.load(open(\"t.json\"))[\"traceEvents\"]; assert sum(1 for x in e if x.get(\"name\")==\"leaf\" and x[\"ph\"]==\"B\")==12'"
check "convert --format yaml: names as llvm-xray -y" sh -c "'$FDR' convert --format yaml | grep -c 'function: leaf' | grep -qx 24"

# ---- replay, flame ----
check "replay: the call tree with names, every leaf call" sh -c "'$FDR' replay | grep -c '| *leaf();\$' | grep -qx 12"
check "replay -F middle --depth 1: the 4 middle calls only" sh -c \
	"'$FDR' replay -F middle --depth 1 >r.txt && [ \$(grep -c 'middle();\$' r.txt) = 4 ] && ! grep -q leaf r.txt"
check "flame -o: a well-formed SVG with leaf's 12 calls" sh -c \
	"'$FDR' flame -o f.svg && python3 -c 'import xml.dom.minidom as m; t=[e.firstChild.data for e in m.parse(\"f.svg\").getElementsByTagName(\"title\")]; assert any(x.startswith(\"leaf (\") and \" 12 calls\" in x for x in t), t'"
# 3000 levels: the indentation stops at 256 (512 columns), in linear time
"$FDR" record --no-libcall -o deep -t 0 -- ./traced deep 3000 >/dev/null 2>&1
"$FDR" replay deep >deep.txt 2>&1
opens=$(grep -c '| *deep() {$' deep.txt) inner=$(grep -c '| *deep();$' deep.txt)
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' deep.txt)
col=$(sed -n 's/^.*] | \( *\)deep();$/\1/p' deep.txt | awk '{ print length($0) }')
[ "$opens" = 3000 ] && [ "$inner" = 1 ] && [ "$col" = 512 ] && [ "$longest" -le 560 ] &&
	ok "replay of a 3000-deep recursion: every call, indentation at most 256 levels" ||
	nok "replay of a 3000-deep recursion: every call, indentation at most 256 levels" \
		"opens=$opens inner=$inner col=$col longest=$longest" "$(head -c 600 deep.txt)"
"$FDR" replay -o x >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && [ ! -e x ] && ok "replay -o: usage error, exit 2" || nok "replay -o: usage error, exit 2" "rc=$rc"

# ---- exit status ----
"$FDR" record --no-libcall -o st -t 0 -- ./traced exit 3 2>/dev/null; rc=$?
[ $rc = 3 ] && ok "exit status: PROG's exit code (3)" || nok "exit status: PROG's exit code (3)" "rc=$rc"
"$FDR" record --no-libcall -o st -t 0 -- ./traced signal 15 2>st.err; rc=$?
[ $rc = 143 ] && grep -q 'killed by SIGTERM' st.err && ok "exit status: signal 15 gives 143" || nok "exit status: signal 15 gives 143" "rc=$rc"
"$FDR" record --no-libcall -o st -t 0 -- ./traced signal 9 2>/dev/null; rc=$?
[ $rc = 137 ] && ok "exit status: SIGKILL gives 137" || nok "exit status: SIGKILL gives 137" "rc=$rc"
expect_profile "SIGKILL: the calls before it are in the log" st "leaf=12 middle=4 work=1"

# ---- crash ----
"$FDR" record --no-libcall -o crash -t 0 -- ./traced segv 2>/dev/null; rc=$?
[ $rc = 139 ] && ok "crash: SIGSEGV gives 139" || nok "crash: SIGSEGV gives 139" "rc=$rc"
last=$("$FDR" convert --format yaml --no-sort crash | grep 'kind: function-' | tail -1)
echo "$last" | grep -q 'function: crash_here,.*kind: function-enter' && ok "crash: the thread's last record is the Enter of crash_here" \
	|| nok "crash: the thread's last record is the Enter of crash_here" "$last"
expect_profile "crash: the completed calls are counted" crash "leaf=12 middle=4 work=1"

# ---- fdr info: what was recorded (as uftrace info) ----
# info_row DIR NAME: the value of "# NAME : value" in fdr info's output
info_row() { "$FDR" info "$1" 2>/dev/null | sed -n "s/^# $2 *: //p"; }
"$FDR" record --no-libcall -o inf -t 0 -- ./traced sleep 300 2>/dev/null
el=$(info_row inf "elapsed time")
check "info: the command line as given, the program, its build-id and tasks" sh -c \
	"'$FDR' info inf >info.txt && grep -qx '# cmdline *: fdr record --no-libcall -o inf -t 0 -- ./traced sleep 300' info.txt &&
	 grep -qx '# exe image *: $T/traced' info.txt &&
	 grep -qx \"# build id *: \$(readelf -n traced | sed -n 's/.*Build ID: //p')\" info.txt &&
	 grep -qx '# number of tasks *: 1' info.txt && grep -q '^# task list *: [0-9]*(traced)\$' info.txt"
[ "$(info_row inf 'exit status')" = "exited with code: 0" ] && awk -v e="${el% sec}" 'BEGIN { exit !(e >= 0.3 && e < 60) }' &&
	ok "info: exit code 0, elapsed time covers the program's 300 ms sleep ($el)" ||
	nok "info: exit code 0, elapsed time covers the program's 300 ms sleep" "$(cat info.txt)"
check "info: the machine (kernel as uname, host, CPUs, distribution)" sh -c \
	"grep -qx \"# kernel version *: \$(uname -srvm)\" info.txt && grep -qx \"# hostname *: \$(hostname)\" info.txt &&
	 grep -q \"^# cpu info *: .* (\$(getconf _NPROCESSORS_ONLN) online)\$\" info.txt &&
	 grep -q \"^# distro *: \$(. /etc/os-release; echo \"\$PRETTY_NAME\")\$\" info.txt"
check "info: the recording (backend, mode, threshold 0, records as the summary counted, how it ended)" sh -c \
	"grep -qx '# backend *: a private embedded region' info.txt && grep -q '^# mode *: flight recorder' info.txt &&
	 grep -qx '# threshold *: 0 (every call kept)' info.txt &&
	 grep -qx \"# records *: \$(sed -n 's/^buffers.*records\t//p' inf/log.xray.threads) in 1 thread(s)\" info.txt &&
	 grep -qx '# finalized by *: fdr record, after the program.s last process ended' info.txt &&
	 grep -q '^# TSC rate *: [0-9.]* GHz\$' info.txt"
[ "$(info_row st 'exit status')" = "terminated by SIGKILL" ] && [ "$(info_row crash 'exit status')" = "terminated by SIGSEGV" ] &&
	ok "info: a killed and a crashed program's status" || nok "info: a killed and a crashed program's status" "$(info_row st 'exit status') / $(info_row crash 'exit status')"
"$FDR" info inf extra >/dev/null 2>info.err; rc=$?
[ $rc = 2 ] && grep -q '^fdr info: expected at most one DIR or LOG' info.err
check "info: two operands are a usage error (dump's parser)" test $? = 0
"$FDR" info nosuchdir >/dev/null 2>info.err; rc=$?
[ $rc = 1 ] && grep -q nosuchdir info.err && ok "info: a missing directory is named, exit 1" || nok "info: a missing directory is named, exit 1" "rc=$rc $(cat info.err)"
mkdir -p bare && cp inf/log.xray bare/ && "$FDR" info bare >/dev/null 2>info.err; rc=$?
[ $rc = 1 ] && grep -q 'has no info file' info.err && ok "info: a directory without info says so, exit 1" || nok "info: a directory without info says so, exit 1" "rc=$rc $(cat info.err)"
mkdir -p old && cp inf/log.xray* old/ &&
	grep -v '^\(hostname\|cpu\|kernel\|distro\|exit\|elapsed_ns\|region\|records\|finalize\)	' inf/info >old/info
check "info: an older directory's missing facts show as -" sh -c \
	"'$FDR' info old >old.txt && grep -qx '# hostname *: -' old.txt && grep -qx '# exit status *: -' old.txt && grep -qx '# buffers *: -' old.txt"

# ---- fork, exec, threads ----
"$FDR" record --no-libcall -o fork -t 0 -- ./traced fork-outlive 2>/dev/null
expect_profile "fork: a child outliving PROG by 100 ms is in the log" fork "child_late=5 leaf=12 main=1 middle=4 work=1"
[ "$(grep -c '^thread' fork/log.xray.threads)" = 2 ] && ok "fork: two threads (parent, child) in the side table" \
	|| nok "fork: two threads (parent, child) in the side table" "$(cat fork/log.xray.threads)"
"$FDR" record --no-libcall -o exec -t 0 -- ./traced exec 2>/dev/null
expect_profile "exec: the exec'ed instrumented program is in the log" exec "leaf=24 main=1 middle=8 work=2"
"$FDR" record --no-libcall -o execother -t 0 -- ./traced exec "$T/cxx" 2>/dev/null
"$FDR" report execother >execother.txt 2>execother.err
# its own names (issue 33 part 4; exec_test.sh checks the other ways)
! grep -q "warning" execother.err && [ "$(grep -c '^thread' execother/log.xray.threads)" = 2 ] &&
	grep -q ' 3  shapes::Sq::area() const$' execother.txt && grep -q ' 1  total(int)$' execother.txt &&
	grep -q ' 12  leaf$' execother.txt &&
	ok "exec of another program: the side table has a row per program, each named with its own functions" ||
	nok "exec of another program: the side table has a row per program, each named with its own functions" \
		"$(cat execother.txt execother.err execother/log.xray.threads)"
"$FDR" report exec >exec.txt 2>exec.err
# the embedded backend records no context switches: a report without the
# columns says nothing of it (replay's header and --sort on-cpu do)
[ ! -s exec.err ] && ! grep -q "scheduling" exec.txt &&
	ok "exec of the same program: no warning, and no word of scheduling data in a report" ||
	nok "exec of the same program: no warning, and no word of scheduling data in a report" "$(cat exec.err exec.txt)"
"$FDR" replay exec >exec-replay.txt 2>exec.err
[ "$(head -1 exec-replay.txt)" = "# no scheduling data was recorded (no usable LOG.sched: the embedded backend, --no-sched, or an older fdrd): time off CPU is in the durations, unmarked" ] &&
	[ "$(sed -n 2p exec-replay.txt)" = "# DURATION     TID     FUNCTION" ] && [ ! -s exec.err ] &&
	ok "replay on the embedded backend: the header's first line says no scheduling data was recorded" ||
	nok "replay on the embedded backend: the header's first line says no scheduling data was recorded" "$(head -3 exec-replay.txt)" "$(cat exec.err)"
"$FDR" record --no-libcall -o thr -t 0 -- ./traced threads 2>/dev/null
expect_profile "threads: 4 threads' calls" thr "leaf=40 main=1 thread_body=4 threads=1"
[ "$(grep -c '^thread' thr/log.xray.threads)" = 5 ] && ok "threads: 5 threads in the side table" || nok "threads: 5 threads in the side table"
tid=$(awk -F'\t' '$1=="thread" {t=$2} END {print t}' thr/log.xray.threads)
expect_profile "report --tid: one thread's calls" thr "leaf=10 thread_body=1" --tid "$tid"
check "replay --tid: one thread's calls (the option every reading command takes)" sh -c \
	"'$FDR' replay --tid $tid thr >tid.txt && [ \$(grep -c '| *leaf();\$' tid.txt) = 10 ] && [ \$(grep -c '^# thread' tid.txt) = 1 ]"

# ---- GCC hooks, shared library, C++ ----
"$FDR" record --no-libcall -o gcc -t 0 -- ./traced_gcc calls 2>/dev/null
expect_profile "--gcc program: counts and names from the sym-maps" gcc "$CALLS"
"$FDR" record --no-libcall -o gccs -t 0 -- ./traced_gcc_static threads 2>/dev/null
expect_profile "FDR_CC=gcc static program, threads" gccs "leaf=40 main=1 thread_body=4 threads=1"
"$FDR" record --no-libcall -o sep -t 0 -- ./traced_sep calls 2>/dev/null
expect_profile "separately linked program" sep "$CALLS"
"$FDR" record --no-libcall -o stat -t 0 -- ./traced_static calls 2>/dev/null
expect_profile "static program" stat "$CALLS"
"$FDR" record --no-libcall -o lib -t 0 -- ./uselib 2>/dev/null
expect_profile "--gcc shared library: its function named in the report" lib "lib_twice=3 main=1"
"$FDR" record --no-libcall -o libx -t 0 -- ./uselibx 2>/dev/null
expect_profile "XRay program with a -shared library: its function named in the report" libx "lib_twice=3 main=1"
"$FDR" record --no-libcall -o cxx.data -t 0 -- ./cxx 2>/dev/null
expect_profile "C++ (XRay): names demangled" cxx.data "main=1 shapes::Sq::area() const=3 total(int)=1"
"$FDR" record --no-libcall -o cxxg.data -t 0 -- ./cxx_gcc 2>/dev/null
expect_profile "C++ (--gcc): names demangled" cxxg.data "main=1 shapes::Sq::area() const=3 total(int)=1"

# ---- early code: an instrumented .preinit_array function ----
# In a dynamically linked program it runs before libc sets environ up;
# libfdr then reads FDR_TARGET and FDR_OPTIONS from /proc/self/environ.
cat > preinit.c <<'X'
#include <stdio.h>
__attribute__((noinline)) int early_work(int x) { return x * 2 + 1; }
__attribute__((noinline)) int never_called(void) { return 0; }
static int early_result;
static void early(int argc, char **argv, char **envp)
{ (void)argc; (void)argv; (void)envp; early_result = early_work(20); }
__attribute__((section(".preinit_array"), used)) static void (*preinit)(int, char **, char **) = early;
int main(void) { printf("%d\n", early_result + early_work(1)); return 0; }
X
"$B/fdr-cc" --gcc -O1 -o preinit_gcc preinit.c && "$B/fdr-cc" -O1 -o preinit_xray preinit.c
"$FDR" record --no-libcall -o pre_gcc -t 0 -- ./preinit_gcc >pre.out 2>pre.err
expect_profile "--gcc: calls from .preinit_array are recorded with FDR_TARGET and the threshold" \
	pre_gcc "early=1 early_work=2 main=1"
grep -q 'recording disabled' pre.err && nok "--gcc .preinit_array: libfdr attaches" "$(cat pre.err)" \
	|| ok "--gcc .preinit_array: libfdr attaches"
"$FDR" record --no-libcall -o pre_xray -t 0 -- ./preinit_xray >/dev/null 2>pre.err
"$FDR" report --json pre_xray >pre_x.json 2>/dev/null
[ "$(calls pre_x.json main)" = 1 ] && [ "$(calls pre_x.json early_work)" -ge 1 ] \
	&& ok "XRay: a program with a .preinit_array records" || nok "XRay: a program with a .preinit_array records" "$(cat pre.err)"
# -t 0 and still nothing: not the threshold's fault, and fdr says so
"$FDR" record --no-libcall -o none -t 0 -F never_called -- ./preinit_xray >/dev/null 2>none.err
grep -q 'no records' none.err && ! grep -q 'try --threshold 0' none.err \
	&& ok "record -t 0 with no records: does not blame the threshold" \
	|| nok "record -t 0 with no records: does not blame the threshold" "$(cat none.err)"

# ---- two runs at once ----
"$FDR" record --no-libcall -o c1 -t 0 -- ./traced sleep 300 2>c1.err & p1=$!
"$FDR" record --no-libcall -o c2 -t 0 -- ./traced threads 2>c2.err
"$FDR" record --no-libcall -o c3 -t 0 -- ./traced exit 0 2>c3.err
wait $p1
expect_profile "concurrent: the long run's log is complete" c1 "leaf=12 main=1 middle=4 work=1"
expect_profile "concurrent: the second run's log is its own" c2 "leaf=40 main=1 thread_body=4 threads=1"
t1=$(awk -F'\t' '$1=="thread" {print $2}' c1/log.xray.threads | sort)
t2=$(awk -F'\t' '$1=="thread" {print $2}' c2/log.xray.threads | sort)
[ -n "$t1" ] && [ -z "$(comm -12 <(echo "$t1") <(echo "$t2"))" ] && [ "$(echo "$t1" | wc -l)" = 1 ] \
	&& ok "concurrent: no thread in both logs" || nok "concurrent: no thread in both logs" "$t1 / $t2"
# fdr-record.PID.X of an fdr record that is gone (other runs may be live)
stale_regions() { for r in /dev/shm/fdr-record.*; do
	[ -e "$r" ] || continue; grep -qxF "$r" <<<"$shm_before" && continue
	p=${r#/dev/shm/fdr-record.}; kill -0 "${p%%.*}" 2>/dev/null || echo "$r"; done; }
[ -n "$(stale_regions)" ] && nok "no embedded region left in /dev/shm" "$(stale_regions)" || ok "no embedded region left in /dev/shm"

# ---- errors leave no data directory ----
"$FDR" record --no-libcall -o e1 -- ./no-such-prog 2>e.err; rc=$?
[ $rc = 127 ] && grep -q 'no-such-prog: command not found' e.err && ok "PROG not found: 127 and a message" || nok "PROG not found: 127 and a message" "rc=$rc" "$(cat e.err)"
no_leftovers "PROG not found: no data directory" . e1
# (without --no-libcall its library calls are recorded: libcall_test.sh)
"$FDR" record -o e2 --no-libcall -- true 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'not instrumented.*fdr-cc' e.err && ok "PROG not instrumented (stripped /bin/true, --no-libcall): says to rebuild with fdr-cc" \
	|| nok "PROG not instrumented (stripped /bin/true, --no-libcall): says to rebuild with fdr-cc" "rc=$rc" "$(cat e.err)"
no_leftovers "PROG not instrumented: no data directory" . e2
cc -o plain traced.c -lpthread
"$FDR" record -o e3 --no-libcall -- ./plain 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'not instrumented' e.err && ok "PROG not instrumented (plain cc build, --no-libcall)" || nok "PROG not instrumented (plain cc build, --no-libcall)" "rc=$rc" "$(cat e.err)"
cc -static -o plain_static traced.c -lpthread
"$FDR" record --no-libcall -o e3 -- ./plain_static 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'statically linked' e.err && ok "PROG not instrumented and static: refused (no library calls)" || nok "PROG not instrumented and static: refused (no library calls)" "rc=$rc" "$(cat e.err)"
clang-19 -fxray-instrument -o xplain traced.c -lpthread 2>/dev/null
"$FDR" record --no-libcall -o e4 -- ./xplain 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'without the fdr XRay mode' e.err && ok "PROG built with -fxray-instrument but not fdr-cc" || nok "PROG built with -fxray-instrument but not fdr-cc" "rc=$rc" "$(cat e.err)"
mkdir ro && chmod 0555 ro
if [ "$(id -u)" = 0 ]; then
	chmod 0755 "$T"; chmod 0644 traced.c
	setpriv --reuid=65534 --regid=65534 --clear-groups "$FDR" record --no-libcall -o ro/d -- ./traced 2>e.err; rc=$?
else
	"$FDR" record --no-libcall -o ro/d -- ./traced 2>e.err; rc=$?
fi
[ $rc = 125 ] && grep -q 'cannot create d in .*/ro: Permission denied' e.err && ok "DIR not writable: 125 and a message" \
	|| nok "DIR not writable: 125 and a message" "rc=$rc" "$(cat e.err)"
no_leftovers "DIR not writable: no data directory" ro d
mkdir mine && echo keep >mine/file
"$FDR" record --no-libcall -o mine -- ./traced 2>e.err; rc=$?
[ $rc = 125 ] && [ "$(cat mine/file)" = keep ] && grep -q 'not an fdr data directory' e.err \
	&& ok "DIR that is not an fdr data directory is left alone" || nok "DIR that is not an fdr data directory is left alone" "$(cat e.err)"
MNT=$T/full; mkdir "$MNT"
if mount -t tmpfs -o size=64k fdr-test "$MNT" 2>/dev/null; then
	"$FDR" record --no-libcall -o "$MNT/d" -t 0 -- ./traced many 20000 2>e.err; rc=$?
	[ $rc = 125 ] && grep -q 'No space left on device' e.err && ok "disk full: 125 and a message" || nok "disk full: 125 and a message" "rc=$rc" "$(cat e.err)"
	no_leftovers "disk full: no data directory" "$MNT" d
	# keeping every call by streaming: the disk (2 MiB now) fills
	# mid-run.  The log up to the last whole buffer is kept when DIR's
	# small files still fit in what cutting it back freed (3 runs of 3
	# here); else nothing is left (no partial DIR either way).
	mount -o remount,size=2m "$MNT"
	"$FDR" record --no-libcall -o "$MNT/d" -t 0 -b 16K -n 16 --stream -- ./traced many 2000000 2>e.err; rc=$?
	[ $rc = 125 ] && grep -q "writing the stream's log: No space left on device" e.err &&
		ok "disk full while streaming: 125 and a message" ||
		nok "disk full while streaming: 125 and a message" "rc=$rc" "$(cat e.err)"
	if [ -d "$MNT/d" ]; then
		grep -q "^fdr record: the stream stopped while PROG ran (No space left on device): $MNT/d/log.xray holds its calls up to there" e.err &&
			grep -q "^stream_stopped	No space left on device\$" "$MNT/d/info" &&
			"$B/fdrlog" verify "$MNT/d/log.xray" >/dev/null 2>&1 &&
			ok "disk full while streaming: DIR keeps a valid log of the calls before, info and the summary say why it ends" ||
			nok "disk full while streaming: DIR keeps a valid log of the calls before, info and the summary say why it ends" \
				"$(cat e.err)" "$(cat "$MNT/d/info" 2>&1 | head -30)"
	else
		grep -q 'no data directory written' e.err &&
			ok "disk full while streaming: no room left for DIR's small files: no DIR, and it says so" ||
			nok "disk full while streaming: no room left for DIR's small files: no DIR, and it says so" "$(cat e.err)"
	fi
	[ -z "$(ls -A "$MNT" | grep -vx d)" ] && ok "disk full while streaming: nothing else left on the disk" ||
		nok "disk full while streaming: nothing else left on the disk" "$(ls -A "$MNT")"
else
	MNT=; skip "disk full" "cannot mount tmpfs (not root?)"; skip "disk full: no data directory" "no tmpfs"
	skip "disk full while streaming" "no tmpfs"
	skip "disk full while streaming: the log before, or no DIR" "no tmpfs"
	skip "disk full while streaming: nothing else left on the disk" "no tmpfs"
fi

# ---- a file size limit (ulimit -f) ----
# Past the limit, growing a file raises SIGXFSZ, whose default action
# would end fdr record (or the traced program) without a word: the
# region and the logs are checked against the limit first.
( ulimit -f 64; exec "$FDR" record --no-libcall -o fsz.data -t 0 -- ./traced many 20000 ) 2>fsz.err; rc=$?
[ $rc = 125 ] && grep -q 'ulimit -f' fsz.err &&
	ok "ring larger than ulimit -f: 125 and a message naming the limit" ||
	nok "ring larger than ulimit -f: 125 and a message naming the limit" "rc=$rc" "$(cat fsz.err)"
no_leftovers "ring larger than ulimit -f: no data directory" . fsz.data
# the ring fits, the streamed log outgrows the limit mid-run: the log up
# to the last whole buffer under the limit is kept, and said so
( ulimit -f 1024; exec "$FDR" record --no-libcall -o fsz.data -t 0 -b 16K -n 16 --stream -- ./traced many 2000000 ) 2>fsz.err; rc=$?
[ $rc = 125 ] && grep -q "writing the stream's log: File too large (.*ulimit -f" fsz.err &&
	ok "stream past ulimit -f: 125 and a message naming the limit" ||
	nok "stream past ulimit -f: 125 and a message naming the limit" "rc=$rc" "$(cat fsz.err)"
fsz_size=$(stat -c %s fsz.data/log.xray 2>/dev/null || echo 0)
grep -q "^fdr record: the stream stopped while PROG ran (File too large): $T/fsz.data/log.xray holds its calls up to there, the later ones were not kept (raise ulimit -f)\$" fsz.err &&
	grep -q "^stream_stopped	File too large\$" fsz.data/info && [ "$fsz_size" -gt 0 ] &&
	[ "$fsz_size" -le $((1024 * 1024)) ] && "$B/fdrlog" verify fsz.data/log.xray >/dev/null 2>&1 &&
	ok "stream past ulimit -f: DIR keeps the log under the limit ($fsz_size bytes, valid), info and the summary say why it ends" ||
	nok "stream past ulimit -f: DIR keeps the log under the limit, info and the summary say why it ends" \
		"size $fsz_size" "$(cat fsz.err)" "$(grep -v '^argv' fsz.data/info 2>&1 | head -30)"
"$FDR" info fsz.data 2>/dev/null | grep -q "stream stopped.*File too large: the log ends there" &&
	ok "stream past ulimit -f: fdr info says where the log ends" ||
	nok "stream past ulimit -f: fdr info says where the log ends" "$("$FDR" info fsz.data 2>&1 | head -40)"
"$FDR" report fsz.data >/dev/null 2>fszr.err &&
	ok "stream past ulimit -f: fdr report reads the kept log" ||
	nok "stream past ulimit -f: fdr report reads the kept log" "$(head -5 fszr.err)"
rm -rf fsz.data
no_leftovers "stream past ulimit -f: no staging directory left" . fsz.data

# ---- a thread with many buffers ----
# llvm-xray 19 orders a thread's blocks with a comparator that calls two
# blocks of the same second equal, so past 16 blocks its order (which the
# reader replays for `convert --no-sort`) is scrambled; report and account
# must take each thread's records in TSC order instead.
"$FDR" record --no-libcall -o many.data -t 0 -b 4K -n 256 -- ./traced many 20000 2>many.err
"$B/fdrlog" convert --no-sort --format yaml many.data/log.xray 2>/dev/null |
	python3 -c 'import re, sys
p = b = 0
for l in sys.stdin:
    m = re.search(r"tsc: (\d+)", l)
    if m:
        b += int(m[1]) < p
        p = int(m[1])
sys.exit(b == 0)' &&
	ok "many buffers: the blocks' llvm-xray order is not the TSC order (the case below is real)" ||
	nok "many buffers: the blocks' llvm-xray order is not the TSC order (the case below is real)" "$(cat many.err)"
if llvm-xray-19 account -instr_map=./traced many.data/log.xray >/dev/null 2>&1; then
	nok "many buffers: llvm-xray-19 account refuses the log (its block order), as reader.md says"
else
	ok "many buffers: llvm-xray-19 account refuses the log (its block order), as reader.md says"
fi
check "many buffers: llvm-xray-19 account takes fdrlog convert --for-llvm-xray's YAML of it" \
	sh -c '"$1" convert --for-llvm-xray -o many.yaml many.data/log.xray && llvm-xray-19 account -instr_map=./traced many.yaml' \
	sh "$B/fdrlog"
"$FDR" report --json many.data >many.json 2>>many.err
check "many buffers: fdr report matches every exit (no exit without entry, none open, none unwound)" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["open_calls"] + d["exits_without_entry"] + d["frames_unwound"])' many.json
[ "$(calls many.json leaf)" = 20012 ] && ok "many buffers: fdr report counts leaf 20012 times" ||
	nok "many buffers: fdr report counts leaf 20012 times" "$(calls many.json leaf)"
"$B/fdrlog" account many.data/log.xray >many.acct 2>&1
awk '$2 == 20012' many.acct | grep -q . && grep -qx 'exits without entry: 0' many.acct &&
	grep -qx 'calls open at the end: 0' many.acct && grep -qx 'frames unwound by a deeper exit: 0' many.acct &&
	ok "many buffers: fdrlog account matches every exit too" ||
	nok "many buffers: fdrlog account matches every exit too" "$(tail -5 many.acct)"

# ---- the scheduling file (crafted: the embedded backend has none) ----
python3 "$HERE/../../fdrlog/tests/gen_sched.py" sched >/dev/null
"$FDR" report --json sched/sched.xray >sched.json 2>sched.err
python3 - sched.json <<'X' && [ ! -s sched.err ] && ok "report --json: on_cpu_ns, runnable_ns, blocked_ns per function from LOG.sched (exact)" ||
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["id"]: (x["total_ns"], x["on_cpu_ns"], x["runnable_ns"], x["blocked_ns"]) for x in d["functions"]}
sys.exit(d["sched"] != "recorded" or f != {1: (9000000, 5498500, 501500, 3000000),
                                           2: (5000000, 2499000, 501000, 2000000),
                                           3: (2100000, 99000, 1000, 2000000),
                                           4: (200000, 200000, 0, 0)})
X
	nok "report --json: on_cpu_ns, runnable_ns, blocked_ns per function from LOG.sched (exact)" "$(cat sched.json sched.err)"
"$FDR" report sched/sched.xray >sched.txt 2>sched.err
grep -qE '^ +2\.100 ms +2\.100 ms +99\.000 us +1\.000 us +2\.000 ms +1  #3$' sched.txt && grep -q 'On-CPU time' sched.txt &&
	[ ! -s sched.err ] && ok "report: On-CPU, Runnable and Blocked columns" ||
	nok "report: On-CPU, Runnable and Blocked columns" "$(cat sched.txt sched.err)"
"$FDR" report --json --no-sched sched/sched.xray >nosched.json 2>nosched.err
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["sched"] != "none" or any("on_cpu_ns" in f for f in d["functions"]))' nosched.json &&
	[ ! -s nosched.err ] && ok "report --json --no-sched: \"sched\": \"none\", no split, nothing on stderr" ||
	nok "report --json --no-sched: \"sched\": \"none\", no split, nothing on stderr" "$(cat nosched.json nosched.err)"
"$FDR" report --sched sched/bad-overflow.sched sched/sched.xray >bad.txt 2>bad.err
[ $? = 0 ] && ! grep -q On-CPU bad.txt && grep -q "bad-overflow.sched: offset 24: sched header: expected a length" bad.err &&
	[ "$(wc -l <bad.err)" = 1 ] && ok "report --sched of a hostile file: refused, named, the report as without one" ||
	nok "report --sched of a hostile file: refused, named, the report as without one" "$(cat bad.txt bad.err)"
"$FDR" replay sched/sched.xray >sched-replay.txt 2>&1
grep -q -- '-- off CPU 2.001 ms (sleeping, woken by tid 102)' sched-replay.txt && ! grep -q "no scheduling data" sched-replay.txt &&
	ok "replay: off-CPU lines from LOG.sched, no note" || nok "replay: off-CPU lines from LOG.sched, no note"
"$FDR" convert --format chrome -o sched.trace.json sched/sched.xray &&
	"$B/fdrlog" convert --format yaml sched/sched.xray >sched.yaml &&
	python3 "$HERE/../../fdrlog/tests/check_chrome.py" --sched sched/sched.xray.sched sched.trace.json sched.yaml sched/sched.xray.threads &&
	ok "convert --format chrome: state tracks and wakeup flows" || nok "convert --format chrome: state tracks and wakeup flows"

# ---- recursion (issue 34): a total runs from the outermost entry to its exit ----
# gen_recursion.py's log: direct and mutual recursion, fib on three threads
# at once and through worker, a tail-call chain; exact ns (1 GHz).
python3 "$HERE/../../fdrlog/tests/gen_recursion.py" rec >/dev/null
rec_is() { # NAME JSON EXPECTED (a Python dict: name -> (calls, total_ns, self_ns))
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
got = {f["name"]: (f["calls"], f["total_ns"], f["self_ns"]) for f in d["functions"]}
want = eval(sys.argv[2])
split = all(f["on_cpu_ns"] + f["runnable_ns"] + f["blocked_ns"] == f["total_ns"] for f in d["functions"])
if got != want or not split:
    print("got", sorted(got.items()), "split adds up:", split)
    sys.exit(1)' "$2" "$3" >rec.out 2>&1 && ok "$1" || nok "$1" "$(cat rec.out)"
}
"$FDR" report --json rec/recursion.xray >rec.json 2>/dev/null
rec_is "report --json, recursion: fib 2600 ns total over 12 calls on 3 threads (not 3830), mutual, tail calls; on-CPU + runnable + blocked = total" rec.json \
	'{"main": (1, 4000, 1400), "fib": (12, 2600, 2400), "worker": (2, 1350, 450), "even": (2, 1000, 600),
	  "odd": (2, 700, 400), "a": (2, 150, 150), "b": (2, 350, 350), "c": (2, 100, 100)}'
"$FDR" report --json -F worker rec/recursion.xray >rec-F.json 2>/dev/null
rec_is "report -F worker, recursion: fib's enclosing call outside the report does not hide it (900 ns)" rec-F.json \
	'{"worker": (2, 1350, 450), "fib": (6, 900, 900)}'
# the same on a real run: fib(15) makes 1973 calls, the outermost one
# holds all of them, so fib's total equals the sum of its self times
"$FDR" record --no-libcall -o fibd -t 0 -- ./traced fib 15 2>/dev/null
"$FDR" report --json fibd >fib.json 2>/dev/null
python3 -c 'import json, sys
f = {x["name"]: x for x in json.load(open(sys.argv[1]))["functions"]}
fib, main = f["fib"], f["main"]
sys.exit(not (fib["calls"] == 1973 and fib["total_ns"] == fib["self_ns"] and fib["total_ns"] < main["total_ns"]))' fib.json &&
	ok "record fib 15 (-t 0): 1973 calls, fib's total = the sum of its self times, below main's" ||
	nok "record fib 15 (-t 0): 1973 calls, fib's total = the sum of its self times, below main's" "$(cat fib.json)"
"$FDR" record --no-libcall -o fibt -- ./traced fib 15 2>/dev/null
"$FDR" report fibt >fibt.txt 2>/dev/null
[ "$(head -1 fibt.txt)" = "$THR_NOTE" ] && [ "$(awk '$NF == "fib" { print $(NF-1) }' fibt.txt)" -lt 1973 ] &&
	ok "record fib 15 (default threshold): fewer fib calls than the program made, and the header says why" ||
	nok "record fib 15 (default threshold): fewer fib calls than the program made, and the header says why" "$(cat fibt.txt)"
"$FDR" report rec/recursion.xray >rec.txt 2>/dev/null
grep -qE '^ +2\.600 us +2\.400 us +2\.570 us +30 ns +0 ns +12  fib$' rec.txt &&
	ok "report, recursion: the text table agrees (fib 2.600 us, runnable 30 ns once)" ||
	nok "report, recursion: the text table agrees (fib 2.600 us, runnable 30 ns once)" "$(cat rec.txt)"

# ---- drop markers (streaming mode; hand-built: the embedded backend drops nothing) ----
# cases/v2_drop_markers: 5 + 1000 records lost by thread 1234, 7 by 77,
# and custom events that only look like markers.
hex2log() { python3 -c 'import sys
out = bytearray()
for line in open(sys.argv[1]):
    line = line.split("#")[0].split()
    if line[:1] == ["@zero"]:
        out += bytes(int(line[1]))
    else:
        out += bytes(int(b, 16) for b in line)
open(sys.argv[2], "wb").write(out)' "$1" "$2"; }
report_counts_drops() {
	hex2log "$HERE/../../fdrlog/tests/cases/v2_drop_markers.hex" drops.xray &&
		"$FDR" report drops.xray >drops.txt 2>/dev/null &&
		grep -qx "# the writers dropped 1012 records in 3 places (no free buffer): the counts and times miss them" drops.txt &&
		"$FDR" report --json drops.xray >drops.json 2>/dev/null &&
		"$FDR" report --json --tid 77 drops.xray >drops77.json 2>/dev/null &&
		python3 -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["dropped"] == 1012 and b["dropped"] == 7, (a["dropped"], b["dropped"])' drops.json drops77.json &&
		"$FDR" report fdr.data >nodrops.txt 2>/dev/null && "$FDR" report --json fdr.data >nodrops.json 2>/dev/null &&
		! grep -q "dropped" nodrops.txt &&
		python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["dropped"] != 0)' nodrops.json
}
check "drop markers: fdr report says how many records the writers dropped (text, --json, --tid); 0 and no line without" report_counts_drops

# ---- the latency trigger: the log ends with the slow call ----
# outlier: 10,000 ticks of 10 us, one 20 ms stall in the middle; a ring of
# 2 x 4K per CPU holds a few hundred calls.
fid_of() { python3 -c 'import json,sys
print(next(f["id"] for f in json.load(open(sys.argv[1]))["functions"] if f["name"]==sys.argv[2]))' "$1" "$2"; }
# the names of the last N function records of DIR's log ("tick-exit stall-enter stall-exit")
last_records() { # DIR N
	"$B/fdrlog" dump "$1/log.xray" 2>/dev/null | grep 'Function ' | tail -n "$2" |
		sed -n 's/.*\(Enter\|Exit\).*fid[= ]\([0-9]*\).*/\2-\1/p' | tr '\n' ' '
}
trigger_ok() { # NAME DIR STDERR [SHOWN]: stall fired it, named in the summary and info; log ends with it
	local name=$1 d=$2 err=$3 fid
	"$FDR" report --json "$d" >"$d.json" 2>/dev/null; fid=$(fid_of "$d.json" stall 2>/dev/null)
	local ticks; ticks=$(calls "$d.json" tick)
	# SHOWN (4th argument): the name the summary gives, as the trigger named it
	local named=${4:+ ($4)}
	if [ -n "$fid" ] && grep -q "the trigger stopped recording: function #$fid$named lasted [0-9.]* ms (pid [0-9]*, tid [0-9]*)" "$err" &&
		awk -F'\t' -v f="$fid" '$1 == "finalized" && $2 == "trigger" && $3 == f && $4 >= 20000000 { ok = 1 } END { exit !ok }' "$d/info" &&
		[ "$(calls "$d.json" stall)" = 1 ] && [ "${ticks:-0}" -gt 0 ] && [ "${ticks:-0}" -lt 5001 ]; then
		ok "$name"
	else
		nok "$name" "fid=$fid ticks=$ticks" "$(cat "$err")" "$(cat "$d/info" 2>/dev/null)"
	fi
}
ends_with_stall() { # DIR: the last records are a tick's Exit, then stall's Enter and Exit
	local t s want got
	t=$(fid_of "$1.json" tick) s=$(fid_of "$1.json" stall)
	want="$t-Exit $s-Enter $s-Exit "
	got=$(last_records "$1" 3)
	[ "$got" = "$want" ] || { echo "want '$want' got '$got'"; "$B/fdrlog" dump "$1/log.xray" | tail -5; return 1; }
}
"$FDR" record --no-libcall -o trg -t 0 -b 4K -n 2 --trigger 10ms:stall -- ./traced outlier 2>trg.err
trigger_ok "trigger 10ms:stall: fires on the 20 ms call, named in the summary and DIR/info" trg trg.err stall
check "trigger 10ms:stall: the log ends with the calls before it and the slow call" ends_with_stall trg
report_names_trigger() {
	"$FDR" report trg >trg.txt 2>/dev/null &&
		grep -q "^# the trigger ended the recording: stall (#$(fid_of trg.json stall)) lasted [0-9.]* ms (pid [0-9]*, tid [0-9]*)\$" trg.txt &&
		python3 -c 'import json,sys
t=json.load(open(sys.argv[1]))["trigger"]
assert t["name"]=="stall" and t["duration_ns"]>=20000000 and t["tid"]>0, t' trg.json &&
		python3 -c 'import json,sys; sys.exit("trigger" in json.load(open(sys.argv[1])))' r.json
}
check "trigger: fdr report (text and --json) names the call that ended the recording; none without" report_names_trigger
# any function: a 600 ms stall and 300 ms, which no preempted tick lasts
TRACED_STALL_MS=600 "$FDR" record --no-libcall -o trga -t 0 -b 4K -n 2 --trigger 300ms -- ./traced outlier 2>trga.err
trigger_ok "trigger 300ms (any function): fires on the stall too" trga trga.err
check "trigger 300ms (any function): the log ends with it" ends_with_stall trga
"$FDR" record --no-libcall -o trgt -b 4K -n 2 --trigger 10ms:stall -- ./traced outlier 2>trgt.err
trigger_ok "trigger with the default threshold (5us): fires the same" trgt trgt.err stall
"$FDR" record --no-libcall -o trgn -t 0 -b 4K -n 2 --trigger 50ms:stall -- ./traced outlier 2>trgn.err; rc=$?
[ $rc = 0 ] && grep -q 'the trigger did not fire: no call of stall lasted 50.000 ms' trgn.err &&
	! grep -q '^finalized' trgn/info && [ "$(last_records trgn 1)" = "1-Exit " ] &&
	ok "trigger 50ms: does not fire; the log holds the end of the run" ||
	nok "trigger 50ms: does not fire; the log holds the end of the run" "rc=$rc" "$(cat trgn.err)" "$(last_records trgn 1)"
TRACED_STALL_MS=600 "$FDR" record --no-libcall -o trgg -t 0 -b 4K -n 2 --trigger 300ms -- ./traced_gcc outlier 2>trgg.err
trigger_ok "trigger on a --gcc build (hooks path): fires on the stall" trgg trgg.err
gfid=$(fid_of trgg.json stall 2>/dev/null)
"$FDR" record --no-libcall -o trgi -t 0 -b 4K -n 2 --trigger "10ms:#$gfid" -- ./traced_gcc outlier 2>trgi.err
trigger_ok "trigger 10ms:#id on a --gcc build" trgi trgi.err
"$FDR" record --no-libcall -o trge -t 0 --trigger 10ms:stall -- ./traced_gcc outlier 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'for a --gcc build give the id' e.err && [ ! -e trge ] &&
	ok "trigger by name on a --gcc build: says to give the id, no data directory" ||
	nok "trigger by name on a --gcc build: says to give the id, no data directory" "rc=$rc" "$(cat e.err)"
"$FDR" record --no-libcall -o trge -t 0 --trigger 10ms:nosuch -- ./traced outlier 2>e.err; rc=$?
[ $rc = 125 ] && grep -q -- '--trigger: nosuch: no such function' e.err && [ ! -e trge ] &&
	ok "trigger on an unknown function: error, no data directory" ||
	nok "trigger on an unknown function: error, no data directory" "rc=$rc" "$(cat e.err)"
for bad in abc 0 10ms: 2h 10xs:stall; do
	"$FDR" record --no-libcall -o trge --trigger "$bad" -- ./traced outlier 2>e.err; rc=$?
	[ $rc = 2 ] && grep -q -- "--trigger: expected" e.err && [ ! -e trge ] &&
		ok "trigger '$bad': usage error, no data directory" ||
		nok "trigger '$bad': usage error, no data directory" "rc=$rc" "$(cat e.err)"
done

# ---- streaming: every record, not the ring's last ----
# traced many N: 18 + N calls, 2 events each.  Unpaced, the writer may
# outrun the stream on a loaded machine: what is not in the log must be
# counted as dropped, exactly.
stream_events=$(( 2 * (18 + 2000000) ))
"$FDR" record --no-libcall -o strm -t 0 -b 64K -n 16 --stream -- ./traced many 2000000 2>strm.err; rc=$?
strm_fn=$("$B/fdrlog" dump strm/log.xray 2>/dev/null | grep -c '  Function ')
strm_drop=$(sed -n 's/.* \([0-9]*\) dropped.*/\1/p' strm.err)
[ $rc = 0 ] && [ -n "$strm_drop" ] && [ $((strm_fn + strm_drop)) = $stream_events ] &&
	ok "stream: the log plus the drops counted are every event ($strm_fn + $strm_drop = $stream_events)" ||
	nok "stream: the log plus the drops counted are every event" "rc=$rc fn=$strm_fn dropped=$strm_drop" "$(cat strm.err)"
check "stream: the log is far larger than the ring (2 CPUs x 1 MiB at most)" \
	test "$(stat -c %s strm/log.xray)" -gt $((8 * 1024 * 1024))
check "stream: fdrlog verify accepts it" sh -c "'$B/fdrlog' verify strm/log.xray >/dev/null"
check "stream: DIR/info says the mode" grep -qx 'mode	stream' strm/info
"$FDR" record --no-libcall -o ring -t 0 -b 64K -n 16 -- ./traced many 2000000 2>ring.err
check "without --stream the same ring keeps only its last buffers" \
	test "$(stat -c %s ring/log.xray)" -le $((64 * 1024 * 1024 / 32))
check "a ring that wrapped: the summary says so and names --stream" grep -qx \
	"fdr record: the ring wrapped: the log holds the last calls only; --stream keeps every record" ring.err
check "a ring that did not wrap: no such line" sh -c "! grep -q 'ring wrapped' rec.err strm.err"
# The stream's thread stopped (SIGSTOP to fdr, by PROG) while PROG runs:
# the writers fill the ring and drop; the summary says how long the
# thread went without looking, and how long it waited for a CPU.
"$FDR" record -o stst -t 0 -b 64K -n 16 --stream -- \
	sh -c 'kill -STOP $PPID; ./traced many 2000000; kill -CONT $PPID' 2>stst.err; rc=$?
lost_re='^fdr record: the stream lost [1-9][0-9]* records: PROG wrote faster than they reached the disk'
[ -r /proc/thread-self/schedstat ] &&
	lost_re="$lost_re (fdr's stream thread waited [0-9]* ms in all for a CPU; its longest gap between two looks: [0-9.]* ms; its longest append: [0-9.]* ms)"
[ $rc = 0 ] && grep -q "$lost_re; more buffers (-n) absorb longer bursts\$" stst.err &&
	ok "stream thread stopped: drops, the thread's CPU wait and longest gap named" ||
	nok "stream thread stopped: drops, the thread's CPU wait and longest gap named" "rc=$rc" "$(cat stst.err)"
# PROG held to one CPU: the stream's thread reads its buffers there
# (stream_cpu.h), and the log still holds every event.  Bursts with
# pauses: the thread looks at least twice whatever the load.
cpu_last=$(taskset -c -p $$ 2>/dev/null | sed 's/.*: //;s/.*[,-]//')
if [ -n "$cpu_last" ]; then
	TRACED_CPU=$cpu_last "$FDR" record -v --no-libcall -o stcpu -t 0 --stream -- \
		./traced bursts 4 100000 2>stcpu.err; rc=$?
	cpu_fn=$("$B/fdrlog" dump stcpu/log.xray 2>/dev/null | grep -c '  Function ')
	cpu_drop=$(sed -n 's/.* \([0-9]*\) dropped.*/\1/p' stcpu.err)
	cpu_events=$(( 2 * (18 + 4 * 100000) ))
	[ $rc = 0 ] && [ -n "$cpu_drop" ] && [ $((cpu_fn + cpu_drop)) = $cpu_events ] &&
		ok "stream, PROG on CPU $cpu_last: the log plus the drops are every event ($cpu_fn + $cpu_drop = $cpu_events)" ||
		nok "stream, PROG on CPU $cpu_last: the log plus the drops are every event" \
			"rc=$rc fn=$cpu_fn dropped=$cpu_drop" "$(cat stcpu.err)"
	check "stream, PROG on CPU $cpu_last: the thread moved to its writers' CPU (-v)" \
		grep -Eq "^fdr record: the stream's thread moved to its writers' CPU [1-9][0-9]* times\$" stcpu.err
else
	skip "stream, PROG on one CPU: the log plus the drops are every event" "no taskset"
	skip "stream, PROG on one CPU: the thread moved to its writers' CPU (-v)" "no taskset"
fi
# Bursts bigger than the ring (3 x 2 M events, ~16 MB each, into 2 x
# 1 MiB), the writer and fdr on one CPU: the stream's thread, real-time
# where fdr may (stream_sched.c), preempts the writer the moment it
# wakes, so none is dropped whatever else the machine runs (the last
# stall, the log's creation at the first append, is gone: below).  Without
# that right only the exact count holds (the log plus the drops are every
# event).
burst_events=$(( 2 * (18 + 3 * 1000000) ))
one_cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')
stream_bursts() { # dir [wrapper...]: fdr record's status; sets burst_fn, burst_drop
	local dir=$1; shift
	"$@" taskset -c "$one_cpu" "$FDR" record -v --no-libcall -o "$dir" -t 0 -b 64K -n 16 --stream -- \
		./traced bursts 3 1000000 2>"$dir.err"
	local rc=$?
	burst_fn=$("$B/fdrlog" dump "$dir/log.xray" 2>/dev/null | grep -c '  Function ')
	burst_drop=$(sed -n 's/.* \([0-9]*\) dropped.*/\1/p' "$dir.err")
	return $rc
}
if chrt -f 1 true 2>/dev/null; then
	stream_bursts strb; rc=$?
	[ $rc = 0 ] && [ "$burst_drop" = 0 ] && [ "$burst_fn" = $burst_events ] &&
		grep -q "^fdr record: the stream's thread waited [0-9.]* ms in all for a CPU (real-time, SCHED_FIFO 1)\$" strb.err &&
		ok "stream, one CPU, bursts 8x the ring: real-time stream thread (-v says so), every event ($burst_fn)" ||
		nok "stream, one CPU, bursts 8x the ring: real-time stream thread, every event" \
			"rc=$rc fn=$burst_fn dropped=$burst_drop want $burst_events" "$(cat strb.err)"
else
	skip "stream, one CPU, bursts 8x the ring: real-time stream thread, every event" \
		"no right to SCHED_FIFO here"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	stream_bursts strn setpriv --bounding-set=-sys_nice --inh-caps=-sys_nice --; rc=$?
	[ $rc = 0 ] && [ -n "$burst_drop" ] && [ $((burst_fn + burst_drop)) = $burst_events ] &&
		{ [ "$burst_drop" = 0 ] || grep -q "^fdr record: the stream's thread ran at normal priority: .*(ulimit -r 1)\$" strn.err; } &&
		ok "stream without CAP_SYS_NICE: log plus drops are every event ($burst_fn + $burst_drop), a drop names the priority" ||
		nok "stream without CAP_SYS_NICE: log plus drops are every event, a drop names the priority" \
			"rc=$rc fn=$burst_fn dropped=$burst_drop want $burst_events" "$(cat strn.err)"
else
	skip "stream without CAP_SYS_NICE: log plus drops are every event" "not root, or no setpriv"
fi
# The stream's log is created before PROG starts: created at the first
# append (2-5 ms: an io_uring, the unnamed file, the header's write), it
# held the first buffers while PROG filled the ring, and the bursts above
# dropped in 3 of 12 runs.  PROG lists fdr record's descriptors.
"$FDR" record -o strf --stream -- sh -c 'ls -l /proc/$PPID/fd' >strf.out 2>strf.err
check "stream: the log's file is open before PROG starts" \
	grep -Eq -- '-> .*/\.strf\.tmp-[^/]*/[^/]+' strf.out
"$FDR" record -o strs -t 0 --stream -- sh -c 'cut -d" " -f41 /proc/$$/stat' >strs.out 2>strs.err
check "stream: PROG is not real-time (SCHED_OTHER, policy 0), whatever the stream thread is" \
	grep -qx 0 strs.out
"$FDR" record --no-libcall -o strp -t 0 -b 64K -n 16 --stream -- ./traced calls 2>/dev/null
check "stream: a short run, every call in fdr report (leaf 12)" sh -c \
	"'$FDR' report strp | grep -q '  12  leaf\$'"
"$FDR" record --no-libcall -o strd -t 0 --stream -- ./traced calls 2>/dev/null
check "stream without -n in a private region: 512 buffers per CPU (DIR/info)" \
	grep -q "^region	[0-9]*	512	" strd/info
check "the flight recorder without -n: 64 buffers per CPU (DIR/info)" \
	grep -q "^region	[0-9]*	64	" fdr.data/info
# The stream's waits between two looks are bounded by the ring: with
# 16 x 64 KiB per CPU (filled in ~2 ms at full speed) at most 0.5 ms, so
# an idle run of T ms makes more than T / 2 looks, which waits of the
# 2 ms default (--stream-interval) never could, however the host is
# loaded (each wait oversleeps; none undersleeps).
t0=$(date +%s%N)
"$FDR" record -v --no-libcall -o strw -t 0 -b 64K -n 16 --stream -- ./traced sleep 300 2>strw.err
t1=$(date +%s%N)
looks=$(sed -n 's/.* in \([0-9]*\) looks (.*/\1/p' strw.err)
ms=$(( (t1 - t0) / 1000000 ))
[ -n "$looks" ] && [ $((looks * 2)) -gt "$ms" ] &&
	ok "stream, a 1 MiB ring idle: waits shorter than the ring's 2 ms ($looks looks in $ms ms)" ||
	nok "stream, a 1 MiB ring idle: waits shorter than the ring's 2 ms" \
		"looks=$looks in $ms ms" "$(cat strw.err)"
[ ! -e strm/.log.xray.tmp ] && ! ls -A strm | grep -q '^\.' &&
	ok "stream: no temporary file in DIR" || nok "stream: no temporary file in DIR" "$(ls -A strm)"

# ---- help ----
for c in record report replay flame convert info; do
	"$FDR" "$c" --help | grep -q "^usage: fdr $c" && ok "fdr $c --help" || nok "fdr $c --help"
done
"$FDR" --help | grep -q 'fdr record' && ok "fdr --help" || nok "fdr --help"
"$FDR" record --no-libcall 2>/dev/null; [ $? = 2 ] && ok "fdr record without PROG: usage, 2" || nok "fdr record without PROG: usage, 2"

echo "1..$n"
[ $failed = 0 ]
