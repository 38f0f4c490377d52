#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh - bench/stream: sustained streaming throughput of fdr's streaming
# mode against uftrace record and LTTng-UST in discard mode, on the bench
# harness's leaf workload, side by side in one run (README.md).  Prints
# the Markdown on stdout, progress on stderr.
#
# Needs: make (build/bin/fdr), make -C bench build (build/bench/xray-fdr,
# uftrace-pg, lttng-ust, none); builds its own stream-leaf driver.
#
# Environment:
#   BENCH_STREAM_CALLS        leaf calls per run of each tracer; default 2000000
#   BENCH_STREAM_ROUNDS       interleaved rounds; default 7
#   BENCH_STREAM_FULL_CALLS   calls of each fdr full-speed run (d); default 10000000
#   BENCH_STREAM_FULL_ROUNDS  fdr full-speed runs (d); default 3
#   BENCH_STREAM_PACE         events/s of the paced run (e); default 10000000
#   BENCH_STREAM_PACE_S       its length in seconds; default 5 (50 M events: the
#                             acceptance of issue 14)
#   BENCH_STREAM_FDR          the fdr tool to run; default build/bin/fdr
#
# A tracer that fails or crashes is reported as such; the others go on.
# Every file it writes is under one mktemp directory, removed at the end;
# it starts (and stops) its own LTTng session daemon unless one runs.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
OUT=$top/build/bench
BIN=$top/build/bin
LEAF=$OUT/stream/stream-leaf
FDR=${BENCH_STREAM_FDR:-$BIN/fdr}	# another fdr tool (tests: a stand-in)
CALLS=${BENCH_STREAM_CALLS:-2000000}
ROUNDS=${BENCH_STREAM_ROUNDS:-7}
FULL_CALLS=${BENCH_STREAM_FULL_CALLS:-10000000}
FULL_ROUNDS=${BENCH_STREAM_FULL_ROUNDS:-3}
PACE=${BENCH_STREAM_PACE:-10000000}
PACE_S=${BENCH_STREAM_PACE_S:-5}
# fdr's streaming configuration: every call (-t 0), 16 buffers of 64 KiB
# per CPU = 1 MiB per CPU, streamed to DIR/log.xray while PROG runs.
# --no-libcall: the workload's functions only, as the peers' tracepoints
# and the counts below expect; with library calls on (fdr record's
# default since issue 33) the paced run (e) recorded every
# clock_gettime(3) of stream-leaf's pacing spin, 2.5 records per event.
FDR_STREAM=(record --stream --no-libcall -t 0 -b 64K -n 16)

# The harness's calls besides the timed ones (bench/workload/harness.c):
# 20000 warm-up leaf calls, 20000/255 = 78 warm-up tree roots of 255
# calls, and (XRay, -pg: every function of workload.c is instrumented)
# workload_leaf twice and workload_tree once.
WARMUP=20000
TREE_WARMUP=$((WARMUP / 255 * 255))
# Events each tracer should hold for N timed leaf calls.
expect_hooks() { echo $((2 * ($1 + WARMUP + TREE_WARMUP))); }	# LTTng: hooks in the traced functions
expect_all() { echo $((2 * ($1 + WARMUP + TREE_WARMUP + 3))); }	# XRay, -pg: every function
expect_leaf() { echo $((2 * ($1 + WARMUP + 3))); }		# stream-leaf: no tree warm-up

TMP=$(mktemp -d /tmp/fdr-bench-stream.XXXXXX)
RAW=$TMP/raw.tsv
META=$TMP/meta.tsv
: >"$RAW"
: >"$META"
SESSIOND_PID=
log() { echo "bench/stream: [$SECONDS s] $*" >&2; }
meta() { printf '%s\t%s\n' "$1" "$2" >>"$META"; }
note() { meta "note.$1" "$2"; }

# ---- LTTng: our own session daemon, as bench/run.sh -------------------------

