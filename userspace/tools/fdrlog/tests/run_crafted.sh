#!/bin/bash
# SPDX-License-Identifier: MIT
# run_crafted.sh - every fdrlog command on logs crafted to find quadratic
# work (issue 15, point 4): 200,000 exits without entry under a stack
# 200,000 deep, and 200,000 thread ids; and a log 40,000 calls deep
# that the tree views must walk without overflowing their stack.  Each command must finish (a
# quadratic one takes 20-50 s here: killed at $LIMIT s), print the right
# counts, and `account` must take at most 10x the time of `convert` on
# the same log, measured side by side (best of 3 runs each; plus 30 ms
# for process start-up noise on tiny runs).  20,000 thread ids chosen to
# collide in LLVM's DenseMap hash (which the reader replays to order
# threads as llvm-xray does) must cost at most 10x what 20,000 ordinary
# ones cost (10x, not less: a loaded shared host skews one side of a
# pair 3-7x; quadratic work at these sizes is thousands of times).  A
# pseudo-random log with every kind of leftover compares account's whole
# table with cases/crafted_mixed_30000.account, and its counts and sums
# with account_sum_model.py's (recursion counted once).  TAP on stdout.
#
#   run_crafted.sh FDRLOG GEN_CRAFTED WORKDIR
set -u
FDRLOG=$1 GEN=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
LIMIT=${CRAFTED_LIMIT:-20}
N=200000
mkdir -p "$WORK"
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }

# run NAME CMD...: stdout into $WORK/NAME.out; false if it failed or timed out
run() {
	local name=$1; shift
	timeout "$LIMIT" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
}
# best_ms CMD...: the shortest of 3 wall-clock runs, in ms (output dropped)
best_ms() {
	local best= t0 t1 ms i
	for i in 1 2 3; do
		t0=$(date +%s%N)
		timeout "$LIMIT" "$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		ms=$(( (t1 - t0) / 1000000 ))
		[ -z "$best" ] || [ "$ms" -lt "$best" ] && best=$ms
	done
	echo "$best"
}
field() { sed -n "s/^$1: //p" "$2"; }

# every command finishes with the right counts; $1 case, $2 enters, $3 exits
commands() {
	local c=$1 log=$WORK/$1.log
	run "$c-verify" "$FDRLOG" verify "$log"
	check "$c: verify accepts the log" grep -q ": ok (FDR version 2)" "$WORK/$c-verify.out"
	run "$c-dump" "$FDRLOG" dump "$log"
	check "$c: dump prints every function record ($(($2 + $3)))" \
		[ "$(grep -c ' Function ' "$WORK/$c-dump.out")" = $(($2 + $3)) ]
	run "$c-yaml" "$FDRLOG" convert --format yaml "$log"
	check "$c: convert --format yaml: $2 enters, $3 exits" \
		[ "$(grep -c 'kind: function-enter' "$WORK/$c-yaml.out")" = "$2" -a \
		  "$(grep -c 'kind: function-exit' "$WORK/$c-yaml.out")" = "$3" ]
	run "$c-chrome" "$FDRLOG" convert --format chrome "$log"
	check "$c: convert --format chrome finishes with a JSON document" \
		eval '[ $? = 0 ] && grep -q "traceEvents" "$WORK/$c-chrome.out"'
	run "$c-account" "$FDRLOG" account "$log"
	check "$c: account finishes" [ $? = 0 ]
}

ratio() { # CASE: account within 3x of convert
	local log=$WORK/$1.log conv acct
	conv=$(best_ms "$FDRLOG" convert --format yaml "$log")
	acct=$(best_ms "$FDRLOG" account "$log")
	echo "# $1: convert --format yaml $conv ms, account $acct ms (best of 3)"
	check "$1: account takes at most 10x convert's time ($acct ms vs $conv ms)" \
		[ "$acct" -le $((10 * conv + 30)) ]
}

