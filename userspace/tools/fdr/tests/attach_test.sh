#!/bin/bash
# SPDX-License-Identifier: MIT
# attach_test.sh BUILD - `fdr record -p PID` on a running fdr-cc program,
# XRay, --gcc and --patchable builds of it, embedded backend (TAP on
# stdout): for each,
# ATTACH_WINDOWS attach/detach
# windows (default 10 here; the issue's 200: ATTACH_WINDOWS=200) while it
# runs, each log passing fdrlog verify and llvm-xray's fdr-dump --verify
# and holding every working thread that lived through the window; the
# program's output as untraced; after the detaches its text (sleds
# unpatched; XRay), mappings, fds, threads and signal dispositions as
# before; the latency trigger; SIGKILL of the recorder; another user
# refused; -F (XRay) and --stream.  The --gcc build's hooks run on every
# call: attached, they record; detached, they skip the record path again.
# The --patchable build's nops are patched at each attach and written
# back at each detach: its text is the file's after; its first attach
# leaves the stubs' mapping and its sym-map open for the process's life
# (a frame entered while attached may return through them later), so
# its "before" is taken after that first window.  patchable_cet is the
# same worker built with -fcf-protection=full: its exported functions'
# nops follow an endbr64, across two 8-byte words, and are patched with
# every thread stopped ("stopped"); after a recorder's SIGKILL those stay
# patched (recording nothing) until the next detach writes them back.
# attach_malloc.c (XRay, --gcc, --patchable; ATTACH_MALLOC picks): a main
# thread always inside malloc, attached 5 times: the recorder must call
# in its idle reader, never hang.
set -u
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
B=$BUILD/bin
WINDOWS=${ATTACH_WINDOWS:-10}
T=$(mktemp -d /tmp/fdr-attach.XXXXXX)
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { local name=$1; shift; if "$@" >"$T/check.out" 2>&1; then ok "$name"; else nok "$name" "$(head -c 1500 "$T/check.out")"; fi; }

