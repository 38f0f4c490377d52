#!/bin/sh
# run_filters.sh - TAP tests of the filter language every reading command
# shares (filter_opts.c parses, view_narrow.c decides), on the known log of
# gen_filters.py: uftrace's -F/-N/-C/-T/-D/-t/-r/--tid/--match in replay
# (bytes compared with filters/), and the same options in flame and
# convert.  Each test fails on the fdrlog before them (issue 34).
# usage: run_filters.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
V=$HERE/filters
. "$HERE/tap_lib.sh"

generate gen_filters.py "$WORK"
LOG=$WORK/filters.xray
SYM="--sym-map $WORK/filters.symmap"
# replay ARGS... > $WORK/r.txt
replay() { "$FDRLOG" replay --no-sched $SYM "$@" "$LOG" >"$WORK/r.txt" 2>"$WORK/r.err"; }
calls() { grep -c "| *$1[;(]" "$WORK/r.txt"; }

# ---- -F, -N, -D ----
replay -F outer -D 2
same "$WORK/r.txt" "$V/F-nested-depth.txt" "-F outer -D 2: the outer under mid is an -F match again and restarts the depth (bytes)"
replay -N mid -F mid -D 1
same "$WORK/r.txt" "$V/N-then-F.txt" "-N mid -F mid: the later option wins; the nested mid restarts -D 1 (bytes)"
replay -F mid -N mid && [ "$(grep -c '|' "$WORK/r.txt")" = 0 ]
check $? "-F mid -N mid: the later option wins: nothing shown"
set --
for i in $(seq 40); do set -- "$@" -F leaf; done
replay "$@" && [ "$(calls leaf)" = 3 ]
check $? "40 -F names: no limit of 32 (the 3 leaf calls)"

# ---- patterns ----
replay -F '^std::' && [ "$(grep -c '|' "$WORK/r.txt")" = 1 ] && [ "$(calls std::push)" = 1 ]
check $? "-F '^std::': a regular expression against the demangled short name"
expect 2 "-F ea: no function of the log matches" "-F ea: a plain name matches whole names only (as uftrace), so nothing: exit 2" -- \
	"$FDRLOG" replay $SYM -F ea "$LOG"
replay -F 'l.af' && [ "$(calls leaf)" = 3 ]
check $? "-F 'l.af': a regex matches anywhere in the name"
replay --match glob -F 'std::*' && [ "$(calls std::push)" = 1 ] && [ "$(grep -c '|' "$WORK/r.txt")" = 1 ]
check $? "--match glob -F 'std::*': a shell pattern"
expect 2 "-F ^std::: no function of the log matches" "--match glob -F '^std::': not a glob of any name: exit 2" -- \
	"$FDRLOG" replay $SYM --match glob -F '^std::' "$LOG"
expect 2 "-F le(af: not a regular expression" "-F 'le(af': a broken regex is named, exit 2" -- \
	"$FDRLOG" replay $SYM -F 'le(af' "$LOG"
replay -F '#4' && [ "$(calls leaf)" = 3 ]
check $? "-F '#4': a function id still names a function"

# ---- -C, -t, -r, --tid ----
replay -C leaf
same "$WORK/r.txt" "$V/C-leaf.txt" "-C leaf: leaf's calls as leaves and their callers only (bytes)"
replay -t 1us
same "$WORK/r.txt" "$V/t-1us.txt" "-t 1us: calls shorter than 1 us hidden (bytes)"
replay -t 1000 && cmp -s "$WORK/r.txt" "$V/t-1us.txt"
check $? "-t 1000: ns without a unit, as uftrace"
expect 2 "-t 5parsecs: expected a duration" "-t with an unknown unit: exit 2" -- "$FDRLOG" replay -t 5parsecs "$LOG"
replay -r 7us~8us && [ "$(grep -c '|' "$WORK/r.txt")" = 1 ] && [ "$(calls leaf)" = 1 ]
check $? "-r 7us~8us: the calls within that elapsed time (the second leaf)"
replay -r 0.0010071~0.0010072 && [ "$(grep -c '|' "$WORK/r.txt")" = 1 ] && [ "$(calls leaf)" = 1 ]
check $? "-r SEC.NSEC~SEC.NSEC: timestamps on the log's clock"
replay -r 20us~ && [ "$(grep -c '|' "$WORK/r.txt")" = 3 ] && [ "$(calls main2)" = 1 ]
check $? "-r 20us~: an open end"
expect 2 "-r 7us: expected START~END" "-r without ~: exit 2" -- "$FDRLOG" replay -r 7us "$LOG"
replay --tid 302
same "$WORK/r.txt" "$V/tid-302.txt" "--tid 302: one thread (bytes)"
replay --tid 302,301 && [ "$(grep -c '^# thread' "$WORK/r.txt")" = 2 ]
check $? "--tid 302,301: both"
expect 2 "--tid 999: no thread of the log has that id" "--tid of no thread of the log: exit 2, not an empty view" -- \
	"$FDRLOG" replay --tid 302,999 "$LOG"