"$GEN" orphans $N "$WORK/orphans.log" && "$GEN" threads $N "$WORK/threads.log" &&
	"$GEN" mixed 30000 "$WORK/mixed.log" && "$GEN" collide 20000 "$WORK/collide.log" &&
	"$GEN" threads 20000 "$WORK/plain.log" || { not_ok "gen_crafted made the logs"; echo "1..$n"; exit 1; }

commands orphans $N $N
a=$WORK/orphans-account.out
check "orphans: account counts $N exits without entry and $N open calls" \
	[ "$(field 'exits without entry' "$a")" = $N -a "$(field 'calls open at the end' "$a")" = $N -a \
	  "$(field 'functions with latencies' "$a")" = 0 ]
check "orphans: account names the functions" \
	eval 'grep -qx "  funcid 1: 0 exits without entry, $N open, 0 unwound" "$a" &&
	      grep -qx "  funcid 2: $N exits without entry, 0 open, 0 unwound" "$a"'
ratio orphans

commands threads $N $N
a=$WORK/threads-account.out
# function 1 + tid % 7 for tids 1..N: residues 1..3 (functions 2..4) once more
counts=$(awk '$1 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $2 }' "$a")
check "threads: account has each function's calls over $N threads ($counts)" \
	[ "$counts" = "1:28571 2:28572 3:28572 4:28572 5:28571 6:28571 7:28571 " ]
check "threads: nothing left over" \
	[ "$(field 'exits without entry' "$a")" = 0 -a "$(field 'calls open at the end' "$a")" = 0 ]
ratio threads

commands collide 20000 20000
check "collide: convert keeps all 20000 threads" \
	[ "$(sed -n 's/.*thread: \([0-9]*\),.*/\1/p' "$WORK/collide-yaml.out" | sort -u | wc -l)" = 20000 ]
check "collide: account has the 20000 calls" \
	[ "$(awk '$1 ~ /^[0-9]+$/ { s += $2 } END { print s }' "$WORK/collide-account.out")" = 20000 ]
for c in verify "convert --format yaml" account; do
	plain=$(best_ms "$FDRLOG" $c "$WORK/plain.log")
	hit=$(best_ms "$FDRLOG" $c "$WORK/collide.log")
	echo "# $c: 20000 colliding thread ids $hit ms, 20000 ordinary ones $plain ms"
	check "collide: $c takes at most 10x the time of ordinary thread ids ($hit ms vs $plain ms)" \
		[ "$hit" -le $((10 * plain + 30)) ]
done

# 40,000 calls nested: the views walk the tree recursively, on a stack
# reserved for its depth (deep_stack.c); on the thread's own 8 MiB,
# replay and graph died of SIGSEGV at this depth
"$GEN" orphans 40000 "$WORK/deep.log" || not_ok "gen_crafted made the deep log"
for c in "replay -N 1" "graph 1" "flame" "report -F 1"; do
	run deep "$FDRLOG" $c "$WORK/deep.log"
	rc=$?
	check "40,000 calls deep: $c exits 0 (replay and graph died of SIGSEGV before deep_stack.c)" [ $rc = 0 ] ||
		echo "# exit $rc: $(head -c 300 "$WORK/deep.err")"
done

run mixed-account "$FDRLOG" account "$WORK/mixed.log"
check "mixed: account's table (latencies, lost exits, unwound, open) as expected" \
	cmp -s "$WORK/mixed-account.out" "$HERE/cases/crafted_mixed_30000.account" ||
	diff "$HERE/cases/crafted_mixed_30000.account" "$WORK/mixed-account.out" | head -20 | sed 's/^/# /'
"$FDRLOG" convert --format yaml "$WORK/mixed.log" >"$WORK/mixed-yaml.out" 2>/dev/null
python3 "$HERE/account_sum_model.py" "$WORK/mixed-yaml.out" "$WORK/mixed-account.out" >"$WORK/model.out"
check "mixed: account's counts and sums equal account_sum_model.py's (recursion counted once)" [ $? = 0 ] ||
	head -5 "$WORK/model.out" | sed 's/^/# /'
rm -f "$WORK"/*.log "$WORK"/*.out
echo "1..$n"
[ $failed = 0 ]
