#!/bin/bash
# run.sh - the `make bench` orchestrator.
#
# Runs every built candidate of build/bench/ on the same workload, in
# interleaved rounds (the order rotates each round so no candidate always
# runs first or last), then the other benchmark scripts of bench/ that
# exist, and hands everything to report.py, which prints the table and
# writes bench/results.md and bench/results.svg.
#
# Environment:
#   BENCH_CALLS   traced calls per workload (per thread for "threads");
#                 default 2000000
#   BENCH_ROUNDS  rounds; default 11
#   BENCH_SKIP_OTHERS=1  do not run the flush/reader/convert/record/xray/app/stream/attach scripts
#
# Starts its own LTTng session daemon (and stops it), writes traces only
# under a temporary directory that it removes at the end.
set -eu

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$BENCH_DIR")
OUT=$TOP/build/bench
CALLS=${BENCH_CALLS:-2000000}
ROUNDS=${BENCH_ROUNDS:-11}

# Order matters only for the first round; later rounds rotate it.
CANDIDATES=(none floor-loop clock-costs floor-hooks fdr-direct fdr-inline xray-fdr xray-llvm lttng-ust uftrace-pg)
# Scripts of the other benchmarks, each owned by its directory.
OTHER_BENCHES=(record xray flush reader convert app stream patch attach)

RESULTS=$OUT/results
RAW=$RESULTS/raw.tsv
STATUS=$RESULTS/status.tsv
META=$RESULTS/meta.tsv
LOGS=$RESULTS/logs
TMP=$(mktemp -d /tmp/fdr-bench.XXXXXX)
SESSIOND_PID=
LTTNG_SESSION=fdrbench-$$

rm -rf "$RESULTS"
mkdir -p "$RESULTS" "$LOGS"
: >"$RAW"
: >"$STATUS"
: >"$META"
START_STAMP=$RESULTS/started	# what is newer than this was written by this run
: >"$START_STAMP"

log() { echo "bench: [$SECONDS s] $*" >&2; }
meta() { printf '%s\t%s\n' "$1" "$2" >>"$META"; }
status() { printf '%s\t%s\n' "$1" "$2" >>"$STATUS"; }

# ---- LTTng: a session daemon of our own, a snapshot session ------------

# What LTTng leaves outside $TMP and existed before us (kept at the end).
LTTNG_LEFTOVERS="/var/run/lttng /dev/shm/lttng-ust-wait-*"
lttng_preexisting=

lttng_start() {
	export LTTNG_HOME=$TMP/lttng-home
	mkdir -p "$LTTNG_HOME"
	lttng_preexisting=$(ls -d $LTTNG_LEFTOVERS 2>/dev/null | tr "\n" " ")
	if lttng -n list >/dev/null 2>&1; then
		# Someone else's daemon: use it, but never stop it.
		log "LTTng: using the session daemon already running"
	else
		lttng-sessiond --no-kernel >"$LOGS/lttng-sessiond.log" 2>&1 &
		SESSIOND_PID=$!
		local i
		for i in $(seq 100); do
			lttng -n list >/dev/null 2>&1 && break
			sleep 0.1
		done
	fi
	# Snapshot mode = flight recorder: overwrite-mode ring buffers that
	# nothing consumes until a snapshot is taken.  Fewer, larger
	# sub-buffers is the LTTng manual's advice for high event rates.
	lttng -n create "$LTTNG_SESSION" --snapshot --output="$TMP/lttng-snapshot" &&
	lttng -n enable-channel -u -s "$LTTNG_SESSION" --overwrite \
		--subbuf-size=1M --num-subbuf=4 chan &&
	lttng -n enable-event -u -s "$LTTNG_SESSION" -c chan 'fdrbench:*' &&
	lttng -n start "$LTTNG_SESSION"
}

lttng_stop() {
	[ -n "${LTTNG_HOME:-}" ] || return 0
	# One snapshot, to show the session did record the events.
	if lttng -n snapshot record -s "$LTTNG_SESSION" >>"$LOGS/lttng.log" 2>&1; then
		meta lttng_snapshot_bytes "$(du -sb "$TMP/lttng-snapshot" | cut -f1)"
	fi
	lttng -n stop "$LTTNG_SESSION" >>"$LOGS/lttng.log" 2>&1 || true
	lttng -n destroy "$LTTNG_SESSION" >>"$LOGS/lttng.log" 2>&1 || true
	if [ -n "$SESSIOND_PID" ]; then
		kill "$SESSIOND_PID" 2>/dev/null || true
		wait "$SESSIOND_PID" 2>/dev/null || true
		SESSIOND_PID=
		# Our daemon is gone: remove the run directory and the
		# registration shm files the traced programs made, unless they
		# were there before.
		local f
		for f in $(ls -d $LTTNG_LEFTOVERS 2>/dev/null || true); do
			case " $lttng_preexisting " in *" $f "*) continue ;; esac
			if [ -d "$f" ]; then rmdir "$f" 2>/dev/null || true; else rm -f "$f"; fi
		done
	fi
	unset LTTNG_HOME
}

