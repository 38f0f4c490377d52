#!/bin/bash
# SPDX-License-Identifier: MIT
# trigger_test.sh - fdrd and the latency trigger, and its disk limits, on
# the embedded backend (no kernel): --max-logs / --max-bytes (the oldest
# of fdrd's own logs go with their side files, foreign files never, a log
# too big is not written), their bad values, the trigger config carried
# over by --auto-reset, SIGUSR1 as a trigger by hand, the holdoff (the
# issue's acceptance), with libfdr's embedded trigger.  TAP.
#
#   trigger_test.sh BUILD_DIR
set -u
BUILD=${1:?usage: trigger_test.sh BUILD_DIR}
FDRD=$BUILD/bin/fdrd
FDRCTL=$BUILD/bin/fdrctl
RECORDER=$BUILD/fdrd/tests/recorder
TCTL=$BUILD/fdrd/tests/trigger_ctl
XRAY=${LLVM_XRAY:-llvm-xray-19}
export FDR_OPTIONS=func_duration_threshold_us=0

. "$(dirname "$0")/fdrd_lib.sh"

WORK=$(mktemp -d /tmp/fdrd-trigger-test.XXXXXX)
NAME=fdrdtrig$$
TARGET=embedded:$NAME
DPID=
cleanup() {
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	"$FDRCTL" --target "$TARGET" destroy >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT

ctl() { "$FDRCTL" --target "$TARGET" "$@"; }
status_field() { ctl status --json | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
tstatus() { "$TCTL" status "$TARGET" | tr ' ' '\n' | sed -n "/^$1\$/{n;p}"; }
fresh_region() { # BUFFER_SIZE BUFFERS_PER_CPU
	ctl destroy >/dev/null 2>&1
	ctl init --buffer-size "$1" --buffers-per-cpu "$2" >/dev/null
}
start_fdrd() { # OUTDIR [OPTIONS...]
	local out=$1; shift
	: >"$WORK/fdrd.err"
	"$FDRD" --foreground --target "$TARGET" --output-dir "$out" "$@" 2>>"$WORK/fdrd.err" &
	DPID=$!
	local i
	for ((i = 0; i < 500; i++)); do
		grep -q "flushing .* into" "$WORK/fdrd.err" && return 0
		sleep 0.02
	done
}
# The logs fdrd wrote, in order, from its "wrote DIR/NAME:" lines.
written() { sed -n 's|^fdrd: wrote [^ ]*/\([^/ :]*\): .*|\1|p' "$WORK/fdrd.err"; }
logs_in() { (cd "$1" && ls -- *.xray 2>/dev/null); }
# One cycle: wait for INITIALIZED, record, finalize, wait for log N.
cycle() { # N
	ctl wait INITIALIZED --timeout 3000 >/dev/null || return 1
	"$RECORDER" "$TARGET" 1 200 >/dev/null || return 1
	ctl finalize >/dev/null || return 1
	wait_msgs '^fdrd: wrote ' "$1" 5
}

# Foreign files, some matching the default pattern, all older than any log.
plant_foreign() { # DIR
	local d=$1
	echo notes >"$d/notes.txt"
	echo x >"$d/fdr-log.20000101T000000Z.0.xray"			# no .threads
	echo x >"$d/fdr-log.20000101T000000Z.1.xray"
	printf 'fdrd-threads\t1\nlog\tsomething-else\n' >"$d/fdr-log.20000101T000000Z.1.xray.threads"
	echo victim >"$WORK/victim"					# a symlink to elsewhere
	ln -s "$WORK/victim" "$d/fdr-log.20000101T000000Z.2.xray"
	printf 'fdrd-threads\t1\nlog\tfdr-log.20000101T000000Z.2.xray\n' >"$d/fdr-log.20000101T000000Z.2.xray.threads"
	echo x >"$d/fdr-log.notastamp.3.xray"
	printf 'fdrd-threads\t1\nlog\tfdr-log.notastamp.3.xray\n' >"$d/fdr-log.notastamp.3.xray.threads"
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then	# another user's
		echo x >"$d/fdr-log.20000101T000000Z.4.xray"
		printf 'fdrd-threads\t1\nlog\tfdr-log.20000101T000000Z.4.xray\n' >"$d/fdr-log.20000101T000000Z.4.xray.threads"
		chown nobody "$d/fdr-log.20000101T000000Z.4.xray" "$d/fdr-log.20000101T000000Z.4.xray.threads"
	fi
	touch -h -d 2000-01-01 "$d"/fdr-log.20000101T* "$d"/fdr-log.notastamp.* "$d/notes.txt"
	(cd "$d" && ls -A | sort) >"$WORK/foreign.list"
}
foreign_intact() { # DIR
	local f
	while read -r f; do [ -e "$1/$f" ] || [ -L "$1/$f" ] || { echo "# gone: $f"; return 1; }; done <"$WORK/foreign.list"
	[ "$(cat "$WORK/victim")" = victim ]
}

# 1. bad values are refused before anything starts, with the cause
test_bad_values() {
	local out=$WORK/bad; mkdir -p "$out"
	local v msg
	while IFS='|' read -r v msg; do
		"$FDRD" --foreground --once -t "$TARGET" -o "$out" $v >/dev/null 2>"$WORK/err"
		local rc=$?
		check "fdrd $v: exit 2, says '$msg'" eval '[ $rc = 2 ] && grep -qF -- "$msg" "$WORK/err"' ||
			diag <"$WORK/err"
	done <<'EOF'
--max-logs 0|--max-logs: 0: the newest log is always kept
--max-logs abc|--max-logs: 'abc' is not a number
--max-logs -1|--max-logs: '-1' is not a number
--max-logs 3x|--max-logs: '3x' is not a number
--max-bytes 0|--max-bytes: '0': must be more than 0
--max-bytes 10X|--max-bytes: '10X': unknown suffix
--max-bytes M|--max-bytes: 'M': not a number
--max-bytes -5K|--max-bytes: '-5K': not a number
--max-bytes 99999999999999999999|--max-bytes: '99999999999999999999': too large
--max-bytes 99999999T|--max-bytes: '99999999T': too large
EOF
	printf -- '--max-logs 2\n--max-bytes 12Q\n' >"$WORK/bad.conf"
	"$FDRD" --foreground --once -t "$TARGET" -o "$out" --config "$WORK/bad.conf" >/dev/null 2>"$WORK/err"
	local rc=$?
	check "options file with --max-bytes 12Q: exit 2, names the value and the file" \
		eval '[ $rc = 2 ] && grep -q "12Q.*unknown suffix" "$WORK/err" && grep -q "bad.conf" "$WORK/err"' ||
		diag <"$WORK/err"
	"$FDRD" --help >"$WORK/help"
	check "--help documents --max-logs, --max-bytes and SIGUSR1" \
		eval 'grep -q -- "--max-logs=N" "$WORK/help" && grep -q -- "--max-bytes=SIZE" "$WORK/help" && grep -q SIGUSR1 "$WORK/help"'
	check "no file written by the refused runs" [ -z "$(ls -A "$out")" ]
}

# 2. --max-logs 3 (from the options file) after 5 cycles: the 3 newest,
#    each with its side table; 2 deletions said; foreign files untouched
test_max_logs() {
	local out=$WORK/maxlogs; mkdir -p "$out"
	plant_foreign "$out"
	printf -- '# keep three\n--max-logs 3\n' >"$WORK/keep3.conf"
	fresh_region 65536 4
	start_fdrd "$out" --grace-ms 20 --auto-reset --config "$WORK/keep3.conf"
	local c good=1
	for c in 1 2 3 4 5; do cycle $c || good=0; done
	sleep 0.2
	check "five cycles: five logs written" [ $good = 1 -a "$(written | wc -l)" = 5 ] || diag <"$WORK/fdrd.err"
	local all newest kept
	all=$(written | tr '\n' ' ')
	newest=$(written | tail -n 3 | sort | tr '\n' ' ')
	kept=$(logs_in "$out" | grep -vxF -f "$WORK/foreign.list" | sort | tr '\n' ' ')
	check "exactly the 3 newest logs are left ($kept; written: $all)" [ "$kept" = "$newest" ]
	local f sides=1
	for f in $newest; do
		[ -s "$out/$f.threads" ] && head -2 "$out/$f.threads" | grep -qxF "log	$f" || sides=0
	done
	check "each kept log has its .threads table" [ $sides = 1 ]
	local gone=1 said=1
	for f in $(written | head -n 2); do
		[ -e "$out/$f" ] || [ -e "$out/$f.threads" ] || [ -e "$out/$f.sched" ] && gone=0
		[ "$(grep -c "deleted the oldest log $out/$f with its side files .*--max-logs 3" "$WORK/fdrd.err")" = 1 ] || said=0
	done
	check "the 2 oldest are gone with their side files" [ $gone = 1 ]
	check "each deletion is one message naming the log and the limit" \
		[ $said = 1 -a "$(grep -c 'deleted the oldest log' "$WORK/fdrd.err")" = 2 ] ||
		grep deleted "$WORK/fdrd.err" | diag
	check "foreign files (also pattern-alike, a symlink, another user's, older) untouched" foreign_intact "$out"
	check "no temporary file left" no_temp_files "$out"
	stop_fdrd
}

# 3. --max-bytes: logs of about S bytes each (with side files), limit
#    2.5 S: after 5 cycles the 2 newest remain, within the limit
test_max_bytes() {
	local cal=$WORK/calibrate out=$WORK/maxbytes; mkdir -p "$cal" "$out"
	fresh_region 65536 4
	start_fdrd "$cal" --grace-ms 20 --auto-reset
	cycle 1 || not_ok "calibration cycle"
	stop_fdrd
	local s; s=$(cat "$cal"/*.xray "$cal"/*.xray.* | wc -c)
	local limit=$((s * 5 / 2))
	plant_foreign "$out"
	fresh_region 65536 4
	start_fdrd "$out" --grace-ms 20 --auto-reset --max-bytes "$limit"
	local c good=1
	for c in 1 2 3 4 5; do cycle $c || good=0; done
	sleep 0.2
	check "--max-bytes $limit (2.5 logs of $s bytes): five logs written" [ $good = 1 -a "$(written | wc -l)" = 5 ]
	local newest kept total
	newest=$(written | tail -n 2 | sort | tr '\n' ' ')
	kept=$(logs_in "$out" | grep -vxF -f "$WORK/foreign.list" | sort | tr '\n' ' ')
	check "the 2 newest logs are left ($kept)" [ "$kept" = "$newest" ]
	total=0
	for f in $kept; do total=$((total + $(cat "$out/$f" "$out/$f".* | wc -c))); done
	check "they and their side files hold $total bytes <= $limit" [ "$total" -le "$limit" ]
	check "3 deletions said, naming --max-bytes $limit" \
		[ "$(grep -c "deleted the oldest log .*--max-bytes $limit" "$WORK/fdrd.err")" = 3 ] ||
		grep deleted "$WORK/fdrd.err" | diag
	check "foreign files untouched" foreign_intact "$out"
	stop_fdrd

	# a log that alone is larger than the limit is never written
	rm -rf "$out"; mkdir -p "$out"
	fresh_region 65536 4
	start_fdrd "$out" --grace-ms 20 --auto-reset --max-bytes 1K
	ctl wait INITIALIZED --timeout 3000 >/dev/null
	"$RECORDER" "$TARGET" 1 200 >/dev/null
	ctl finalize >/dev/null
	wait_msgs 'not written' 1 5
	check "a log larger than --max-bytes 1K: an error says it is not written" \
		grep -q "error: generation [0-9]* not written: its log would be [0-9]* bytes, more than --max-bytes 1024; no file written" "$WORK/fdrd.err" ||
		diag <"$WORK/fdrd.err"
	check "... and no file at all is left (no partial, no temporary)" [ -z "$(ls -A "$out")" ]
	ctl wait INITIALIZED --timeout 3000 >/dev/null
	check "... and the region is flushed and re-armed (--auto-reset)" [ "$(status_field state)" = INITIALIZED ]
	stop_fdrd

	# --once: exit status 1, no file
	fresh_region 65536 4
	"$RECORDER" "$TARGET" 1 200 >/dev/null
	ctl finalize >/dev/null
	"$FDRD" --foreground --once --grace-ms 0 -t "$TARGET" -o "$out" --max-bytes 1K 2>"$WORK/once.err"
	local rc=$?
	check "--once with a log larger than --max-bytes: exit 1, the error, no file" \
		eval '[ $rc = 1 ] && grep -q "not written: its log would be" "$WORK/once.err" && [ -z "$(ls -A "$out")" ]'

	# a log that fits but, with its table, goes past: kept, said
	local lx lt; lx=$(cat "$cal"/*.xray | wc -c); lt=$(cat "$cal"/*.xray.threads | wc -c)
	rm -rf "$out"; mkdir -p "$out"
	fresh_region 65536 4
	start_fdrd "$out" --grace-ms 20 --auto-reset --max-bytes $((lx + lt / 2))
	cycle 1
	sleep 0.2
	check "a log of $lx bytes under --max-bytes $((lx + lt / 2)), over it with its table: kept, and said" \
		eval '[ "$(logs_in "$out")" = "$(written | tail -n 1)" ] &&
		      grep -q "kept $out/$(written | tail -n 1) although it alone is [0-9]* bytes, more than --max-bytes $((lx + lt / 2)): the newest log is always kept" "$WORK/fdrd.err"' ||
		diag <"$WORK/fdrd.err"
	stop_fdrd

	# one that fits alone but not with another: only the newest is left
	rm -rf "$out"; mkdir -p "$out"
	fresh_region 65536 4
	start_fdrd "$out" --grace-ms 20 --auto-reset --max-bytes $((s * 3 / 2))
	cycle 1; cycle 2
	sleep 0.2
	check "limit 1.5 logs: after 2 cycles only the newest is left" \
		[ "$(logs_in "$out")" = "$(written | tail -n 1)" ]
	stop_fdrd
}

has_trigger_lib() { # the embedded backend keeps a trigger given at INIT
	ctl destroy >/dev/null 2>&1
	"$TCTL" init "$TARGET" 65536 4 5000000 0 1000 2>/dev/null &&
		[ "$(tstatus trigger_ns)" = 5000000 ]
}

# 4. --auto-reset re-arms with the last cycle's trigger
test_reinit_trigger() {
	local out=$WORK/reinit; mkdir -p "$out"
	ctl destroy >/dev/null 2>&1
	if ! "$TCTL" init "$TARGET" 65536 4 7000000 3 250 2>"$WORK/err" ||
	   [ "$(tstatus trigger_ns)" != 7000000 ]; then
		not_ok "libfdr keeps a trigger given at INIT: $("$TCTL" status "$TARGET") $(head -c 200 "$WORK/err")"
		return
	fi
	local g0; g0=$(tstatus generation)
	start_fdrd "$out" --grace-ms 20 --auto-reset
	"$RECORDER" "$TARGET" 1 100 >/dev/null
	ctl finalize >/dev/null
	wait_msgs 'region re-initialized' 1 5
	ctl wait INITIALIZED --timeout 3000 >/dev/null
	local st; st=$("$TCTL" status "$TARGET")
	check "after an auto-reset cycle: a new generation ($g0 -> $(tstatus generation)), INITIALIZED" \
		[ "$(tstatus generation)" -gt "$g0" -a "$(tstatus state)" = INITIALIZED ]
	check "STATUS shows the same trigger: 7000000 ns, function 3, holdoff 250 ms ($st)" \
		[ "$(tstatus trigger_ns)" = 7000000 -a "$(tstatus trigger_fid)" = 3 -a "$(tstatus holdoff_ms)" = 250 ]
	check "fdrd says it re-armed the trigger" \
		grep -q "region re-initialized: .*trigger at 7000000 ns (function 3, holdoff 250 ms)" "$WORK/fdrd.err"
	stop_fdrd
}

# 5. kill -USR1 fdrd: a trigger by hand, flushed, said
test_sigusr1() {
	local out=$WORK/usr1; mkdir -p "$out"
	fresh_region 65536 4
	start_fdrd "$out" --grace-ms 20
	"$RECORDER" "$TARGET" 1 100 >/dev/null
	kill -USR1 "$DPID"
	wait_msgs 'SIGUSR1: (trigger fired|no trigger fired)' 1 5
	check "SIGUSR1: fdrd says it fires a trigger by hand, and that it fired" \
		eval 'grep -q "SIGUSR1: firing a trigger by hand" "$WORK/fdrd.err" && grep -q "SIGUSR1: trigger fired" "$WORK/fdrd.err"' ||
		diag <"$WORK/fdrd.err"
	wait_msgs '^fdrd: wrote ' 1 5
	local log; log=$(logs_in "$out")
	check "a log is written" [ -n "$log" ]
	check "its table: finalize trigger by fdrd's thread, fid 0, 0 ns ($(grep ^finalize "$out/$log.threads" 2>/dev/null))" \
		grep -qP "^finalize\ttrigger\tsignal\t0\t-\tpid\t$DPID\tcomm\tfdrd\ttid\t$DPID\tfid\t0\tduration_ns\t0\$" "$out/$log.threads"
	check "fdrd's log says: finalized by trigger: by hand (pid $DPID, tid $DPID)" \
		grep -q "log $log: finalized by trigger: by hand (pid $DPID, tid $DPID)" "$WORK/fdrd.err"
	check "STATUS: triggers_fired 1" [ "$(tstatus fired)" = 1 ]
	kill -USR1 "$DPID"
	wait_msgs 'SIGUSR1: no trigger fired' 1 5
	check "SIGUSR1 on a finalized region: a clear error, fdrd goes on" \
		eval 'grep -q "SIGUSR1: no trigger fired: the region is not recording" "$WORK/fdrd.err" && kill -0 $DPID'
	stop_fdrd
}

# 6. holdoff 1 s, 100 slow calls in ~1 s: at most 2 logs (the issue's
#    acceptance); every log says the trigger and its function
test_holdoff() {
	local out=$WORK/holdoff; mkdir -p "$out"
	if ! has_trigger_lib; then
		not_ok "holdoff: libfdr keeps a trigger given at INIT"
		return
	fi
	ctl destroy >/dev/null 2>&1
	"$TCTL" init "$TARGET" 65536 4 5000000 0 1000 >/dev/null
	start_fdrd "$out" --grace-ms 20 --auto-reset
	local t0=$(date +%s%N)
	"$TCTL" slow "$TARGET" 100 10 9 >/dev/null
	local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	sleep 1.5	# the last flush, if any
	local nlogs; nlogs=$(logs_in "$out" | wc -l)
	# one trigger per holdoff: 2 when the calls took under 2 s, as they
	# do (a loaded machine that stretches them gets one more per second)
	local most=$(( 1 + ms / 1000 ))
	check "100 calls of 10 ms ($ms ms), holdoff 1 s: $nlogs log(s), 1 to $most" [ "$nlogs" -ge 1 -a "$nlogs" -le "$most" ] ||
		diag <"$WORK/fdrd.err"
	local good=1 f
	for f in $(logs_in "$out"); do
		grep -qP "^finalize\ttrigger\t.*\ttid\t[0-9]+\tfid\t9\tduration_ns\t[0-9]{8,}\$" "$out/$f.threads" || good=0
	done
	check "each log's table: finalize trigger, function 9, >= 10 ms" [ $good = 1 ]
	check "fdrd's log: finalized by trigger: function #9 lasted ... ms" \
		grep -q "finalized by trigger: function #9 lasted [0-9.]* ms (pid [0-9]*, tid [0-9]*)" "$WORK/fdrd.err"
	stop_fdrd
}

test_bad_values
test_max_logs
test_max_bytes
test_reinit_trigger
test_sigusr1
test_holdoff
tap_end