PID=0
cleanup() { [ "$PID" -gt 0 ] && kill "$PID" 2>/dev/null; exec 3>&- 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

# start_worker: the program runs until fd 3 (its stdin) closes
start_worker() {
	rm -f "$T/fifo"; mkfifo "$T/fifo"
	"$W/worker" <"$T/fifo" >"$W/worker.out" 2>&1 &
	PID=$!
	exec 3>"$T/fifo"
	# until every long-lived thread is there (main + reader + 4 workers)
	for _ in $(seq 100); do
		[ "$(ls /proc/$PID/task 2>/dev/null | wc -l)" -ge 6 ] && break
		sleep 0.1
	done
}
stop_worker() { exec 3>&-; wait "$PID"; local rc=$?; PID=0; return $rc; }

# What detach must leave as it was: mappings (the text's split VMAs
# joined: a patched page stays a private copy, its bytes as the file's),
# fds, threads, signal dispositions.  Not glibc's malloc arenas: the
# attach's code allocates (fdr_ctl, --patchable's tables) on whichever of
# the program's threads the recorder makes call it, and a thread's first
# malloc takes an arena of its own, which glibc keeps for the process's
# life; a thread the program starts later (the worker's, after 100
# rounds) can be that thread in any window (seen once in CI, 2026-12-06).
# What an arena looks like: userspace/testing/maps_but_arenas.awk, the
# filter fdrd's attach tests use too.
# Without it every listing would be empty, and equal: stop instead.
ARENAS_AWK=$HERE/../../../testing/maps_but_arenas.awk
[ -r "$ARENAS_AWK" ] || { echo "Bail out! no $ARENAS_AWK"; exit 1; }
maps_but_arenas() { # PID: its executable's mappings are text_as_file's
	awk -v skip='worker$' -f "$ARENAS_AWK" "/proc/$1/maps"
}
snapshot() { # PID OUT
	{ maps_but_arenas "$1"
	  ls /proc/$1/fd | sort | tr '\n' ' '; echo
	  long_lived_tids "$1" | tr '\n' ' '; echo
	  grep -E '^Sig(Blk|Ign|Cgt)' /proc/$1/status; } >"$2"
}
# The executable's text in memory is the file's but for the sleds' tails:
# every sled starts as in the file (XRay's unpatched `jmp +9` or `ret`);
# behind it, the bytes of the last patch stay, as __xray_unpatch leaves them.
# A --patchable build has no sleds: all of its text is the file's.
text_as_file() { # PID
	if [ "$flavour" = patchable ]; then
		: >"$W/sleds.yaml"
	else
		[ -s "$W/sleds.yaml" ] || llvm-xray-19 extract "$W/worker" >"$W/sleds.yaml" 2>/dev/null || return 1
	fi
	python3 - "$1" "$W/worker" "$W/sleds.yaml" <<'PY'
import re, struct, sys
pid, exe, sleds = sys.argv[1:4]
data = open(exe, "rb").read()
phoff, = struct.unpack_from("<Q", data, 32)
phnum, = struct.unpack_from("<H", data, 56)
loads = []
for i in range(phnum):
    t, flags, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", data, phoff + 56 * i)
    if t == 1:
        loads.append((vaddr, off, filesz, flags))
bias = None
for line in open(f"/proc/{pid}/maps"):
    a = line.split()
    if len(a) >= 6 and a[5].endswith("/worker") and int(a[2], 16) == 0:
        bias = int(a[0].split("-")[0], 16) - min(l[0] for l in loads if l[1] == 0)
        break
tails = set()
for m in re.finditer(r"address: 0x([0-9A-Fa-f]+),.*?kind: ([a-z-]+)", open(sleds).read()):
    a, head = int(m.group(1), 16), 1 if m.group(2) == "function-exit" else 2
    tails.update(range(a + head, a + 11))
bad = 0
with open(f"/proc/{pid}/mem", "rb") as mem:
    for vaddr, off, size, flags in loads:
        if not flags & 1:	# PF_X: the text, not the data the program writes
            continue
        mem.seek(bias + vaddr)
        try:
            got = mem.read(size)
        except OSError:
            continue
        want = data[off:off + size]
        bad += sum(1 for i, (x, y) in enumerate(zip(got, want)) if x != y and vaddr + i not in tails)
print(f"{bad} bytes of text differ from the file outside the sleds' tails")
sys.exit(1 if bad else 0)
PY
}
# The --gcc hooks' fdr__cyg_idle (1: they skip the record path), read
# from the program's memory: the symbol's address plus the load bias.
hooks_idle() { # PID
	local sym
	sym=$(nm "$W/worker" | awk '$3 == "fdr__cyg_idle" { print $1 }')
	python3 - "$1" "$sym" <<'PY'
import sys
pid, sym = sys.argv[1], int(sys.argv[2], 16)
for line in open(f"/proc/{pid}/maps"):
    a = line.split()
    if len(a) >= 6 and a[5].endswith("/worker") and int(a[2], 16) == 0:
        base = int(a[0].split("-")[0], 16)
        break
with open(f"/proc/{pid}/mem", "rb") as mem:
    mem.seek(base + sym)
    v = int.from_bytes(mem.read(4), "little")
print(f"fdr__cyg_idle is {v}")
sys.exit(0 if v == 1 else 1)
PY
}
# How many nop sites the worker lists (__patchable_function_entries, 8 bytes each)
nop_sites() {
	local size
	size=$(readelf -SW "$W/worker" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk '$1 == "__patchable_function_entries" { print $5 }')
	echo $(( 0x${size:-0} / 8 ))
}
text_not_as_file() { ! text_as_file "$1" >/dev/null; }
# TIDs of the threads that live as long as the program
long_lived_tids() { for t in /proc/$1/task/*; do grep -qsE '^(work|reader)' "$t/comm" && basename "$t"; done | sort; }
# TIDs of the threads named work* (the workers and main)
working_tids() { for t in /proc/$1/task/*; do grep -qs '^work' "$t/comm" && basename "$t"; done | sort; }
log_tids() { awk '$1 == "thread" {print $2}' "$1/log.xray.threads" | sort; }

cd "$T" || exit 1
# suite xray|gcc|patchable: every check on the worker built by fdr-cc in that mode
suite() {
local mode=$1 flag="" trig=slow flavour=$1
W=$T/$mode; mkdir -p "$W"
[ "$mode" = gcc ] && flag=--gcc
[ "$mode" = patchable ] && flag=--patchable
[ "$mode" = patchable_cet ] && flag="--patchable -fcf-protection=full" flavour=patchable
if ! "$B/fdr-cc" $flag -O2 -g -pthread -o "$W/worker" "$HERE/attach_worker.c" >"$W/build.out" 2>&1; then
	nok "$mode: build: fdr-cc $flag -O2 -pthread attach_worker.c" "$(head -c 1500 "$W/build.out")"
	return
fi
# a --gcc or --patchable build's ids are link-time addresses: the trigger takes #id
[ "$mode" != xray ] && trig=$(printf '#%d' "0x$(nm "$W/worker" | awk '$3 == "slow" { print $1 }')")

# untraced: the reference output
start_worker; sleep 0.5; stop_worker
cp "$W/worker.out" "$W/untraced.out"
check "$mode: the untraced run prints its known output" grep -qx "main: 0 wrong results" "$W/untraced.out"

start_worker
snapshot "$PID" "$W/before"
bad="" seen="" all_through=""
for i in $(seq "$WINDOWS"); do
	[ "$flavour" = patchable ] && [ "$i" = 2 ] && snapshot "$PID" "$W/before"
	d=$W/w$i
	before=$(working_tids "$PID")
	if ! timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 40ms >"$d.out" 2>&1; then
		bad="window $i: fdr record failed: $(head -c 600 "$d.out")"; break
	fi
	after=$(working_tids "$PID")
	if ! "$B/fdrlog" verify "$d/log.xray" >"$d.verify" 2>&1; then
		bad="window $i: fdrlog verify: $(head -c 600 "$d.verify")"; break
	fi
	if ! llvm-xray-19 fdr-dump --verify "$d/log.xray" >"$d.dump" 2>&1; then
		bad="window $i: llvm-xray-19 fdr-dump --verify: $(tail -c 600 "$d.dump")"; break
	fi
	# A thread that lived through the window may still not have run in
	# it on a loaded host: each window must hold working threads, and
	# every thread that worked through all windows must be in one of them.
	through=$(comm -12 <(echo "$before") <(echo "$after"))
	if [ -z "$(comm -12 <(echo "$through") <(log_tids "$d"))" ]; then
		bad="window $i: none of the working threads ($through) is in the log"; break
	fi
	all_through=$(if [ "$i" = 1 ]; then echo "$through"; else comm -12 <(echo "$all_through") <(echo "$through"); fi)
	seen=$( (echo "$seen"; log_tids "$d") | sed '/^$/d' | sort -u)
	missing=$(comm -23 <(echo "$through") <(log_tids "$d") | tr '\n' ' ')
	[ -z "$missing" ] || echo "# window $i: $missing worked through it but did not run in it (load)"
	if [ "$flavour" = patchable ] && ! grep -q " $(nop_sites) functions patched;" "$d.out"; then
		bad="window $i: not every nop site ($(nop_sites)) patched: $(head -c 600 "$d.out")"; break
	fi
	if ! grep -q "^fdr record: attached to process $PID" "$d.out" ||
	   ! grep -q "^fdr record: detached from process $PID" "$d.out"; then
		bad="window $i: no attach/detach lines: $(head -c 600 "$d.out")"; break
	fi
	rm -rf "$d"
done
missing=$(comm -23 <(echo "$all_through") <(echo "$seen") | tr '\n' ' ')
[ -n "$bad" ] || [ -z "$missing" ] ||
	bad="threads that worked through every window but are in no window's log: $missing"
if [ -z "$bad" ]; then ok "$mode: $WINDOWS attach/detach windows: each log verifies (fdrlog, llvm-xray fdr-dump) and holds working threads, every one in some window"
else nok "$mode: $WINDOWS attach/detach windows" "$bad"; fi

d=$W/report
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 100ms >"$d.out" 2>&1
"$B/fdr" report "$d" >"$d.report" 2>&1
"$B/fdr" replay "$d" >"$d.replay" 2>&1
if [ "$flavour" = patchable ]; then
	# a call running at the attach never reached a patched entry: its
	# return is not caught either, so neither end is in the log
	check "$mode: report and replay: no exit without entry" \
		bash -c "grep -q ', 0 calls entered before the attach' '$d.report' &&
			 ! grep -q 'ring overwrote' '$d.report' && ! grep -q 'entry lost' '$d.replay' &&
			 grep -qw leaf '$d.report'"
else
check "$mode: report: calls running at the attach are counted as such, no exit without entry" \
	bash -c "grep -q 'entered before the attach' '$d.report' && ! grep -q 'ring overwrote' '$d.report'"
check "$mode: replay: calls running at the attach are marked so, never 'entry lost'" \
	bash -c "grep -q 'entered before the attach' '$d.replay' && ! grep -q 'entry lost' '$d.replay'"
fi
# XRay: fdr record's map; --gcc: the program's own sym-map, copied
check "$mode: -p: DIR keeps the program's function names (fdr-syms.*.map, issue 37)" \
	bash -c "cat '$d'/fdr-syms.*.map | grep -q '^[0-9]*	main	/.*/worker[a-z_]*	0x'"

snapshot "$PID" "$W/after"
check "$mode: after the detaches: mappings, fds, threads, signal dispositions as before" \
	diff "$W/before" "$W/after"
if [ "$mode" = xray ]; then
	check "$mode: after the detaches: the text is the file's (sleds unpatched)" text_as_file "$PID"
elif [ "$flavour" = patchable ]; then
	check "$mode: after the detaches: the text is the file's (every nop written back)" text_as_file "$PID"
else
	check "$mode: after the detaches: the hooks skip the record path again, as before the first" \
		hooks_idle "$PID"
fi

d=$W/trigger
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 20s --trigger "20ms:$trig" >"$d.out" 2>&1
check "$mode: --trigger 20ms:$trig (slow) stops recording at the planted slow call" \
	grep -q "the trigger stopped recording" "$d.out"
"$B/fdr" report "$d" >"$d.report" 2>&1
check "$mode: ... and its log has slow() in it" grep -qw slow "$d.report"

d=$W/stream
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --stream --duration 200ms >"$d.out" 2>&1
check "$mode: --stream: the streamed log verifies and DIR/info says so" \
	bash -c "'$B/fdrlog' verify '$d/log.xray' && grep -q '^mode	stream' '$d/info'"

d=$W/filter
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 -F mid --duration 100ms >"$d.out" 2>&1
rc=$?
if [ "$mode" = xray ]; then
	"$B/fdr" report "$d" >"$d.report" 2>&1
	check "$mode: -F mid: only mid's sleds are patched, 1 function, and only mid is in the report" \
		bash -c "grep -q ', 1 function patched' '$d.out' && grep -qw mid '$d.report' &&
			 [ -z \"\$(awk 'NR > 2 && !/^#/ && \$NF != \"mid\"' '$d.report')\" ]"
else
	check "$mode: -F is refused (exit 125, naming XRay), nothing written" \
		bash -c "[ $rc = 125 ] && grep -q XRay '$d.out' && [ ! -e '$d' ]"
fi

# SIGKILL of the recorder: the program stops recording by itself
d=$W/killed
"$B/fdr" record -p "$PID" -o "$d" -t 0 >"$d.out" 2>&1 &
FDR=$!
for _ in $(seq 100); do grep -q "attached to" "$d.out" 2>/dev/null && break; sleep 0.05; done
kill -9 "$FDR"; wait "$FDR" 2>/dev/null
# 1 s on an idle host; the test allows 10 for a loaded one and says how long
t0=$(date +%s%N) gone=""
while [ $(( $(date +%s%N) - t0 )) -lt 10000000000 ]; do
	if ! grep -qsx fdr-watch /proc/$PID/task/*/comm &&
	   ! ls /dev/shm/fdr-record."$FDR".* >/dev/null 2>&1; then
		gone=1; break
	fi
	sleep 0.05
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ -n "$gone" ]; then ok "$mode: recorder SIGKILLed: the program ended its watcher and removed the dead recorder's region in $ms ms"
else nok "$mode: recorder SIGKILLed: the program still records after $ms ms" "$(cat /proc/$PID/task/*/comm)" "$(ls /dev/shm)"; fi
if [ "$mode" = xray ]; then
	check "$mode: ... and unpatched its sleds (the text is the file's)" text_as_file "$PID"
elif [ "$mode" = patchable ]; then
	check "$mode: ... and wrote its nops back (the text is the file's)" text_as_file "$PID"
elif [ "$mode" = patchable_cet ]; then
	check "$mode: ... and wrote back the nops it could with threads running (those after an endbr64 wait)" \
		text_not_as_file "$PID"
else
	check "$mode: ... and its hooks skip the record path again" hooks_idle "$PID"
fi
check "$mode: ... and it keeps running" kill -0 "$PID"
timeout 60 "$B/fdr" record -p "$PID" -o "$W/again" -t 0 --duration 40ms >"$W/again.out" 2>&1
check "$mode: ... and can be attached to again" "$B/fdrlog" verify "$W/again/log.xray"
[ "$mode" = patchable_cet ] &&
	check "$mode: ... whose detach writes every nop back (the text is the file's)" text_as_file "$PID"

# another user: refused, naming the rule
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$B/fdr" record -p "$PID" \
		-o /tmp/fdr-attach-nobody.$$ --duration 40ms >"$W/nobody.out" 2>&1
	rc=$?
	check "$mode: another user (nobody) is refused with exit 125, naming the ptrace rule" \
		bash -c "[ $rc = 125 ] && grep -q ptrace '$W/nobody.out' && [ ! -e /tmp/fdr-attach-nobody.$$ ]"
else
	ok "$mode: another user is refused # SKIP no setpriv"
fi

stop_worker
check "$mode: the program ends with the output it gives untraced" diff "$W/untraced.out" "$W/worker.out"

}

# A --gcc program that waits for an INIT of its own target (FDR_TARGET
# here; /dev/fdr wherever fdr.ko is loaded): the windows record into the
# recorder's region, each detach gives the wait back (quietly: it said so
# once, at its start), and an INIT of its own target then records.
# Its writers look for that INIT every 10 ms under libfdr's lock: a
# thread stopped inside it must not be made to take it again.
waiting_gcc() {
	local name=fdr-attach-wait.$$ bad="" i d
	W=$T/gcc
	rm -f "$T/fifo"; mkfifo "$T/fifo"
	FDR_TARGET=embedded:$name "$W/worker" <"$T/fifo" >"$W/waiting.out" 2>&1 &
	PID=$!
	exec 3>"$T/fifo"
	sleep 0.3
	for i in 1 2 3 4 5; do
		d=$W/wait$i
		if ! timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 40ms >"$d.out" 2>&1 ||
		   ! "$B/fdrlog" verify "$d/log.xray" >"$d.verify" 2>&1; then
			bad="window $i: $(head -c 600 "$d.out" "$d.verify" 2>/dev/null)"; break
		fi
	done
	if [ -z "$bad" ]; then ok "gcc, waiting for its own INIT: 5 windows, each log verifies"
	else nok "gcc, waiting for its own INIT: 5 windows" "$bad"; fi
	"$B/fdrctl" --embedded "$name" init >/dev/null 2>&1
	sleep 0.3
	"$B/fdrctl" --embedded "$name" finalize >/dev/null 2>&1
	"$B/fdrctl" --embedded "$name" status >"$W/waiting.status" 2>&1
	"$B/fdrctl" --embedded "$name" destroy >/dev/null 2>&1
	check "gcc, waiting: after the detaches, an INIT of its own target records (its buffers taken)" \
		bash -c "grep -Eq '^buffers acquired: *[1-9]' '$W/waiting.status' || { cat '$W/waiting.status'; false; }"
	stop_worker
	check "gcc, waiting: it said it waits once, at its start, and ends as untraced" \
		bash -c "[ \$(grep -c 'is not initialized' '$W/waiting.out') = 1 ] &&
			 [ \$(grep -c '^main: 0 wrong results\$' '$W/waiting.out') = 1 ] &&
			 ! grep -v -e 'is not initialized' -e ' 0 wrong results\$' '$W/waiting.out'"
}

# A main thread inside malloc all the time, a reader idle in read(2):
# each attach must call in the reader (fdr_attach_entry allocates: made
# to run in a thread stopped holding malloc's lock, it waited for ever,
# and fdr record with it).  Each window within 60 s, its log verified,
# the program's sums right after.
malloc_busy() { # MODE
	local mode=$1 flag="" bad="" i d
	W=$T/malloc_$mode; mkdir -p "$W"
	[ "$mode" = gcc ] && flag=--gcc
	[ "$mode" = patchable ] && flag=--patchable
	if ! "$B/fdr-cc" $flag -O2 -pthread -o "$W/worker" "$HERE/attach_malloc.c" >"$W/build.out" 2>&1; then
		nok "malloc, $mode: build" "$(head -c 1500 "$W/build.out")"; return
	fi
	rm -f "$T/fifo"; mkfifo "$T/fifo"
	"$W/worker" <"$T/fifo" >"$W/worker.out" 2>&1 &
	PID=$!
	exec 3>"$T/fifo"
	sleep 0.3
	for i in $(seq 5); do
		d=$W/w$i
		if ! timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 40ms >"$d.out" 2>&1 ||
		   ! "$B/fdrlog" verify "$d/log.xray" >"$d.verify" 2>&1; then
			bad="window $i: $(head -c 600 "$d.out" "$d.verify" 2>/dev/null)"; break
		fi
	done
	if [ -z "$bad" ]; then ok "malloc, $mode: main thread always in malloc: 5 windows, none hangs, each log verifies"
	else nok "malloc, $mode: main thread always in malloc: 5 windows" "$bad"; fi
	# a thread left inside a call would never end: bounded, then killed
	exec 3>&-
	for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
	kill -9 "$PID" 2>/dev/null && echo "# malloc, $mode: it did not end within 10 s: killed"
	wait "$PID"; PID=0
	check "malloc, $mode: ... and the program's sums are right after" \
		grep -qx "malloc: all sums right" "$W/worker.out"
}

# ATTACH_SUITES: a subset (default all four, then --gcc's waiting case)
for m in ${ATTACH_SUITES:-xray gcc patchable patchable_cet}; do suite "$m"; done
[ -x "$T/gcc/worker" ] && waiting_gcc
for m in ${ATTACH_MALLOC:-xray gcc patchable}; do malloc_busy "$m"; done

echo "1..$n"
[ "$failed" = 0 ]