cleanup() {
	lttng_stop || true
	rm -rf "$TMP"
	# A fdr-direct run that died before its teardown leaves its region.
	local f
	for f in /dev/shm/fdr-bench-direct-*; do
		[ -e "$f" ] && [ ! -d "/proc/${f##*-}" ] && rm -f "$f"
	done
	return 0
}
trap cleanup EXIT

# ---- machine and tool versions -----------------------------------------

first_line() { "$@" 2>&1 | grep -m1 . || echo "not installed"; }
pkg_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"; }

describe_machine() {
	meta cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	meta cores "$(nproc)"
	meta hypervisor "$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor: *//p' || true)"
	meta kernel "$(uname -sr)"
	meta os "Debian $(cat /etc/debian_version 2>/dev/null || echo '?')"
	meta clocksource "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')"
	meta tsc_freq_khz "$(cat /sys/devices/system/cpu/cpu0/tsc_freq_khz 2>/dev/null || echo 'absent')"
	meta loadavg_at_start "$(cut -d' ' -f1-3 /proc/loadavg)"
	meta clang "$(first_line clang-19 --version)"
	meta llvm_xray "llvm-xray-19 $(pkg_version llvm-19)"
	meta compiler_rt "libclang-rt-19-dev $(pkg_version libclang-rt-19-dev)"
	meta lttng_tools "$(first_line lttng --version)"
	meta lttng_ust "liblttng-ust $(pkg_version liblttng-ust-dev)"
	meta uftrace "$(first_line uftrace --version)"
	meta commit "$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')"
	meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
	meta calls "$CALLS"
	meta rounds "$ROUNDS"
}

# ---- one run of one candidate ------------------------------------------

# Run candidate $1 in round $2; append its lines, prefixed with the round
# and the candidate ("round cand workload calls events wall_ns cpu_ns"),
# to $RAW.  Returns non-zero (with the reason in its log) on failure.
run_candidate() {
	local cand=$1 round=$2 bin=$OUT/$1 err=$LOGS/$1.$2.err out rc
	out=$TMP/out
	case $cand in
	none | floor-hooks | floor-loop | clock-costs | lttng-ust)
		# (LTTng: the session run.sh started records it from outside)
		"$bin" "$CALLS" >"$out" 2>"$err" ;;
	fdr-direct | fdr-inline)
		FDR_OPTIONS=func_duration_threshold_us=0 "$bin" "$CALLS" >"$out" 2>"$err" ;;
	xray-fdr)
		local target=embedded:bench-xray-$$-$round
		"$OUT/bench-region" create "$target" 2>"$err" &&
		FDR_TARGET=$target FDR_OPTIONS=func_duration_threshold_us=0 \
			XRAY_OPTIONS="patch_premain=true xray_mode=fdr" \
			"$bin" "$CALLS" >"$out" 2>>"$err"
		rc=$?
		"$OUT/bench-region" destroy "$target" 2>>"$err" || rc=1
		[ "$rc" -eq 0 ] || return 1 ;;
	xray-llvm)
		rm -rf "$TMP/xray-llvm" && mkdir -p "$TMP/xray-llvm"
		XRAY_OPTIONS="xray_logfile_base=$TMP/xray-llvm/xray-log." \
			"$bin" "$CALLS" >"$out" 2>"$err" ;;
	uftrace-pg)
		rm -rf "$TMP/uftrace.data"
		uftrace record -d "$TMP/uftrace.data" "$bin" "$CALLS" >"$out" 2>"$err"
		rc=$?
		meta "uftrace_data_bytes.$round" "$(du -sb "$TMP/uftrace.data" 2>/dev/null | cut -f1)"
		rm -rf "$TMP/uftrace.data"
		[ "$rc" -eq 0 ] || return 1 ;;
	esac || return 1
	[ -s "$out" ] || { echo "no output" >>"$err"; return 1; }
	sed "s/^/$round $cand /" "$out" >>"$RAW"
}

# Percent of all CPUs' time spent busy over the next half second.
busy_percent() {
	local a b
	a=($(sed -n 's/^cpu  //p' /proc/stat))
	sleep 0.5
	b=($(sed -n 's/^cpu  //p' /proc/stat))
	local total=0 idle i
	for i in "${!a[@]}"; do total=$((total + b[i] - a[i])); done
	idle=$((b[3] - a[3] + b[4] - a[4]))
	[ "$total" -gt 0 ] || { echo 0; return; }
	echo $(((total - idle) * 100 / total))
}

# Other work on this 2-core machine (builds, tests) skews wall-clock
# figures, the two-thread workload's most: before each round wait up to
# QUIET_WAIT_S for the CPUs to be under QUIET_BUSY_PCT busy, and record
# what it was.  QUIET_BUDGET_S caps the waiting of the whole run, to stay
# well inside make bench's 15 minutes on a machine that never goes quiet.
QUIET_BUSY_PCT=${BENCH_QUIET_BUSY_PCT:-15}
QUIET_WAIT_S=${BENCH_QUIET_WAIT_S:-20}
QUIET_BUDGET_S=${BENCH_QUIET_BUDGET_S:-60}
quiet_budget_halves=$((QUIET_BUDGET_S * 2))
wait_quiet() {
	local round=$1 busy tries=$((QUIET_WAIT_S * 2))
	busy=$(busy_percent)
	while [ "$busy" -ge "$QUIET_BUSY_PCT" ] && [ "$tries" -gt 0 ] &&
		[ "$quiet_budget_halves" -gt 0 ]; do
		busy=$(busy_percent)
		tries=$((tries - 1))
		quiet_budget_halves=$((quiet_budget_halves - 1))
	done
	meta "busy_before_round.$round" "$busy"
}

