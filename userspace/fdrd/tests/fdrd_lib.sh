# SPDX-License-Identifier: MIT
# fdrd_lib.sh - sourced by fdrd's shell tests: the TAP helpers (ok,
# not_ok, check WHAT CMD..., skip WHAT WHY, diag: stdin as # lines,
# tap_end: the plan and the status) and the daemon's (stop_fdrd,
# wait_msgs, no_temp_files), which use $DPID and $WORK/fdrd.err.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }
tap_end() { echo "1..$n"; [ "$failed" = 0 ]; }

# SIGTERM to the fdrd started in the background; its exit status.
stop_fdrd() {
	[ -n "$DPID" ] || return 0
	kill -TERM "$DPID" 2>/dev/null
	wait "$DPID"
	local rc=$?
	DPID=
	return $rc
}
# COUNT lines of fdrd.err matching ERE within TIMEOUT_S
wait_msgs() { # ERE COUNT TIMEOUT_S
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		[ "$(grep -cE "$1" "$WORK/fdrd.err")" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}
no_temp_files() { ! ls -A "$1" | grep -q '^\..*\.tmp$'; }
