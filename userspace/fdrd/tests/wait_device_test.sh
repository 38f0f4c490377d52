#!/bin/bash
# SPDX-License-Identifier: MIT
# wait_device_test.sh - a missing device: fdrd exits 1 naming the cause
# and the fix, or with --wait-device says so once and waits, and SIGTERM
# ends the wait with status 0.  (That it then flushes once the device
# appears is the VM's part: the host has no /dev/fdr.)  TAP on stdout.
#
#   wait_device_test.sh BUILD_DIR
set -u
FDRD=${1:?usage: wait_device_test.sh BUILD_DIR}/bin/fdrd
WORK=$(mktemp -d /tmp/fdrd-waitdev.XXXXXX)
PID=
trap '[ -z "$PID" ] || kill -9 "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
dev=$WORK/no-such-fdr
n=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; sed 's/^/# /' "$WORK/err"; fi; }
echo "1..3"

"$FDRD" --foreground --target "$dev" --output-dir "$WORK" 2>"$WORK/err"
rc=$?
[ $rc = 1 ] && grep -q "$dev: no such device (is fdr.ko loaded? modprobe fdr)" "$WORK/err"
result $? "fdrd: a missing device without --wait-device: exit 1, cause and fix named (exit $rc)"

"$FDRD" --foreground --wait-device --target "$dev" --output-dir "$WORK" 2>"$WORK/err" &
PID=$!
for ((i = 0; i < 100; i++)); do
	grep -q 'waiting for it to appear' "$WORK/err" && break
	sleep 0.05
done
sleep 2.2	# two more polls: the message must not repeat
alive=0
kill -0 "$PID" 2>/dev/null && alive=1
[ $alive = 1 ] && [ "$(grep -c "$dev: no such device (is fdr.ko loaded? modprobe fdr); waiting for it to appear" "$WORK/err")" = 1 ]
result $? "fdrd --wait-device: says once that the device is missing and what loads it, and waits"

kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
[ $rc = 0 ]
result $? "fdrd --wait-device: SIGTERM ends the wait with status 0 (exit $rc)"
