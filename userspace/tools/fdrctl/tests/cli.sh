#!/bin/sh
# cli.sh - fdrctl against an embedded region: commands, output, messages
# and exit codes (fdrctl(8)).  TAP on stdout.
set -u
F=${FDRCTL:?set FDRCTL to the fdrctl binary}
N=cli-$$
T=embedded:$N
OUT=$(mktemp) ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"; "$F" --target "$T" destroy >/dev/null 2>&1' EXIT
n=0 fails=0
echo "1..32"

# run EXPECTED_RC ARGS...: output in $OUT/$ERR
run() {
	want=$1; shift
	"$F" "$@" >"$OUT" 2>"$ERR"; rc=$?
	[ "$rc" -eq "$want" ] || { echo "# exit $rc, want $want: fdrctl $*"; sed 's/^/#   /' "$ERR"; return 1; }
}
has() { grep -q -- "$1" "$2" || { echo "# no '$1' in:"; sed 's/^/#   /' "$2"; return 1; }; }
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fails=$((fails + 1)); fi
}

run 3 --target "$T" status && has "no such region" "$ERR" && has "fdrctl init --embedded $N" "$ERR"; ok $? "status of a missing region: exit 3, says how to create it"
run 0 init --embedded "$N" --buffer-size 16K --buffers-per-cpu 3; ok $? "init --embedded NAME with K suffix"
run 0 --target "$T" status && has "state: *INITIALIZED" "$OUT" && has "3 buffers of 16384 bytes" "$OUT"; ok $? "status shows state and geometry"
run 0 --target "$T" status --json && [ "$(wc -l <"$OUT")" -eq 1 ] && has '"state":"INITIALIZED"' "$OUT" && has '"buffer_size":16384' "$OUT" && has '"buffers_per_cpu":3' "$OUT" && has '"generation":1' "$OUT"
ok $? "status --json is one object with the fields"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["embedded"] is True and d["nr_buffers"]==3*d["nr_cpus"]' "$OUT"; ok $? "status --json parses as JSON"
else
	n=$((n + 1)); echo "ok $n status --json parses as JSON # SKIP no python3"
fi
run 1 --target "$T" init && has "cannot init: the recorder is INITIALIZED" "$ERR"; ok $? "init twice: exit 1, names the state"
run 1 --target "$T" reset && has "cannot reset: the recorder is INITIALIZED" "$ERR"; ok $? "reset while recording: exit 1"
run 0 --target "$T" finalize && run 0 --target "$T" status && has "state: *FINALIZED" "$OUT" && has "finalized by: *ioctl" "$OUT"; ok $? "finalize"
run 1 --target "$T" finalize && has "cannot finalize: the recorder is FINALIZED" "$ERR"; ok $? "finalize twice: exit 1"
run 0 --target "$T" wait FINALIZED --timeout 100; ok $? "wait for the current state returns at once"
run 1 --target "$T" flush-abort && has "cannot flush-abort" "$ERR" && run 0 --target "$T" status --json && has '"state":"FINALIZED"' "$OUT" && has '"flush_state":"NOT_FLUSHING"' "$OUT"; ok $? "flush-abort without a flush: exit 1, nothing changes"
run 1 --target "$T" wait INITIALIZED --timeout 100 && has "timed out" "$ERR"; ok $? "wait times out with exit 1"
run 0 --target "$T" reset && run 0 --target "$T" status --json && has '"state":"UNINITIALIZED"' "$OUT"; ok $? "reset"
run 1 --target "$T" init --buffer-size 5000 && has "bad sizes" "$ERR"; ok $? "a size that is not a page multiple is refused"
run 2 --target "$T" init --buffer-size 12Q && has "bad --buffer-size '12Q'" "$ERR"; ok $? "unparsable size: exit 2"
run 0 --target "$T" init --buffers-per-cpu 1 && run 0 --target "$T" status --json && has '"generation":2' "$OUT" && has '"buffer_size":65536' "$OUT"; ok $? "re-init: default 64K, generation 2"
run 0 --target "$T" destroy && [ ! -e "/dev/shm/fdr-$N" ]; ok $? "destroy removes the region"
run 3 --target "$T" destroy && has "no such region" "$ERR"; ok $? "destroy of a missing region: exit 3, says so"
run 0 init --embedded "$N" && printf 'garbage!' | dd of="/dev/shm/fdr-$N" conv=notrunc status=none &&
	run 3 --target "$T" status && has "not an fdr region" "$ERR" &&
	run 0 --target "$T" destroy && [ ! -e "/dev/shm/fdr-$N" ]
