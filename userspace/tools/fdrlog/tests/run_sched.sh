#!/bin/sh
# run_sched.sh - TAP tests of what fdrlog makes of fdrd's scheduling file
# (<log>.sched) on the log of gen_sched.py: account's on-CPU, runnable and
# blocked seconds (exact), no word without the file but in replay's
# header, hostile files
# refused with their cause and the log read as without one, lost records,
# replay's "off CPU" lines (bytes), and the Chrome trace's state tracks and
# wakeup flows (check_chrome.py --sched).
# usage: run_sched.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
V=$HERE/views
. "$HERE/tap_lib.sh"

generate gen_sched.py "$WORK"
LOG=$WORK/sched.xray
SYM="--sym-map $WORK/sched.symmap"
cd "$WORK" || exit 1

# ---- account ----
"$FDRLOG" account $SYM "$LOG" >acct.txt 2>acct.err
same acct.txt "$V/sched-account.txt" "account: on-cpu, runnable, blocked columns from LOG.sched (bytes)"
awk '$NF == "leaf" && $9 == "0.000099000" && $10 == "0.000001000" && $11 == "0.002000000"' acct.txt | grep -q . &&
	awk '$NF == "main" && $9 == "0.005498500" && $10 == "0.000501500" && $11 == "0.003000000"' acct.txt | grep -q .
check $? "account: leaf's 2 ms sleep is blocked, to the tick; main's D wait too"
[ ! -s acct.err ]
check $? "account with the file: nothing on stderr"
"$FDRLOG" account $SYM --no-sched "$LOG" >plain.txt 2>plain.err
mkdir alone && cp "$LOG" alone/
"$FDRLOG" account $SYM alone/sched.xray >alone.txt 2>alone.err
cmp -s plain.txt alone.txt && ! grep -q on-cpu alone.txt && [ ! -s alone.err ]
check $? "account without LOG.sched: the table without the columns, nothing on stderr (no noise on every report)"
[ ! -s plain.err ]
check $? "account --no-sched: nothing on stderr"

# ---- hostile files: refused, named, the log read without them ----
for bad in magic:"offset 0: sched header: expected magic 0x46534446, found 0x46534447" \
	version:"offset 4: sched header: expected version 1, found 2" \
	recsize:"offset 8: sched header: expected record_size 32, found 40" \
	overflow:"offset 24: sched header: expected a length of 64 + 32 x nr_records (18446744073709551615), found 384 bytes" \
	truncated:"offset 24: sched header: expected a length of 64 + 32 x nr_records (10), found 376 bytes" \
	short:"offset 0: sched header: truncated: expected a 64-byte header, found 40 bytes"; do
	name=${bad%%:*} msg=${bad#*:}
	mkdir "d-$name" && cp "$LOG" "d-$name/" && cp "bad-$name.sched" "d-$name/sched.xray.sched"
	"$FDRLOG" account $SYM "d-$name/sched.xray" >out.txt 2>err.txt
	status=$?
	[ $status = 0 ] && cmp -s out.txt plain.txt &&
		grep -qF "fdr account: d-$name/sched.xray.sched: $msg; reading the log without it" err.txt
	check $? "hostile .sched ($name): refused with its cause, account as without one"
	if [ "$name" = magic ]; then
		"$FDRLOG" convert --format chrome "d-$name/sched.xray" >bad.json 2>err.txt &&
			! grep -q '"cat":"sched"' bad.json && grep -q "reading the log without it" err.txt
		check $? "hostile .sched: convert --format chrome without state tracks"
	fi
done
"$FDRLOG" account --sched none.sched "$LOG" >/dev/null 2>err.txt
[ $? = 1 ] && grep -q "fdr account: --sched none.sched: offset 0: cannot read none.sched: No such file" err.txt
check $? "account --sched of a missing file: an error naming it"

# ---- lost records: the time before a thread's first record is unknown ----
"$FDRLOG" account $SYM --sched lost.sched "$LOG" >lost.txt 2>/dev/null
awk '$NF == "leaf" && $9 == "0.000002000" && $11 == "0.002000000"' lost.txt | grep -q . &&
	awk '$NF == "waker" && $9 == "0.000000000"' lost.txt | grep -q . &&
	grep -q "^scheduling records were lost" lost.txt
check $? "account with records_lost: time before the first record in no column, and said"

# ---- replay ----
"$FDRLOG" replay $SYM "$LOG" >replay.txt
same replay.txt "$V/sched-replay.txt" "replay: off-CPU lines inside the calls they interrupted (bytes)"
"$FDRLOG" replay $SYM -N leaf "$LOG" >replay-N.txt
! grep -q "sleeping, woken by tid 102" replay-N.txt && grep -q "(preempted)" replay-N.txt
check $? "replay -N leaf: not the sleep inside leaf, the preemption in work"
"$FDRLOG" replay $SYM --no-sched "$LOG" >replay-no.txt
! grep -q "off CPU" replay-no.txt && ! grep -q "no scheduling data" replay-no.txt
check $? "replay --no-sched: no off-CPU lines, and no note (asked for)"
! grep -q "no scheduling data" replay.txt
check $? "replay with LOG.sched: no note"
"$FDRLOG" replay $SYM alone/sched.xray >replay-alone.txt 2>replay-alone.err
[ "$(head -1 replay-alone.txt)" = "# no scheduling data was recorded (no usable LOG.sched: the embedded backend, --no-sched, or an older fdrd): time off CPU is in the durations, unmarked" ] &&
	[ "$(sed -n 2p replay-alone.txt)" = "# DURATION     TID     FUNCTION" ] && [ ! -s replay-alone.err ] &&
	[ "$(grep -c "no scheduling data" replay-alone.txt)" = 1 ]
check $? "replay without LOG.sched: the header says so, once, on its first line"

# ---- Chrome ----
"$FDRLOG" convert --format yaml "$LOG" >sched.yaml
"$FDRLOG" convert --format chrome "$LOG" >chrome.json &&
	python3 "$HERE/check_chrome.py" --sched "$LOG.sched" chrome.json sched.yaml "$LOG.threads"
check $? "chrome: state track per thread and the wakeup flow, as format.md's rules give"
[ "$(grep -c '"ph":"s"' chrome.json)" = 1 ] && grep -q '"name":"D","cat":"sched","ph":"X","ts":6000.000,"dur":1000.000' chrome.json
check $? "chrome: one wakeup by a task, main's D state at 6 ms for 1 ms"
"$FDRLOG" convert --format chrome --sched lost.sched "$LOG" >lost.json &&
	python3 "$HERE/check_chrome.py" --sched lost.sched lost.json sched.yaml "$LOG.threads"
check $? "chrome with records_lost: nothing drawn before a thread's first record"
"$FDRLOG" convert --format chrome --no-sched "$LOG" >plain.json &&
	python3 "$HERE/check_chrome.py" plain.json sched.yaml "$LOG.threads"
check $? "chrome --no-sched: the trace as before"
python3 "$HERE/check_chrome.py" --sched lost.sched chrome.json sched.yaml "$LOG.threads" 2>/dev/null
check $(( ! $? )) "check_chrome.py --sched fails on the states of another file"

echo "1..$n"
[ $failed = 0 ]
