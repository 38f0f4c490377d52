#!/bin/sh
# run_recursion.sh - TAP tests of how fdrlog account adds recursive calls
# up (issue 34) on gen_recursion.py's log: direct and mutual recursion,
# fib on three threads at once and through another function, a tail-call
# chain.  Every call is in count and the order statistics; sum and the
# scheduling columns run from each outermost entry to its exit (bytes).
# usage: run_recursion.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
V=$HERE/views
. "$HERE/tap_lib.sh"

generate gen_recursion.py "$WORK"
LOG=$WORK/recursion.xray
SYM="--sym-map $WORK/fdr-syms.100.map"

"$FDRLOG" account $SYM "$LOG" >"$WORK/acct.txt" 2>"$WORK/acct.err"
same "$WORK/acct.txt" "$V/recursion-account.txt" "account: recursion counted once in sum and on-cpu/runnable (bytes)"
awk '$NF == "fib" && $2 == 12 && $8 == "0.000002600" && $10 == "0.000000030"' "$WORK/acct.txt" | grep -q .
check $? "account: fib, 12 calls on 3 threads, sum 2600 ns (not 3830), runnable 30 ns (not 60)"
awk '$NF == "even" && $8 == "0.000001000"' "$WORK/acct.txt" | grep -q . &&
	awk '$NF == "odd" && $8 == "0.000000700"' "$WORK/acct.txt" | grep -q .
check $? "account: mutual recursion, even 1000 ns and odd 700 ns"
awk '$NF == "a" && $2 == 2 && $8 == "0.000000150"' "$WORK/acct.txt" | grep -q . &&
	awk '$NF == "b" && $2 == 2 && $8 == "0.000000350"' "$WORK/acct.txt" | grep -q . &&
	awk '$NF == "c" && $2 == 2 && $8 == "0.000000100"' "$WORK/acct.txt" | grep -q .
check $? "account: a tail-call chain is not recursion, each call adds"
echo "1..$n"
[ $failed = 0 ]