ok $? "a corrupted region: status refuses it, destroy removes it"
run 0 init --embedded "$N" --no-sched --buffers-per-cpu 1 && run 0 --target "$T" status && has "scheduling: *off (the embedded backend has none)" "$OUT" &&
	run 0 --target "$T" status --json && has '"sched":false' "$OUT" && has '"sched_records":0' "$OUT" && has '"sched_overwritten":0' "$OUT" &&
	run 0 --target "$T" finalize && run 0 --target "$T" reset && run 0 --target "$T" destroy
ok $? "init --no-sched accepted; status: scheduling off, its counters in --json"
run 2 --target "$T" init --no-sched=1 && run 0 init --help && has "no-sched" "$OUT"; ok $? "--no-sched takes no value; init --help names it"
# the latency trigger
state_is() { run 0 --target "$T" status --json && has "\"state\":\"$1\"" "$OUT"; }
run 0 init --embedded "$N" --buffers-per-cpu 1 --trigger-duration 10ms:#12 &&
	run 0 --target "$T" status && has "trigger: *a call of function #12 lasting 10 ms, holdoff 1000 ms" "$OUT" &&
	has "triggers: *0 fired, 0 refused" "$OUT" &&
	run 0 --target "$T" status --json && has '"trigger_ns":10000000' "$OUT" && has '"trigger_fid":12' "$OUT" && has '"trigger_holdoff_ms":1000' "$OUT"
ok $? "init --trigger-duration 10ms:#12: status shows it, default holdoff 1 s"
run 0 --target "$T" trigger && has "FINALIZED (reason trigger)" "$OUT" &&
	run 0 --target "$T" status && has "finalized by: *trigger by hand (pid [0-9]*, tid [0-9]*)" "$OUT" && has "triggers: *1 fired, 0 refused" "$OUT" &&
	run 0 --target "$T" status --json && has '"finalize_reason":"trigger"' "$OUT" && has '"triggers_fired":1' "$OUT"
ok $? "fdrctl trigger finalizes, reason TRIGGER, named in status"
run 1 --target "$T" trigger && has "cannot trigger: the recorder is FINALIZED (already finalized by a trigger" "$ERR"
ok $? "trigger of a FINALIZED region: exit 1, says so"
run 0 --target "$T" reset && run 1 --target "$T" trigger && has "run 'fdrctl init' first" "$ERR" &&
	run 0 --target "$T" init --buffers-per-cpu 1 --trigger-duration 500us --trigger-holdoff 0 &&
	run 0 --target "$T" status && has "trigger: *a call of any function lasting 500 us, holdoff 0 ms" "$OUT" &&
	run 0 --target "$T" finalize && run 0 --target "$T" reset &&
	run 0 --target "$T" init --buffers-per-cpu 1 --trigger-duration 2s:7 --trigger-holdoff 250ms &&
	run 0 --target "$T" status --json && has '"trigger_ns":2000000000' "$OUT" && has '"trigger_fid":7' "$OUT" && has '"trigger_holdoff_ms":250' "$OUT" &&
	run 0 --target "$T" trigger && run 0 --target "$T" reset
ok $? "trigger of an UNINITIALIZED region says to init; us, s, a plain id, --trigger-holdoff 0 and 250ms"
r=0
for bad in "10" "10min" "ms" "0ms" "-5ms" "10ms:" "10ms:foo" "10ms:#0" "10ms:-3" "10ms:99999999999" "99999999999999999999s"; do
	run 2 --target "$T" init --trigger-duration "$bad" && has "bad --trigger-duration '$bad'" "$ERR" && state_is UNINITIALIZED || r=1
done
run 2 --target "$T" init --trigger-duration 10 && has "give a unit" "$ERR" || r=1
run 2 --target "$T" init --trigger-duration 10ms:foo && has "does not resolve names" "$ERR" && has "fdr record" "$ERR" || r=1
ok $r "bad --trigger-duration values: exit 2, the cause, the region stays UNINITIALIZED"
r=0
for bad in "1500us" "2h" "5" "3601s" "x"; do
	run 2 --target "$T" init --trigger-duration 1ms --trigger-holdoff "$bad" && has "bad --trigger-holdoff '$bad'" "$ERR" && state_is UNINITIALIZED || r=1