LTTNG_LEFTOVERS="/var/run/lttng /dev/shm/lttng-ust-wait-*"
lttng_preexisting=
lttng_start() {
	export LTTNG_HOME=$TMP/lttng-home
	mkdir -p "$LTTNG_HOME"
	lttng_preexisting=$(ls -d $LTTNG_LEFTOVERS 2>/dev/null | tr "\n" " ")
	if lttng -n list >/dev/null 2>&1; then
		log "LTTng: using the session daemon already running"
		return 0
	fi
	lttng-sessiond --no-kernel >"$TMP/lttng-sessiond.log" 2>&1 &
	SESSIOND_PID=$!
	local i
	for i in $(seq 100); do
		lttng -n list >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

lttng_stop() {
	[ -n "${LTTNG_HOME:-}" ] || return 0
	if [ -n "$SESSIOND_PID" ]; then
		kill "$SESSIOND_PID" 2>/dev/null || true
		wait "$SESSIOND_PID" 2>/dev/null || true
		SESSIOND_PID=
		local f
		for f in $(ls -d $LTTNG_LEFTOVERS 2>/dev/null || true); do
			case " $lttng_preexisting " in *" $f "*) continue ;; esac
			if [ -d "$f" ]; then rmdir "$f" 2>/dev/null || true; else rm -f "$f"; fi
		done
	fi
	unset LTTNG_HOME
}

