#!/bin/sh
# SPDX-License-Identifier: MIT
# fdrd --attach-pid through /dev/fdr in the VM (busybox sh; KTAP on
# stdout): the device backend's half of tests/attach_test.sh.  fdrd makes
# a session of its own (--session), waits for its INIT (a 20 ms latency
# trigger on slow_request()'s XRay id) and attaches to a running service
# built by fdr-cc (XRay, static: /bin/fdrd-service, a request a
# millisecond, every 50th one 30 ms slow); with --auto-reset it leaves a
# log at each slow request it catches, the service following the session
# into each new cycle.  SIGTERM detaches and flushes; the service is left
# as it was (mappings, fds, threads, signal dispositions) and prints what
# it prints untraced; the default region is never touched.
SVC=/bin/fdrd-service
W=/tmp/fdrd-attach-vm
S=vmattach
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
check() { what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }
diag() { sed 's/^/# /' "$1"; }

echo "KTAP version 1"
if [ ! -c /dev/fdr ]; then
	echo "1..0 # SKIP /dev/fdr missing (fdr.ko not loaded)"
	exit 4
fi
rm -rf "$W"
mkdir -p "$W/out"
cd "$W" || exit 1

SPID=0 DPID=
start_service() { # it runs until fd 3 (its stdin) closes
	rm -f fifo; mkfifo fifo
	"$SVC" <fifo >"$1" 2>&1 &
	SPID=$!
	exec 3>fifo
	i=0	# until main and its waiting thread are there
	while [ "$(ls /proc/$SPID/task 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
}
stop_service() { exec 3>&-; wait "$SPID"; SPID=0; }
# What a detach must leave as it was, but for glibc's malloc arenas: the
# attach's code allocates on whichever of the service's threads fdrd makes
# call it, and a thread's first malloc takes an arena glibc keeps for the
# process's life (seen in CI on 2026-12-06, 6.1-rt).  What an arena
# looks like: userspace/testing/maps_but_arenas.awk, shared with the
# host's attach tests; vm-install puts it in /bin/fdr-tests (not /tests,
# whose every file is run as a test).
# Without it every listing would be empty, and equal: stop instead.
ARENAS_AWK=/bin/fdr-tests/maps_but_arenas.awk
[ -r "$ARENAS_AWK" ] || { echo "Bail out! no $ARENAS_AWK"; exit 1; }
maps_but_arenas() { # PID SKIP-REGEX
	awk -v skip="$2" -f "$ARENAS_AWK" "/proc/$1/maps"
}
snapshot() { # PID OUT: what a detach must leave as it was
	{ maps_but_arenas "$1" 'fdrd-service$'
	  ls /proc/$1/fd | sort | tr '\n' ' '; echo
	  ls /proc/$1/task | sort | tr '\n' ' '; echo
	  grep -E '^Sig(Blk|Ign|Cgt)' /proc/$1/status; } >"$2"
}
wait_msgs() { # PATTERN COUNT SECONDS: fdrd.err has COUNT lines matching
	i=0
	while [ "$(grep -c "$1" fdrd.err)" -lt "$2" ]; do
		[ $i -ge $(($3 * 10)) ] && return 1
		sleep 0.1; i=$((i + 1))
	done
}
# LOG's last record: "FUNC-ID KIND" (the VM's static fdr reads no
# instrumentation map)
last_record() {
	fdr convert --format yaml "$1" 2>/dev/null |
		sed -n 's/.*func-id: *\([0-9]*\),.*kind: *\([a-z-]*\),.*/\1 \2/p' | tail -n 1
}

start_service untraced.out; sleep 0.3; stop_service
check "untraced, the service prints its known output" grep -qx "0 wrong results" untraced.out

id=$(cat "$SVC.slow-id")
start_service traced.out
snapshot "$SPID" before
fdrd --foreground --session "$S" --auto-reset --grace-ms 20 --attach-pid "$SPID" \
	-o "$W/out" 2>fdrd.err &
DPID=$!
i=0	# the session is fdrd's once fdrctl lists it
until fdrctl list 2>/dev/null | grep -q "$S" || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
fdrctl --session "$S" init --buffer-size 65536 --buffers-per-cpu 16 \
	--trigger-duration "20ms:$id" >init.out 2>&1
check "fdrctl --session $S init with a 20 ms trigger on slow_request() (#$id)" [ $? = 0 ] || diag init.out
check "fdrd attaches to the service once its session records" \
	wait_msgs "^fdrd: attached to process $SPID " 1 60 || diag fdrd.err
check "two cycles: two logs, each finalized by the trigger (the service follows the next INIT)" \
	wait_msgs '^fdrd: log .*: finalized by trigger' 2 120 || diag fdrd.err
kill -TERM "$DPID"
wait "$DPID"
rc=$?
check "SIGTERM: fdrd detaches and exits 0" \
	sh -c "[ $rc = 0 ] && grep -q '^fdrd: detached from process $SPID\$' fdrd.err" || diag fdrd.err
bad=
for l in $(sed -n 's|^fdrd: log \([^:]*\): finalized by trigger.*|\1|p' fdrd.err); do
	fdr verify -q "out/$l" >verify.out 2>&1 || { bad="$bad $l: $(cat verify.out)"; continue; }
	r=$(last_record "out/$l")
	[ "$r" = "$id function-exit" ] || bad="$bad $l ends with '$r'"
done
check "each triggered log verifies and ends with the planted slow_request()'s exit" \
	test -z "$bad" || echo "# $bad"
sleep 0.2
snapshot "$SPID" after
check "after the detach: the service's mappings, fds, threads, signal dispositions as before" \
	cmp -s before after || diff before after | sed 's/^/# /'
stop_service
check "... and its output is the untraced one" cmp -s untraced.out traced.out
check "the default region untouched" sh -c 'fdrctl status | grep -q UNINITIALIZED'

echo "1..$n"
[ "$failed" = 0 ]
