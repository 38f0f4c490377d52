#!/bin/bash
# SPDX-License-Identifier: MIT
# attach_test.sh - fdrd --attach-pid / --attach-unit on a running fdr-cc
# "service" (service.c: a request a millisecond, every 50th one slow),
# embedded backend, TAP: with --auto-reset and a 20 ms latency trigger
# fdrd leaves one log per slow request it catches (at least two cycles:
# the service follows the region to its next INIT), each verified and
# ending with slow_request()'s exit; SIGTERM detaches and flushes, and
# leaves the service as it was (mappings, fds, threads, signal
# dispositions; its output as untraced); a program not built by fdr-cc
# is refused before anything starts; a unit's main PID comes from
# systemctl (a stand-in on $PATH here); a --gcc service's function names
# are left next to fdrd's logs, and fdr report on one names them.
#
#   attach_test.sh BUILD_DIR
set -u
BUILD=$(cd "${1:?usage: attach_test.sh BUILD_DIR}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
B=$BUILD/bin
. "$HERE/fdrd_lib.sh"

WORK=$(mktemp -d /tmp/fdrd-attach-test.XXXXXX)
TARGET=embedded:fdrdattach$$
DPID= SPID=0
cleanup() {
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	[ "$SPID" -gt 0 ] && kill "$SPID" 2>/dev/null
	exec 3>&- 2>/dev/null
	"$B/fdrctl" --target "$TARGET" destroy >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK" || exit 1

start_service() { # the service runs until fd 3 (its stdin) closes
	rm -f fifo; mkfifo fifo
	./service <fifo >service.out 2>&1 &
	SPID=$!
	exec 3>fifo
	sleep 0.2
}
stop_service() { exec 3>&-; wait "$SPID"; local rc=$?; SPID=0; return $rc; }
# What a detach must leave as it was, but for glibc's malloc arenas: the
# attach's code allocates on whichever of the service's threads fdrd makes
# call it, and a thread's first malloc takes an arena glibc keeps for the
# process's life (seen in CI on 2026-12-06, 6.1-rt).  What an arena
# looks like: userspace/testing/maps_but_arenas.awk, shared with fdr's
# attach test and the VM's.
# Without it every listing would be empty, and equal: stop instead.
ARENAS_AWK=$HERE/../../testing/maps_but_arenas.awk
[ -r "$ARENAS_AWK" ] || { echo "Bail out! no $ARENAS_AWK"; exit 1; }
maps_but_arenas() { # PID SKIP-REGEX
	awk -v skip="$2" -f "$ARENAS_AWK" "/proc/$1/maps"
}
snapshot() { # PID OUT: what a detach must leave as it was
	{ maps_but_arenas "$1" 'service$'
	  ls /proc/$1/fd | sort | tr '\n' ' '; echo
	  ls /proc/$1/task | sort | tr '\n' ' '; echo
	  grep -E '^Sig(Blk|Ign|Cgt)' /proc/$1/status; } >"$2"
}
start_fdrd() { # OPTIONS...: in the foreground, its messages in fdrd.err
	: >"$WORK/fdrd.err"
	"$B/fdrd" --foreground --target "$TARGET" --output-dir "$WORK/out" "$@" \
		2>>"$WORK/fdrd.err" &
	DPID=$!
}
# LOG's last record, "FUNCTION KIND"
last_record() {
	"$B/fdrlog" convert --format yaml --instr-map service "$1" |
		sed -n 's/.*function: \([^,]*\),.*kind: \([a-z-]*\),.*/\1 \2/p' | tail -n 1
}

if ! "$B/fdr-cc" -O2 -g -pthread -o service "$HERE/service.c" >build.out 2>&1; then
	not_ok "fdr-cc -O2 service.c"; diag <build.out; tap_end; exit
fi
start_service; sleep 0.3; stop_service
check "untraced, the service prints its known output" grep -qx "0 wrong results" service.out

# refused: a program fdr-cc did not build, before fdrd starts anything
mkdir -p out
sleep 30 & other=$!
"$B/fdrd" --target "$TARGET" --output-dir out --attach-pid "$other" >refused.out 2>&1
rc=$?
kill "$other"; wait "$other" 2>/dev/null
check "a program not built by fdr-cc: exit 1, says to rebuild it with fdr-cc, no log" \
	bash -c "[ $rc = 1 ] && grep -q 'rebuild it with' refused.out && [ -z \"\$(ls out)\" ]" ||
	diag <refused.out

# the service recorded continuously: a log at each slow request caught.
# The trigger is slow_request()'s alone (its XRay id): on a loaded host
# another call preempted for 20 ms must not fire it.
id=$(${LLVM_XRAY:-llvm-xray-19} extract -s service 2>/dev/null |
	sed -n 's/.*{ id: \([0-9]*\),.*function-name: slow_request,.*/\1/p' | head -n 1)
check "slow_request() has an XRay id (llvm-xray extract -s)" test -n "$id"
"$B/fdrctl" --target "$TARGET" init --buffer-size 65536 --buffers-per-cpu 16 \
	--trigger-duration "20ms:${id:-0}" >/dev/null
start_service
snapshot "$SPID" before
start_fdrd --auto-reset --attach-pid "$SPID"
check "fdrd attaches to the service" wait_msgs "^fdrd: attached to process $SPID " 1 10 ||
	diag <fdrd.err
check "two cycles: two logs, each finalized by the trigger (the service follows the next INIT)" \
	wait_msgs '^fdrd: log .*: finalized by trigger' 2 20 || diag <fdrd.err
# until the third cycle has records (whenever the service gets to run)
for _ in $(seq 200); do
	"$B/fdrctl" --target "$TARGET" status >status.out 2>&1
	grep -Eq '^generation: *([3-9]|[1-9][0-9])' status.out &&
		grep -Eq '^buffers acquired: *[1-9]' status.out && break
	sleep 0.05
done
stop_fdrd; rc=$?
check "SIGTERM: fdrd detaches, flushes what was recorded since, exits 0" \
	bash -c "[ $rc = 0 ] && grep -q '^fdrd: detached from process $SPID\$' fdrd.err &&
		 [ \"\$(grep -c '^fdrd: wrote ' fdrd.err)\" -ge 3 ]" || diag <fdrd.err
bad=
for l in $(sed -n 's|^fdrd: log \([^:]*\): finalized by trigger.*|\1|p' fdrd.err); do
	"$B/fdrlog" verify "out/$l" >verify.out 2>&1 || { bad="$bad $l: $(cat verify.out)"; continue; }
	r=$(last_record "out/$l")
	[ "$r" = "slow_request function-exit" ] || bad="$bad $l ends with '$r'"
done
check "each triggered log verifies and ends with the planted slow_request()'s exit" \
	test -z "$bad" || echo "# $bad"
sleep 0.2
snapshot "$SPID" after
check "after the detach: the service's mappings, fds, threads, signal dispositions as before" \
	diff before after || diff before after | diag
stop_service
check "... and its output is the untraced one" grep -qx "0 wrong results" service.out

# --attach-unit: the unit's main PID from systemctl (a stand-in here)
rm -rf out; mkdir out
start_service
mkdir bin
printf '#!/bin/sh\n[ "$*" = "show -p MainPID --value -- web.service" ] && echo %d || exit 1\n' \
	"$SPID" >bin/systemctl
chmod +x bin/systemctl
"$B/fdrctl" --target "$TARGET" reset >/dev/null 2>&1
"$B/fdrctl" --target "$TARGET" destroy >/dev/null 2>&1
"$B/fdrctl" --target "$TARGET" init --buffer-size 65536 --buffers-per-cpu 16 >/dev/null
PATH=$WORK/bin:$PATH start_fdrd --attach-unit web.service
check "--attach-unit: attaches to the unit's MainPID" \
	wait_msgs "^fdrd: attached to process $SPID " 1 10 || diag <fdrd.err
stop_fdrd; rc=$?
check "... and detaches at SIGTERM" \
	bash -c "[ $rc = 0 ] && grep -q '^fdrd: detached from process $SPID\$' fdrd.err" || diag <fdrd.err
stop_service
check "... the service's output is the untraced one" grep -qx "0 wrong results" service.out

# a --gcc service names its functions in a sym-map of its own: fdrd
# copies it next to each log, and fdr report on a log names them
if "$B/fdr-cc" --gcc -O2 -g -pthread -o service "$HERE/service.c" >build.out 2>&1; then
	rm -rf out; mkdir out
	"$B/fdrctl" --target "$TARGET" destroy >/dev/null 2>&1
	"$B/fdrctl" --target "$TARGET" init --buffer-size 65536 --buffers-per-cpu 16 >/dev/null
	start_service
	start_fdrd --auto-reset --attach-pid "$SPID"
	wait_msgs "^fdrd: attached to process $SPID " 1 10 >/dev/null
	sleep 0.3	# a few slow requests
	"$B/fdrctl" --target "$TARGET" finalize >/dev/null
	wait_msgs '^fdrd: wrote ' 1 20 >/dev/null
	stop_fdrd
	spid=$SPID
	stop_service
	log=$(ls out/*.xray 2>/dev/null | head -n 1)
	"$B/fdr" report "${log:-out/none}" >report.out 2>&1
	check "--gcc service: fdrd leaves its sym-map next to the log, and fdr report names slow_request()" \
		bash -c "[ -s out/fdr-syms.$spid.map ] && grep -qw slow_request report.out &&
			 ! grep -q '#[0-9]' report.out" || { diag <fdrd.err; diag <report.out; }
else
	not_ok "fdr-cc --gcc -O2 service.c"; diag <build.out
fi

tap_end