# ---- -T ----
for t in "depth mid@depth=1" "time mid@time=1us" "finish leaf@finish"; do
	replay -T "${t#* }"
	same "$WORK/r.txt" "$V/T-${t%% *}.txt" "-T ${t#* } (bytes)"
done
replay -T 'mid@trace_off' -T 'std::push@trace_on'
same "$WORK/r.txt" "$V/T-trace-off-on.txt" "-T mid@trace_off -T std::push@trace_on: nothing between, per thread (bytes)"
expect 2 "expected FUNC@ACTION" "-T mid@bogus: exit 2" -- "$FDRLOG" replay -T mid@bogus "$LOG"

# ---- unknown names: an error naming the close matches, no output file ----
expect 2 "fdr replay: -F lef: no function of the log matches; close matches: leaf" \
	"replay -F lef: exit 2, close matches" -- "$FDRLOG" replay $SYM -F lef "$LOG"
for o in "-N" "-C" "-T"; do
	a=lef; [ "$o" = -T ] && a=lef@finish
	expect 2 "$o lef: no function of the log matches; close matches: leaf" "replay $o lef: exit 2 too" -- \
		"$FDRLOG" replay $SYM "$o" "$a" "$LOG"
done
rm -f "$WORK/f.svg" "$WORK/c.json"
expect 2 "fdr flame: -F lef: no function" "flame -o -F lef: exit 2" -- "$FDRLOG" flame $SYM -o "$WORK/f.svg" -F lef "$LOG"
expect 2 "fdr convert: -F lef: no function" "convert -o -F lef: exit 2" -- \
	"$FDRLOG" convert --format chrome $SYM -o "$WORK/c.json" -F lef "$LOG"
[ ! -e "$WORK/f.svg" ] && [ ! -e "$WORK/c.json" ] && [ -z "$(ls "$WORK" | grep tmp)" ]
check $? "... and no output file, not even a temporary one"

# ---- the same options in flame and convert ----
"$FDRLOG" flame $SYM -F outer -D 2 "$LOG" >"$WORK/f.svg" &&
	printf '%s\n' "all 8900 0" "outer 8900 1" "mid 7800 1" "outer 6700 1" "mid 5600 1" >"$WORK/f.expect" &&
	python3 "$HERE/check_flame.py" "$WORK/f.svg" "$WORK/f.expect"
check $? "flame -F outer -D 2: the frames replay shows, the nested -F restarting the depth"
"$FDRLOG" convert --format yaml $SYM -F '^std::' "$LOG" >"$WORK/c.yaml" &&
	[ "$(grep -c 'kind:' "$WORK/c.yaml")" = 2 ] && [ "$(grep -c 'std::push' "$WORK/c.yaml")" = 2 ]
check $? "convert --format yaml -F '^std::': the records of the calls shown only"
"$FDRLOG" convert --format chrome $SYM --tid 302 -t 500ns "$LOG" >"$WORK/c.json" &&
	python3 -c 'import json,sys; e=[x for x in json.load(open(sys.argv[1]))["traceEvents"] if x["ph"] in "BE"]; assert [x["name"] for x in e] == ["main2", "main2"], e' "$WORK/c.json"
check $? "convert --format chrome --tid 302 -t 500ns: main2 alone"
expect 2 "not with --no-sort" "convert --no-sort with a filter: exit 2" -- \
	"$FDRLOG" convert --format yaml --no-sort -F leaf "$LOG"

echo "1..$n"
[ $failed = 0 ]
