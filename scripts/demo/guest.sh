#!/bin/sh
# The demo's guest side (busybox sh, in the VM, fdr.ko loaded by
# scripts/vm/run).  Each step prints a header, the command it runs and
# what came out; the first failing step stops the demo with its status.
# Add steps at the end of main (issue 5: fdrd, a traced program, the log
# copied to /out for the host to read).
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
}

main
