#!/bin/sh
# run_names.sh - TAP tests that `fdrlog` is only a name of fdr: every
# command fdrlog(1) documents, run as `fdrlog CMD ... LOG`, as `fdr CMD
# ... LOG` and as `fdr CMD ... DIR` (a directory as fdr record leaves it,
# whose names come without --sym-map), prints the same bytes on standard
# output and standard error and exits alike; flame -o and convert -o
# write the same files.  On gen_views.py's logs.
# usage: run_names.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
FDR=$(dirname "$FDRLOG")/fdr
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tap_lib.sh"

generate gen_views.py "$WORK"
LOG=$WORK/views.xray
SYM="--sym-map $WORK/views.symmap"
# What fdr record leaves: the log, its side table, the names' map.
D=$WORK/fdr.data
mkdir -p "$D" && cp "$LOG" "$D/log.xray" && cp "$LOG.threads" "$D/log.xray.threads" &&
	cp "$WORK/views.symmap" "$D/fdr-syms.1.map"

[ "$(readlink "$FDRLOG")" = fdr ]
check $? "fdrlog is a link to fdr (no program of its own)"

# run NAME SPELLING - -- command...: stdout, stderr, status into
# $WORK/NAME.SPELLING.{out,err,rc}
run() {
	name=$1 sp=$2
	shift 4
	"$@" >"$WORK/$name.$sp.out" 2>"$WORK/$name.$sp.err"
	echo $? >"$WORK/$name.$sp.rc"
}

# alike NAME WHAT FILES...: the spellings' outputs (and FILES, written by
# -o as FILE.SPELLING) are byte for byte the same
alike() {
	name=$1 what=$2 bad=
	shift 2
	for sp in fdr dir; do
		for ext in out err rc; do
			cmp -s "$WORK/$name.fdrlog.$ext" "$WORK/$name.$sp.$ext" || bad="$bad $sp.$ext"
		done
		for f in "$@"; do
			cmp -s "$f.fdrlog" "$f.$sp" || bad="$bad $sp:$(basename "$f")"
		done
	done
	if [ -z "$bad" ] && { [ -s "$WORK/$name.fdrlog.out" ] || [ -s "$WORK/$name.fdrlog.err" ] ||
		[ $# -gt 0 ]; }; then
		ok "$what"
	else
		not_ok "$what (differ:${bad:- none, but nothing printed})"
		diff "$WORK/$name.fdrlog.out" "$WORK/$name.dir.out" | head -10 | sed 's/^/# /'
	fi
}

# same3 NAME WHAT ARGS...: fdrlog ARGS LOG, fdr ARGS LOG, fdr ARGS DIR
# (no --sym-map: DIR names the functions); ARGS may hold @SYM@ for the map
same3() {
	name=$1 what=$2
	shift 2
	with=$(echo "$*" | sed "s|@SYM@|$SYM|g") without=$(echo "$*" | sed "s|@SYM@||g")
	# the views name the input: give the same path every time
	run "$name" fdrlog - -- "$FDRLOG" $with "$D/log.xray"
	run "$name" fdr - -- "$FDR" $with "$D/log.xray"
	run "$name" dir - -- "$FDR" $without "$D"
	alike "$name" "$what"
}

same3 dump "dump LOG: fdrlog, fdr and fdr DIR print the same records" dump
same3 verify "verify LOG: the same" verify
head -c 100 "$LOG" >"$WORK/cut.xray"
same3 verifyq "verify -q of a cut log and a whole one: the same error, status 1" verify -q "$WORK/cut.xray"
for f in yaml chrome perfetto; do
	same3 conv-$f "convert --format $f: the same bytes" convert --format $f @SYM@
done
same3 conv-nosort "convert --format yaml --no-sort: the same" convert --format yaml --no-sort @SYM@
same3 conv-llvm "convert --for-llvm-xray: the same YAML and note on stderr" convert --for-llvm-xray @SYM@
same3 conv-F "convert --format chrome -F work: the same" convert --format chrome -F work @SYM@
same3 replay "replay: the same trees" replay @SYM@
same3 replay-F "replay -F work -D 2 --tid 101: the same" replay -F work -D 2 --tid 101 @SYM@
same3 replay-bad "replay -F wrok: the same error and status" replay -F wrok @SYM@
same3 account "account: the same table" account @SYM@
same3 account-s "account --sort sum --desc --top 2: the same" account --sort sum --desc --top 2 @SYM@
same3 graph "graph (not in fdrlog(1), but a reading command): the same" graph @SYM@

# flame -o and convert -o: the same files
for sp in fdrlog fdr dir; do
	case $sp in
	fdrlog) cmd=$FDRLOG s=$SYM in=$D/log.xray ;;
	fdr) cmd=$FDR s=$SYM in=$D/log.xray ;;
	dir) cmd=$FDR s= in=$D ;;
	esac
	run flame "$sp" - -- "$cmd" flame $s -o "$WORK/f.svg.$sp" "$in"
	run conv-o "$sp" - -- "$cmd" convert --format perfetto $s -o "$WORK/t.pftrace.$sp" "$in"
done
alike flame "flame -o OUT.svg: the same SVG" "$WORK/f.svg"
alike conv-o "convert --format perfetto -o OUT: the same file" "$WORK/t.pftrace"

for cmd in dump verify convert account replay flame; do
	"$FDRLOG" $cmd --help >"$WORK/h1" 2>&1 && "$FDR" $cmd --help >"$WORK/h2" 2>&1 &&
		cmp -s "$WORK/h1" "$WORK/h2" && grep -q "^usage: fdr $cmd" "$WORK/h1"
	check $? "fdrlog $cmd --help is fdr $cmd --help"
done
expect 2 "^fdr replay: -F wrok: no function of the log matches" \
	"errors name the fdr command, under either name" -- "$FDRLOG" replay $SYM -F wrok "$LOG"

echo "1..$n"
[ "$failed" = 0 ]
