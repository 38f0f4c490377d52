#!/bin/bash
# SPDX-License-Identifier: MIT
# attach_test.sh BUILD - `fdr record -p PID` on a running fdr-cc (XRay)
# program, embedded backend (TAP on stdout): ATTACH_WINDOWS attach/detach
# windows (default 10 here; the issue's 200: ATTACH_WINDOWS=200) while it
# runs, each log passing fdrlog verify and llvm-xray's fdr-dump --verify
# and holding every working thread that lived through the window; the
# program's output as untraced; after the detaches its text (sleds
# unpatched), mappings, fds, threads and signal dispositions as before;
# the latency trigger; SIGKILL of the recorder; another user refused.
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
	"$T/worker" <"$T/fifo" >"$T/worker.out" 2>&1 &
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
# fds, threads, signal dispositions.
snapshot() { # PID OUT
	{ awk '$6 !~ /worker$/ {print $1, $2, $6}' /proc/$1/maps
	  ls /proc/$1/fd | sort | tr '\n' ' '; echo
	  long_lived_tids "$1" | tr '\n' ' '; echo
	  grep -E '^Sig(Blk|Ign|Cgt)' /proc/$1/status; } >"$2"
}
# The executable's text in memory is the file's but for the sleds' tails:
# every sled starts as in the file (XRay's unpatched `jmp +9` or `ret`);
# behind it, the bytes of the last patch stay, as __xray_unpatch leaves them.
text_as_file() { # PID
	[ -s "$T/sleds.yaml" ] || llvm-xray-19 extract "$T/worker" >"$T/sleds.yaml" 2>/dev/null || return 1
	python3 - "$1" "$T/worker" "$T/sleds.yaml" <<'PY'
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
# TIDs of the threads that live as long as the program
long_lived_tids() { for t in /proc/$1/task/*; do grep -qsE '^(work|reader)' "$t/comm" && basename "$t"; done | sort; }
# TIDs of the threads named work* (the workers and main)
working_tids() { for t in /proc/$1/task/*; do grep -qs '^work' "$t/comm" && basename "$t"; done | sort; }
log_tids() { awk '$1 == "thread" {print $2}' "$1/log.xray.threads" | sort; }

cd "$T" || exit 1
check "build: fdr-cc -O2 -pthread attach_worker.c (XRay)" \
	"$B/fdr-cc" -O2 -g -pthread -o worker "$HERE/attach_worker.c"

# untraced: the reference output
start_worker; sleep 0.5; stop_worker
cp "$T/worker.out" "$T/untraced.out"
check "the untraced run prints its known output" grep -qx "main: 0 wrong results" "$T/untraced.out"

start_worker
snapshot "$PID" "$T/before"
bad=""
for i in $(seq "$WINDOWS"); do
	d=$T/w$i
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
	missing=$(comm -23 <(comm -12 <(echo "$before") <(echo "$after")) <(log_tids "$d"))
	if [ -n "$missing" ]; then
		bad="window $i: threads that worked through the window but are not in the log: $missing"; break
	fi
	if ! grep -q "^fdr record: attached to process $PID" "$d.out" ||
	   ! grep -q "^fdr record: detached from process $PID" "$d.out"; then
		bad="window $i: no attach/detach lines: $(head -c 600 "$d.out")"; break
	fi
	rm -rf "$d"
done
if [ -z "$bad" ]; then ok "$WINDOWS attach/detach windows: each log verifies (fdrlog, llvm-xray fdr-dump) and holds every working thread"
else nok "$WINDOWS attach/detach windows" "$bad"; fi

d=$T/report
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 100ms >"$d.out" 2>&1
"$B/fdr" report "$d" >"$d.report" 2>&1
"$B/fdr" replay "$d" >"$d.replay" 2>&1
check "report: calls running at the attach are counted as such, no exit without entry" \
	bash -c "grep -q 'entered before the attach' '$d.report' && ! grep -q 'ring overwrote' '$d.report'"
check "replay: calls running at the attach are marked so, never 'entry lost'" \
	bash -c "grep -q 'entered before the attach' '$d.replay' && ! grep -q 'entry lost' '$d.replay'"
check "-p: DIR keeps the program's function names (fdr-syms.xray.map, issue 37)" \
	grep -q "^[0-9]*	main	/.*/worker	0x" "$d/fdr-syms.xray.map"

snapshot "$PID" "$T/after"
check "after the detaches: mappings, fds, threads, signal dispositions as before" \
	diff "$T/before" "$T/after"
check "after the detaches: the text is the file's (sleds unpatched)" text_as_file "$PID"

d=$T/trigger
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --duration 20s --trigger 20ms:slow >"$d.out" 2>&1
check "--trigger 20ms:slow stops recording at the planted slow call" \
	grep -q "the trigger stopped recording" "$d.out"
"$B/fdr" report "$d" >"$d.report" 2>&1
check "... and its log has slow() in it" grep -qw slow "$d.report"

d=$T/stream
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 --stream --duration 200ms >"$d.out" 2>&1
check "--stream: the streamed log verifies and DIR/info says so" \
	bash -c "'$B/fdrlog' verify '$d/log.xray' && grep -q '^mode	stream' '$d/info'"

d=$T/filter
timeout 60 "$B/fdr" record -p "$PID" -o "$d" -t 0 -F mid --duration 100ms >"$d.out" 2>&1
"$B/fdr" report "$d" >"$d.report" 2>&1
check "-F mid: only mid's sleds are patched, 1 function, and only mid is in the report" \
	bash -c "grep -q ', 1 function patched' '$d.out' && grep -qw mid '$d.report' &&
		 [ -z \"\$(awk 'NR > 2 && !/^#/ && \$NF != \"mid\"' '$d.report')\" ]"

# SIGKILL of the recorder: the program stops recording by itself
d=$T/killed
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
if [ -n "$gone" ]; then ok "recorder SIGKILLed: the program ended its watcher and removed the dead recorder's region in $ms ms"
else nok "recorder SIGKILLed: the program still records after $ms ms" "$(cat /proc/$PID/task/*/comm)" "$(ls /dev/shm)"; fi
check "... and unpatched its sleds (the text is the file's)" text_as_file "$PID"
check "... and it keeps running" kill -0 "$PID"
timeout 60 "$B/fdr" record -p "$PID" -o "$T/again" -t 0 --duration 40ms >"$T/again.out" 2>&1
check "... and can be attached to again" "$B/fdrlog" verify "$T/again/log.xray"

# another user: refused, naming the rule
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$B/fdr" record -p "$PID" \
		-o /tmp/fdr-attach-nobody.$$ --duration 40ms >"$T/nobody.out" 2>&1
	rc=$?
	check "another user (nobody) is refused with exit 125, naming the ptrace rule" \
		bash -c "[ $rc = 125 ] && grep -q ptrace '$T/nobody.out' && [ ! -e /tmp/fdr-attach-nobody.$$ ]"
else
	ok "another user is refused # SKIP no setpriv"
fi

stop_worker
check "the program ends with the output it gives untraced" diff "$T/untraced.out" "$T/worker.out"

echo "1..$n"
[ "$failed" = 0 ]