cleanup() {
	# A session of ours still there (a run interrupted): destroy it.
	if [ -n "${LTTNG_HOME:-}" ]; then
		lttng -n list 2>/dev/null | sed -n 's/^ *[0-9]*) \(fdrstream-'$$'-[0-9]*\) .*/\1/p' |
			while read -r s; do lttng -n destroy "$s" >/dev/null 2>&1; done
	fi
	lttng_stop || true
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- helpers ----------------------------------------------------------------

now_ns() { date +%s%N; }

# why RC ERRFILE: the status of a run that did not succeed.
why() {
	local rc=$1 err=$2 last
	last=$(grep -v '^#' "$err" 2>/dev/null | grep . | tail -n1 | tr '\t' ' ' | cut -c1-160)
	if [ "$rc" -ge 128 ]; then
		echo "crashed (signal $((rc - 128))${last:+: $last})"
	elif grep -q 'terminated by signal' "$err" 2>/dev/null; then
		echo "crashed (${last#WARN: })"		# uftrace's words for it
	else
		echo "failed (exit $rc${last:+: $last})"
	fi
}

# The harness's line "WORKLOAD calls events wall_ns cpu_ns [asked]" of
# file $1 for workload $2: "events wall_ns", or nothing.
timed() { awk -v w="$2" '$1 == w && NF >= 5 { print $3, $4; exit }' "$1"; }

# row KIND ROUND CAND STATUS EXPECTED COUNTED LOST EVENTS WALL CMD BYTES [ASKED]
row() { local IFS=$'\t'; echo "$*" >>"$RAW"; }

# fdr's side table: "records dropped" (dropped "?" when the line is absent).
fdr_counts() {
	local t=$1/log.xray.threads rec drop
	rec=$(awk -F'\t' '$1 == "buffers" { for (i = 1; i < NF; i++) if ($i == "records") print $(i + 1) }' "$t" 2>/dev/null)
	drop=$(awk -F'\t' '$1 == "records_dropped" { print $2 }' "$t" 2>/dev/null)
	echo "${rec:-0} ${drop:-?}"
}

# ---- one run of each tracer -------------------------------------------------

# fdr_run KIND ROUND [CPU...]: fdr record --stream around the harness
# (main) or stream-leaf (full, paced, search: $LEAF_CALLS calls at
# $LEAF_RATE events/s, the loop on CPU $WRITER_CPU and fdr record on
# $FLUSHER_CPU).
fdr_run() {
	local kind=$1 round=$2 d=$TMP/fdr.d out=$TMP/fdr.out err=$TMP/fdr.$1.$2.err
	local t0 t1 rc st=ok expected rec drop ev wall bytes=0 asked=
	rm -rf "$d"
	t0=$(now_ns)
	if [ "$kind" = main ]; then
		"$FDR" "${FDR_STREAM[@]}" -o "$d" -- "$OUT/xray-fdr" "$CALLS" leaf >"$out" 2>"$err"
		rc=$?
		expected=$(expect_all "$CALLS")
		read -r ev wall < <(timed "$out" leaf)
	else
		taskset -c "$FLUSHER_CPU" "$FDR" "${FDR_STREAM[@]}" -o "$d" -- \
			"$LEAF" "$LEAF_CALLS" "$LEAF_RATE" "$WRITER_CPU" >"$out" 2>"$err"
		rc=$?
		expected=$(expect_leaf "$LEAF_CALLS")
		asked=$LEAF_RATE
		read -r ev wall < <(timed "$out" paced)
	fi
	t1=$(now_ns)
	[ "$rc" -eq 0 ] || st=$(why "$rc" "$err")
	[ -n "${wall:-}" ] || { [ "$st" != ok ] || st="failed (no timing line)"; ev=0 wall=0; }
	read -r rec drop < <(fdr_counts "$d")
	[ -f "$d/log.xray" ] && bytes=$(stat -c %s "$d/log.xray")
	if [ "$st" = ok ] && [ "$drop" = "?" ]; then
		st="no records_dropped line in log.xray.threads"
	elif [ "$st" = ok ] && [ "$drop" = 0 ] && [ "$rec" -lt "$expected" ]; then
		st="LOST: $rec records < $expected expected"
	elif [ "$st" = ok ] && [ "$rec" -gt $((expected + expected / 50)) ]; then
		# buffer preambles are ~0.05 %: more is events of something else
		st="EXTRA: $rec records > $expected expected + 2 % (not the workload's calls alone)"
	fi
	row "$kind" "$round" fdr "$st" "$expected" "$rec" "$drop" "$ev" "$wall" $((t1 - t0)) "$bytes" "$asked"
	rm -rf "$d"
	[ "$st" = ok ]
}

uftrace_run() {
	local round=$1 d=$TMP/uftrace.d out=$TMP/uftrace.out err=$TMP/uftrace.$1.err
	local t0 t1 rc st=ok expected ev wall bytes=0 counted=0 lost='?'
	rm -rf "$d"
	t0=$(now_ns)
	uftrace record -d "$d" "$OUT/uftrace-pg" "$CALLS" leaf >"$out" 2>"$err"
	rc=$?
	t1=$(now_ns)
	expected=$(expect_all "$CALLS")
	read -r ev wall < <(timed "$out" leaf)
	[ "$rc" -eq 0 ] || st=$(why "$rc" "$err")
	[ -n "${wall:-}" ] || { [ "$st" != ok ] || st="failed (no timing line)"; ev=0 wall=0; }
	if [ -d "$d" ]; then
		# the threads' record files (perf-cpu*.dat: its kernel events)
		bytes=$(find "$d" -maxdepth 1 -name '[0-9]*.dat' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
		if uftrace report -d "$d" >"$TMP/uftrace.report" 2>>"$err"; then
			read -r _ counted _ _ _ lost < <(python3 "$here/stream.py" uftrace-count "$TMP/uftrace.report")
		elif [ "$st" = ok ]; then
			st="failed (uftrace report: $(tail -n1 "$err"))"
		fi
	fi
	if [ "$st" = ok ] && [ "$counted" -lt "$expected" ]; then
		lost=$((expected - counted))
	fi
	row main "$round" uftrace "$st" "$expected" "$counted" "$lost" "$ev" "$wall" $((t1 - t0)) "$bytes"
	rm -rf "$d"
	[ "$st" = ok ]
}

lttng_run() {
	local round=$1 s=fdrstream-$$-$1 d=$TMP/lttng.d out=$TMP/lttng.out err=$TMP/lttng.$1.err
	local t0 t1 rc st=ok expected ev wall bytes=0 counted=0 lost='?' disc line
	rm -rf "$d"
	# A normal session writing to disk; discard mode: a full sub-buffer
	# drops the new event (counted) instead of overwriting.  4 x 256 KiB
	# per CPU: fdr's 1 MiB per CPU.
	if ! { lttng -n create "$s" --output="$d" &&
		lttng -n enable-channel -u -s "$s" --discard --subbuf-size=256K --num-subbuf=4 chan &&
		lttng -n enable-event -u -s "$s" -c chan 'fdrbench:*' &&
		lttng -n start "$s"; } >"$err" 2>&1; then
		row main "$round" lttng "failed (session set-up: $(tail -n1 "$err" | tr '\t' ' '))" 0 0 '?' 0 0 0 0
		lttng -n destroy "$s" >/dev/null 2>&1
		return 1
	fi
	t0=$(now_ns)
	"$OUT/lttng-ust" "$CALLS" leaf >"$out" 2>>"$err"
	rc=$?
	lttng -n stop "$s" >>"$err" 2>&1	# waits for the data to be on disk
	t1=$(now_ns)
	disc=$(lttng -n list "$s" 2>>"$err" | sed -n 's/^ *Discarded events: *//p' | head -n1)
	lttng -n destroy "$s" >>"$err" 2>&1
	expected=$(expect_hooks "$CALLS")
	read -r ev wall < <(timed "$out" leaf)
	[ "$rc" -eq 0 ] || st=$(why "$rc" "$err")
	[ -n "${wall:-}" ] || { [ "$st" != ok ] || st="failed (no timing line)"; ev=0 wall=0; }
	if line=$(python3 "$here/stream.py" ctf-count "$d" 2>>"$err"); then
		# events N entries N exits N discarded N bytes N packets N
		set -- $line
		counted=$2 bytes=${10}
		lost=${disc:-$8}
		[ "$8" = "${disc:-$8}" ] || lost="${disc} (packets: $8)"
	else
		# No counter for this layout: the channel's discarded count alone.
		lost=${disc:-?}
		counted=0
		bytes=$(find "$d" -type f -name 'chan_*' ! -path '*/index/*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
		note lttng_count "the trace's layout was not the one stream.py counts ($(tail -n1 "$err")): LTTng's events are its Discarded events count only"
	fi
	if [ "$st" = ok ] && [ "$counted" -gt 0 ] && [ "$counted" -lt "$expected" ] && [ "$lost" = 0 ]; then
		st="LOST: $counted events < $expected expected, none counted as discarded"
	fi
	row main "$round" lttng "$st" "$expected" "$counted" "$lost" "$ev" "$wall" $((t1 - t0)) "$bytes"
	rm -rf "$d"
	[ "$st" = ok ]
}

none_run() {
	local round=$1 out=$TMP/none.out err=$TMP/none.$1.err t0 t1 rc st=ok ev wall
	t0=$(now_ns)
	"$OUT/none" "$CALLS" leaf >"$out" 2>"$err"
	rc=$?
	t1=$(now_ns)
	[ "$rc" -eq 0 ] || st=$(why "$rc" "$err")
	read -r ev wall < <(timed "$out" leaf)
	[ -n "${wall:-}" ] || { [ "$st" != ok ] || st="failed (no timing line)"; ev=0 wall=0; }
	row main "$round" none "$st" 0 0 - "$ev" "$wall" $((t1 - t0)) 0
	[ "$st" = ok ]
}

# ---- what can run -----------------------------------------------------------

meta machine "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg) at start"
meta rounds "$ROUNDS"
meta calls "$CALLS"
meta events $((2 * CALLS))
meta lttng_counter "the trace's events counted by bench/stream/stream.py's CTF reader (babeltrace2 is not used: $(command -v babeltrace2 >/dev/null && echo 'installed, but one reader for every run' || echo 'not installed')), against 2 × the calls of the functions with tracepoints (timed and warm-up)"

declare -A status=()
for c in fdr uftrace lttng none; do status[$c]=ok; done
need() { # CAND FILE...: mark CAND not available unless every FILE is executable
	local c=$1 f
	shift
	for f; do
		[ -x "$f" ] && continue
		status[$c]="not built ($f missing: make; make -C bench build)"
		return 1
	done
}
need fdr "$FDR" "$OUT/xray-fdr"
need uftrace "$OUT/uftrace-pg" && { command -v uftrace >/dev/null || status[uftrace]="not installed (scripts/deps.sh bench)"; }
need lttng "$OUT/lttng-ust" && { command -v lttng >/dev/null || status[lttng]="not installed (scripts/deps.sh bench)"; }
need none "$OUT/none"

# Does fdr record stream?  Until it does it refuses --stream as a usage
# error (exit 2, "unrecognized option").
if [ "${status[fdr]}" = ok ]; then
	"$FDR" "${FDR_STREAM[@]}" -o "$TMP/probe" -- "$OUT/xray-fdr" 1000 leaf >"$TMP/probe.out" 2>"$TMP/probe.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "unrecognized option\|unknown option\|invalid option" "$TMP/probe.err"; then
		status[fdr]="not available: \`fdr record --stream\` is refused ($(grep -m1 . "$TMP/probe.err"))"
	elif [ "$rc" -ne 0 ]; then
		status[fdr]="not available: the probe run $(why "$rc" "$TMP/probe.err")"
	elif [ ! -f "$TMP/probe/log.xray.threads" ] || ! grep -q '^records_dropped' "$TMP/probe/log.xray.threads"; then
		note fdr_probe "the probe run of \`fdr record --stream\` wrote no records_dropped line: drops cannot be checked"
	fi
	rm -rf "$TMP/probe"
fi
if [ "${status[fdr]}" = ok ] && ! make -s -C "$here" >"$TMP/make.log" 2>&1; then
	meta fdr_alone "stream-leaf did not build ($(tail -n1 "$TMP/make.log"))"
fi
if [ "${status[lttng]}" = ok ] && ! lttng_start; then
	status[lttng]="failed (no session daemon: $(tail -n1 "$TMP/lttng-sessiond.log" 2>/dev/null))"
fi

# ---- the interleaved rounds --------------------------------------------------

cands=()
for c in fdr uftrace lttng none; do
	if [ "${status[$c]}" = ok ]; then
		cands+=("$c")
	else
		log "$c: ${status[$c]}"
	fi
done
log "$CALLS calls x $ROUNDS rounds: ${cands[*]:-nothing to run}"
declare -A failed=()
n=${#cands[@]}
for ((round = 1; round <= ROUNDS; round++)); do
	for ((i = 0; i < n; i++)); do
		c=${cands[$(((i + round - 1) % n))]}
		[ -z "${failed[$c]:-}" ] || continue
		case $c in
		fdr) fdr_run main "$round" ;;
		uftrace) uftrace_run "$round" ;;
		lttng) lttng_run "$round" ;;
		none) none_run "$round" ;;
		esac && continue
		st=$(awk -F'\t' -v c="$c" -v r="$round" '$2 == r && $3 == c { s = $4 } END { print s }' "$RAW")
		case $st in
		LOST*) log "$c lost events in round $round: $st" ;;	# measured still
		*) failed[$c]=1; status[$c]="$st (round $round)"; log "$c: $st; not run again" ;;
		esac
	done
	log "round $round/$ROUNDS done"