done
run 2 --target "$T" init --trigger-holdoff 1500us && has "whole milliseconds" "$ERR" || r=1
run 2 --target "$T" init --trigger-holdoff 3601s && has "at most 1 hour" "$ERR" || r=1
run 0 init --help && has "does not resolve names" "$OUT" || r=1
run 0 --target "$T" destroy || r=1
ok $r "bad --trigger-holdoff values: exit 2, the cause; init --help says FUNC is an id"
# streaming mode
run 0 init --embedded "$N" --buffers-per-cpu 1 && run 0 --target "$T" status --json && has '"mode":"flight"' "$OUT" &&
	run 0 --target "$T" status && has "mode: *flight recorder" "$OUT" &&
	run 0 --target "$T" finalize && run 0 --target "$T" reset &&
	run 0 --target "$T" init --buffers-per-cpu 1 --mode stream && run 0 --target "$T" status && has "mode: *stream" "$OUT" &&
	run 0 --target "$T" status --json && has '"mode":"stream"' "$OUT"
ok $? "init: flight by default; --mode stream sets the mode status shows"
# A writer on CPU 0 that dropped 5 records, played by hand: ring 0's
# records_dropped, at rings_offset (256, right after the header) + 8.
run 0 --target "$T" status && ! grep -q "dropped per CPU" "$OUT" &&
	run 0 --target "$T" status --json && has '"records_dropped_per_cpu":{}' "$OUT" &&
	printf '\005\000\000\000\000\000\000\000' | dd of="/dev/shm/fdr-$N" bs=1 seek=264 conv=notrunc status=none &&
	run 0 --target "$T" status && has "records dropped: *5$" "$OUT" && has "dropped per CPU: *cpu 0: 5$" "$OUT" &&
	run 0 --target "$T" status --json && has '"records_dropped":5,' "$OUT" && has '"records_dropped_per_cpu":{"0":5}' "$OUT" &&
	run 0 --target "$T" finalize && run 0 --target "$T" reset
ok $? "status: per-CPU drops only when there are some, in text and JSON"
r=0
for bad in "streaming" "Stream" "" "flight,stream"; do
	run 2 --target "$T" init --mode "$bad" && has "bad --mode '$bad': 'stream' or 'flight'" "$ERR" && state_is UNINITIALIZED || r=1
done
run 2 --target "$T" init --mode && has "usage: fdrctl" "$ERR" && state_is UNINITIALIZED || r=1
run 0 init --help && has "mode stream|flight" "$OUT" || r=1
run 0 --help && has "mode stream|flight" "$OUT" || r=1
run 0 --target "$T" init --buffers-per-cpu 1 --mode stream --mode flight && run 0 --target "$T" status --json && has '"mode":"flight"' "$OUT" || r=1
run 0 --target "$T" destroy || r=1
ok $r "bad --mode values: exit 2, the cause, nothing initialized; the last --mode wins; --help names it"
r=0
for c in init finalize status reset wait destroy flush-abort trigger list; do run 0 "$c" --help && has "usage: fdrctl" "$OUT" || r=1; done
run 2 frobnicate && has "unknown command" "$ERR" || r=1
run 3 --target /nonexistent/fdr status && has "is fdr.ko loaded" "$ERR" || r=1
ok $r "--help for every command; unknown command; missing device"
r=0
run 2 --target /dev/null --session bad/x status && has "invalid session name 'bad/x'" "$ERR" || r=1
run 2 --embedded "$N" --session s1 status && has "embedded region, which has no sessions" "$ERR" || r=1
run 3 --target /dev/null --session s1 status && has "/dev/null:s1: this fdr.ko predates sessions" "$ERR" || r=1
FDR_TARGET=/nonexistent/fdr run 3 --session s1 status && has "/nonexistent/fdr: no such device" "$ERR" || r=1
run 3 --target /nonexistent/fdr list && has "is fdr.ko loaded" "$ERR" || r=1
run 1 --embedded "$N" list && has "has no sessions (it is private already)" "$ERR" || r=1
ok $r "--session: bad names, embedded targets and old devices refused with the cause; \$FDR_TARGET's device"
[ "$fails" -eq 0 ]
