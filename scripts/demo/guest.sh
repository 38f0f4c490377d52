#!/bin/sh
# The demo's guest side (busybox sh, in the VM, fdr.ko loaded by
# scripts/vm/run).  Each step prints a header, the command it runs and
# what came out; the first failing step stops the demo with its status.
# The log, fdrd's messages and the traced program's id table go to
# /out/logs, which comes back to the host.
set -u

step() { printf '\n==> %s\n' "$*"; }
# run CMD...: show and run a command; stop the demo if it fails.
run() {
	printf '$ %s\n' "$*"
	"$@"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		printf 'demo: "%s" failed with exit status %s\n' "$*" "$rc"
		exit "$rc"
	fi
}

# refused CMD...: show a command that must fail (an illegal transition)
# and its message; stop the demo if it unexpectedly succeeds.
refused() {
	printf '$ %s\n' "$*"
	"$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		printf 'demo: "%s" should have been refused\n' "$*"
		exit 1
	fi
	printf '(refused with exit status %s, as it should be)\n' "$rc"
}

need() {
	command -v "$1" >/dev/null || { echo "demo: $1 is not in the VM (its component has no vm-install yet)"; exit 1; }
}

main() {
	need fdrctl

	step "the module is loaded and /dev/fdr exists"
	run grep '^fdr ' /proc/modules
	run ls -l /dev/fdr

	step "before INIT: the recorder is UNINITIALIZED"
	run fdrctl status

	step "an illegal transition is refused and changes nothing"
	refused fdrctl finalize

	step "INIT allocates the per-CPU buffers"
	run fdrctl init
	run fdrctl status

	step "FINALIZE stops recording (fdrd would now write the log)"
	run fdrctl finalize
	run fdrctl status

	step "RESET drops the data and returns to UNINITIALIZED"
	run fdrctl reset
	run fdrctl status

	step "status as JSON, for scripts"
	run fdrctl status --json

	record_and_flush
}

# The whole story: fdrd waits, an unmodified program records, FINALIZE,
# fdrd writes the log.
record_and_flush() {
	need fdrd
	need fdrlog
	mkdir -p /out/logs

	step "a new recording: INIT, and fdrd waits for the FINALIZE"
	run fdrctl init --buffers-per-cpu 32
	printf '$ fdrd --foreground --once --output-dir /out/logs --pattern demo.<seq>.xray &\n'
	fdrd --foreground --once --output-dir /out/logs --pattern 'demo.<seq>.xray' \
		2>/out/logs/fdrd.err &
	fdrd_pid=$!

	step "a program built with gcc -finstrument-functions records (4 threads, no source change)"
	# Threshold 0 keeps every call; the default (5 us) drops short ones.
	run env FDR_SYMDIR=/out/logs FDR_OPTIONS=func_duration_threshold_us=0 /bin/workload 2000
	run fdrctl status

	step "FINALIZE: fdrd waits the grace period and writes the log with io_uring"
	run fdrctl finalize
	printf '$ wait for fdrd\n'
	wait "$fdrd_pid"
	rc=$?
	cat /out/logs/fdrd.err
	[ "$rc" -eq 0 ] || { echo "demo: fdrd exited with status $rc"; exit 1; }
	run fdrctl status
	run ls -l /out/logs
	run fdrlog verify /out/logs/demo.0.xray
	run cat /out/logs/demo.0.xray.threads

	step "RESET for the next recording"
	run fdrctl reset
}

main