done
lttng_stop

# ---- fdr alone: (d) full speed, the flusher on the other CPU; (e) paced ------

if [ "${status[fdr]}" != ok ]; then
	meta fdr_alone "fdr streaming ${status[fdr]}"
elif [ -z "$(sed -n 's/^fdr_alone\t//p' "$META")" ]; then
	if [ "$(nproc)" -ge 2 ]; then
		WRITER_CPU=0 FLUSHER_CPU=1
	else
		WRITER_CPU=0 FLUSHER_CPU=0
		note cpus "one CPU only: the loop and the flusher share it"
	fi
	meta writer_cpu "$WRITER_CPU"
	meta flusher_cpu "$FLUSHER_CPU"
	LEAF_CALLS=$FULL_CALLS LEAF_RATE=0
	full_rate=0
	drops=0
	for ((r = 1; r <= FULL_ROUNDS; r++)); do
		fdr_run full "$r"
		read -r st drop ev wall < <(awk -F'\t' -v r="$r" '$1 == "full" && $2 == r { print ($4 == "ok" ? "ok" : "bad"), $7, $8, $9 }' "$RAW")
		[ "$st" = ok ] || { log "fdr full-speed run $r: not ok"; break; }
		[ "$drop" = 0 ] || drops=1
		rate=$((ev * 1000000000 / (wall > 0 ? wall : 1)))
		[ "$rate" -gt "$full_rate" ] && full_rate=$rate
		log "fdr full speed $r: $rate events/s, $drop records dropped"
		# fdr's own word on a drop: how long its stream thread waited
		# for a CPU, and its longest gap between two looks at the ring
		why=$(sed -n "s/.*stream lost .*disk (\(.*\)); more buffers.*/\1/p" "$TMP/fdr.full.$r.err")
		[ -z "$why" ] || meta "flusher_wait.$r" "$why"
		# its thread is real-time only where fdr may (stream_sched.c)
		! grep -q "stream's thread ran at normal priority" "$TMP/fdr.full.$r.err" ||
			note flusher_prio "fdr's stream thread ran at normal priority (no CAP_SYS_NICE, ulimit -r 0): drops are likely on a busy machine"
	done
	# Drops at full speed: the highest paced rate without, halving from
	# the full-speed rate (a few steps).
	if [ "$drops" = 1 ] && [ "$full_rate" -gt 0 ]; then
		LEAF_RATE=$((full_rate * 3 / 4))
		for r in 1 2 3 4 5; do
			LEAF_CALLS=$((LEAF_RATE / 2))	# one second a step
			fdr_run search "$r"
			drop=$(awk -F'\t' -v r="$r" '$1 == "search" && $2 == r { print $7 }' "$RAW")
			log "fdr paced at $LEAF_RATE events/s: $drop dropped"
			[ "$drop" = 0 ] && break
			LEAF_RATE=$((LEAF_RATE / 2))
		done
	fi
	# (e) one paced run
	LEAF_RATE=$PACE LEAF_CALLS=$((PACE / 2 * PACE_S))
	fdr_run paced 1
	log "fdr paced at $PACE events/s: done"
fi

for c in fdr uftrace lttng none; do meta "status.$c" "${status[$c]}"; done
python3 "$here/stream.py" summary "$RAW" "$META"