# Which clock compiler-rt's FDR mode used: its header's CycleFrequency is
# 1e9 and its "TSC" values are wall-clock nanoseconds when it fell back to
# clock_gettime(CLOCK_REALTIME).
check_xray_clock() {
	local log
	log=$(ls "$TMP"/xray-llvm/xray-log.* 2>/dev/null | head -n1) || true
	if [ -z "$log" ]; then
		meta xray_llvm_clock "unknown (no log was written)"
		return
	fi
	python3 "$BENCH_DIR/xray_clock.py" "$log" >>"$META" 2>>"$LOGS/xray_clock.err" ||
		meta xray_llvm_clock "unknown (see logs/xray_clock.err)"
}

# ---- main ----------------------------------------------------------------

describe_machine
log "machine: $(sed -n 's/^cpu\t//p' "$META"), $(nproc) cores; $CALLS calls x $ROUNDS rounds"

available=()
for c in "${CANDIDATES[@]}"; do
	if [ -x "$OUT/$c" ]; then
		available+=("$c")
	else
		status "$c" "not built"
		log "$c: not built, skipped"
	fi
done
if [[ " ${available[*]} " == *" xray-fdr "* ]] && [ ! -x "$OUT/bench-region" ]; then
	status xray-fdr "not built (bench-region missing)"
	available=("${available[@]/xray-fdr/}")
fi

if [[ " ${available[*]} " == *" lttng-ust "* ]]; then
	if ! lttng_start >"$LOGS/lttng.log" 2>&1; then
		status lttng-ust "failed: could not set up the LTTng snapshot session (logs/lttng.log)"
		available=("${available[@]/lttng-ust/}")
	fi
fi

declare -A failed=()
n=${#available[@]}
for ((round = 1; round <= ROUNDS; round++)); do
	wait_quiet "$round"
	log "round $round/$ROUNDS (CPUs $(sed -n "s/^busy_before_round.$round\t//p" "$META")% busy before it)"
	for ((i = 0; i < n; i++)); do
		c=${available[$(((i + round - 1) % n))]}
		[ -n "$c" ] || continue
		[ -z "${failed[$c]:-}" ] || continue
		if ! run_candidate "$c" "$round"; then
			failed[$c]=1
			status "$c" "failed: $(grep -v '^#' "$LOGS/$c.$round.err" | tail -n1)"
			log "$c failed in round $round; see $LOGS/$c.$round.err"
		fi
	done
done
for c in "${available[@]}"; do
	[ -n "$c" ] && [ -z "${failed[$c]:-}" ] && status "$c" ok
done
# Evidence that fdr recorded: the region counters of the last round.
for c in fdr-direct fdr-inline xray-fdr; do
	f=$LOGS/$c.$ROUNDS.err
	[ -f "$f" ] && meta "$c.region" "$(grep -m1 '^# fdr region' "$f" | sed 's/^# //')"
done
check_xray_clock
lttng_stop

# The other benchmarks, each run through its own entry point; what it
# reports goes into results.md as is.
#   bench/xray, bench/patch: `make -C bench/NAME` runs it and writes
#   bench/NAME/results.md
#   the others: bench/<name>/run.sh prints its Markdown on stdout
run_other() {
	local b=$1 dir=$BENCH_DIR/$1
	case $b in
	xray|patch)
		[ -f "$dir/Makefile" ] || { echo "missing (no bench/$b/Makefile)"; return 1; }
		log "running make -C bench/$b"
		make -C "$dir" >"$LOGS/$b.err" 2>&1 || { echo "failed (exit $?): $(tail -n1 "$LOGS/$b.err")"; return 1; }
		[ "$dir/results.md" -nt "$START_STAMP" ] || { echo "failed: bench/$b/results.md was not rewritten"; return 1; }
		cp "$dir/results.md" "$RESULTS/$b.out" ;;
	*)
		[ -f "$dir/run.sh" ] || { echo "missing (no bench/$b/run.sh)"; return 1; }
		log "running bench/$b/run.sh"
		bash "$dir/run.sh" >"$RESULTS/$b.out" 2>"$LOGS/$b.err" ||
			{ echo "failed (exit $?): $(tail -n1 "$LOGS/$b.err")"; return 1; } ;;
	esac
	echo ok
}

if [ "${BENCH_SKIP_OTHERS:-0}" != 1 ]; then
	for b in "${OTHER_BENCHES[@]}"; do
		status "bench/$b" "$(run_other "$b" || true)"
	done
fi

python3 "$BENCH_DIR/report.py" "$RESULTS" "$BENCH_DIR/results.md" "$BENCH_DIR/results.svg"
