#!/bin/sh
# SPDX-License-Identifier: MIT
# fdr record -p PID through /dev/fdr in the VM (busybox sh; KTAP on
# stdout): the device backend's half of attach_test.sh.  For the worker
# built by fdr-cc in XRay, --gcc and --patchable mode (static; /bin/fdr-tests,
# vm-install): its untraced output; WINDOWS attach/detach windows while
# it runs, each in a session of the recorder's own, each log verified and
# holding the working threads; nobody (uid 65534) refused, naming the
# ptrace rule, nothing written; the program's output unchanged; no
# session left and the default region untouched.  The --gcc worker waits
# on /dev/fdr for an INIT (as every --gcc program where fdr.ko is
# loaded): each attach takes it off that wait and each detach gives it
# back.
P=/bin/fdr-tests
W=/tmp/fdr-attach-vm
WINDOWS=${FDR_ATTACH_WINDOWS:-4}	# more by hand, to look for a rare failure
. $P/vm_lib.sh

PID=0
# start_worker PROG OUT: it runs until fd 3 (its stdin) closes
start_worker() {
	rm -f fifo; mkfifo fifo
	"$1" <fifo >"$2" 2>&1 &
	PID=$!
	exec 3>fifo
	i=0	# until its 6 long-lived threads are there
	while [ "$(ls /proc/$PID/task 2>/dev/null | wc -l)" -lt 6 ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
}
stop_worker() { exec 3>&-; wait "$PID"; PID=0; }
log_threads() { grep -c '^thread' "$1/log.xray.threads"; }

window() { # DIR: one attach, its checks; 0 or a message on stderr
	fdr record -p "$PID" -o "$1" -t 0 --duration 300ms >"$1.out" 2>&1 ||
		{ sed 's/^/# /' "$1.out" >&2; return 1; }
	grep -q "^fdr record: attached to process $PID" "$1.out" &&
		grep -q "^fdr record: detached from process $PID" "$1.out" &&
		grep -q '(/dev/fdr:record\.[0-9]*\.[0-9a-f]*)$' "$1.out" ||
		{ sed 's/^/# /' "$1.out" >&2; return 1; }
	fdrlog verify -q "$1/log.xray" >&2 || return 1
	# main and the 4 workers call all the time
	[ "$(log_threads "$1")" -ge 5 ] ||
		{ echo "# $1: $(log_threads "$1") threads in the log" >&2; return 1; }
}

modes="xray gcc patchable"
for mode in $modes; do
	prog=$P/attach_worker_$mode
	start_worker "$prog" "$mode.untraced"; sleep 0.5; stop_worker
	check "$mode: the untraced run prints its known output" grep -qx "main: 0 wrong results" "$mode.untraced"
	start_worker "$prog" "$mode.out"
	bad=0
	for i in $(seq $WINDOWS); do
		window "$mode.w$i" || { bad=$i; break; }
	done
	[ $bad = 0 ] || echo "# $mode: window $bad failed"
	check "$mode: $WINDOWS windows through the device, each in its own session, each log verified with the working threads" [ $bad = 0 ]
	su -s /bin/sh -c "fdr record -p $PID -o $W/$mode.nobody --duration 100ms" nobody >"$mode.nobody.out" 2>&1
	rc=$?
	check "$mode: nobody (uid 65534) is refused with 125, naming the ptrace rule" \
		sh -c "[ $rc = 125 ] && grep -q ptrace $mode.nobody.out && [ ! -e $mode.nobody ]"
	[ $rc = 125 ] || sed 's/^/# /' "$mode.nobody.out"
	stop_worker
	check "$mode: the program ends with the output it gives untraced" cmp -s "$mode.untraced" "$mode.out"
done
check "no session left, the default region untouched" \
	sh -c 'fdrctl list | grep -q "^no sessions$" && fdrctl status | grep -q UNINITIALIZED'

echo "1..$n"
[ "$failed" = 0 ]
