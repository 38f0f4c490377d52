#!/bin/bash
# `make test`: dependencies, build, host tests, then ONE VM boot running
# every VM test, then host-side checks of what the VM wrote; one summary.
#
# Every result ends up as a TAP file in build/results/ (stderr and logs
# next to it), counted by scripts/tap-summary.sh, which prints the last
# line "N passed, N failed".  Exits non-zero if anything failed or nothing
# passed.  Documentation/testing.md describes the files and the counting.
#
# Environment:
#   FDR_SKIP_DEPS=1        do not run scripts/deps.sh
#   FDR_SKIP_HOST=1        no host tests (make vm-test)
#   FDR_SKIP_VM=1          no VM boot, no vm-check
#   FDR_TEST_TIMEOUT=SEC   per VM test program (default 120)
#   FDR_VM_TIMEOUT=SEC     whole VM run (default 90 + tests x per-test)
#   FDR_VM_KERNELS="..."   the kernels the VM suite boots, each with its own
#                          fdr.ko (default: "6.1 6.12 6.1-rt"; 6.1 is the
#                          default kernel, kmod/fdr.ko)
#   FDR_GUEST="..."        the full Debian guest test's scenarios
#                          (scripts/guest/test; default "6.1"; make test-full:
#                          "6.1 6.1-rt 6.12 upgrade"; "none" skips it;
#                          FDR_SKIP_VM=1 skips it too)
set -eu
# modinfo lives in /sbin, which is not on a normal user's PATH on Debian.
export PATH="$PATH:/sbin:/usr/sbin"
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# Make variables from an outer `make test SAN=1 ...` must not leak into the
# module build or the static VM builds.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

results=build/results
stage=$top/build/vm-stage
vmout=$top/build/vm-out
per_test=${FDR_TEST_TIMEOUT:-120}
start=$(date +%s)

# One run per checkout at a time: a second one would delete the first's
# results and VM stage under it.  (Commands below get "9>&-" so that
# nothing they leave running keeps holding the lock.)
mkdir -p build
exec 9>build/.run-tests.lock
if ! flock -n 9; then
	echo "== another make test is running in this checkout; waiting for it (up to 1 h)"
	flock -w 3600 9 || { echo "run-tests: build/.run-tests.lock still held after 1 h (fuser build/.run-tests.lock)" >&2; exit 1; }
fi

rm -rf "$results" "$stage" "$vmout" "$vmout"-*
mkdir -p "$results" "$stage" "$vmout"

# Results the runner itself produces (builds, crashes, timeouts, steps
# that failed without printing "not ok").
runner_tap=$results/0-runner.tap
: >"$runner_tap"
n_runner=0
result() { # result ok|fail DESCRIPTION
	n_runner=$((n_runner + 1))
	if [ "$1" = ok ]; then
		echo "ok $n_runner $2" >>"$runner_tap"
	else
		echo "not ok $n_runner $2" >>"$runner_tap"
		echo "FAILED: $2" >&2
	fi
}
# step DESCRIPTION LOGNAME COMMAND...: one pass/fail line for a command.
step() {
	local desc=$1 log=$results/$2.log
	shift 2
	local t0=$SECONDS
	echo "== $desc"
	if "$@" >"$log" 2>&1 9>&-; then
		result ok "$desc"
		echo "   ($((SECONDS - t0)) s)"
	else
		result fail "$desc (exit $?; log: $log)"
		tail -n 20 "$log" | sed 's/^/  | /' >&2
	fi
}
# has_target DIR TARGET: the component's Makefile defines TARGET (the
# convention is a rule starting a line, Documentation/layout.md).
has_target() { grep -Eq "^$2[[:space:]]*:" "$1/Makefile"; }
# name_of DIR: a file-name-friendly name for a component directory.
name_of() { local n=${1#userspace/}; echo "${n//\//-}"; }
# has_failures FILE: the TAP file has a "not ok" line.
has_failures() { grep -Eq '^[[:space:]]*not ok' "$1"; }

# 1. Dependencies and build.
if [ "${FDR_SKIP_DEPS:-0}" != 1 ]; then
	step "install dependencies (scripts/deps.sh test)" deps scripts/deps.sh test
fi
dirs=$(make -s --no-print-directory print-dirs)
step "build fdr.ko (W=1, no warnings)" build-module make -s --no-print-directory module
for d in $dirs; do
	step "build $d" "build-$(name_of "$d")" make -s --no-print-directory -C "$d"
done
step "build check of fdr.ko against the 6.12 headers" build-module-6.12 \
	make -s --no-print-directory module-6.12
step "build check of fdr.ko against the 6.1 PREEMPT_RT headers" build-module-6.1-rt \
	make -s --no-print-directory module-6.1-rt

# 2. Host tests: each component's `make check` prints TAP on stdout.
[ "${FDR_SKIP_HOST:-0}" != 1 ] || echo "== host tests skipped (FDR_SKIP_HOST=1)"
for d in $dirs; do
	[ "${FDR_SKIP_HOST:-0}" != 1 ] || break
	has_target "$d" check || continue
	name=$(name_of "$d")
	tap=$results/1-host-$name.tap
	echo "== host tests: $d"
	rc=0
	t0=$SECONDS
	make -s --no-print-directory -C "$d" check >"$tap" 2>"${tap%.tap}.err" 9>&- || rc=$?
	echo "   ($((SECONDS - t0)) s)"
	if [ "$rc" -ne 0 ] && ! has_failures "$tap"; then
		result fail "make -C $d check failed (exit $rc) without a failing test (see ${tap%.tap}.err)"
		tail -n 20 "${tap%.tap}.err" | sed 's/^/  | /' >&2
	fi
done

# 3. The VM: install every component's VM binaries and tests once, then
# boot each kernel of the matrix once with its own fdr.ko.
vm_install() {
	echo "== VM: installing tests into $stage"
	for d in $dirs; do
		has_target "$d" vm-install || continue
		log=$results/vm-install-$(name_of "$d").log
		if ! make -s --no-print-directory -C "$d" vm-install DESTDIR="$stage" >"$log" 2>&1 9>&-; then
			result fail "make -C $d vm-install failed (log: $log)"
			tail -n 20 "$log" | sed 's/^/  | /' >&2
		fi
	done
}

# vm_tests SERIES: one boot of that kernel; its results are
# 2-vm-NAME.tap for the default kernel (6.1), 2-vm@SERIES-NAME.tap for
# the others, and what it wrote to /out goes to build/vm-out[-SERIES].
vm_tests() {
	local series=$1 ko tag= vmout=$vmout kver
	case $series in
	6.1) ko=kmod/fdr.ko ;;
	*) ko=build/kmod-$series/kmod/fdr.ko; tag=@$series; vmout=$vmout-$series ;;
	esac
	rm -rf "$vmout"; mkdir -p "$vmout"
	n_tests=0
	if [ -d "$stage/tests" ]; then
		n_tests=$(find "$stage/tests" -maxdepth 1 -type f -perm -u+x | wc -l)
	fi
	if [ ! -f "$ko" ]; then
		result fail "VM $series: $ko missing (its build failed above): not booted"
		return
	fi
	kver=$(modinfo -F vermagic "$ko" | awk '{ print $1 }')
	vm_timeout=${FDR_VM_TIMEOUT:-$((90 + n_tests * per_test))}
	# guest-tests writes "# vm: running NAME" to the console before each
	# test, and each is killed after per_test: a console silent for much
	# longer means a wedged guest (scripts/vm/run --stall).
	vm_stall=$((per_test + 180))
	echo "== VM $kver: booting, $n_tests test programs (per test ${per_test}s, whole run ${vm_timeout}s)"
	console=$results/vm-console$tag.txt
	local attempt
	for attempt in 1 2; do
		vm_rc=0
		t0=$SECONDS
		scripts/vm/run --ko "$ko" --add "$stage:/" --add scripts/vm/guest-tests:/fdr/guest-tests \
			--out "$vmout" --timeout "$vm_timeout" --stall "$vm_stall" \
			-- "/fdr/guest-tests $per_test" 9>&- \
			2> >(tee "$results/vm-run$tag.err" >&2) | tee "$console" | awk '
				# Progress only; the whole stream is in $console.
				/^@@fdr-test-end .*@@$/ { sub(/@@$/, ""); printf "   vm test %-44s exit %-3s %6s s\n", $2, $3, $4; fflush(); next }
				/^@@/ { next }
				/^[ \t]*not ok/ { print "     " $0; fflush() }' || vm_rc=$?
		# A guest kernel that panics while booting, before the first test
		# (seen on 6.12 under TCG on a loaded host, in the scheduler's init),
		# says nothing about fdr: boot it once more, and say so.
		if [ "$vm_rc" != 0 ] && [ "$attempt" = 1 ] && ! grep -q '^@@fdr-test-out ' "$console" &&
		   grep -q 'Kernel panic' build/vm/last/console.log 2>/dev/null; then
			echo "   VM $kver: the guest kernel panicked at boot, before any test; booting it again"
			cp build/vm/last/console.log "$results/vm-boot-panic$tag.txt"
			continue
		fi
		# A soft lockup panics the guest: boot it once more, keep that
		# console, and say so.  A lockup of fdr's own would come back and
		# fail the second boot.  A guest wedged so hard that not even that
		# fires is stopped by the host when its console stays silent
		# (vm_rc 125): the same.  Both were seen in the module reload test
		# under multi-threaded TCG (vCPUs looping on a stale int3 at a
		# patched tracepoint, Documentation/vm.md); vm/run now runs
		# single-threaded TCG, and this stays as the safety net.
		if [ "$vm_rc" != 0 ] && [ "$attempt" = 1 ] &&
		   { [ "$vm_rc" = 125 ] || grep -q 'soft lockup - CPU#' build/vm/last/console.log 2>/dev/null; }; then
			echo "   VM $kver: the guest locked up (soft lockup or a silent console; console kept as vm-lockup$tag.txt); booting it again"
			cp build/vm/last/console.log "$results/vm-lockup$tag.txt"
			continue
		fi
		break
	done
	echo "   (VM run: $((SECONDS - t0)) s)"
	case "$vm_rc" in
	0) result ok "VM boot $kver: fdr.ko loaded, tests ran, no kernel warnings" ;;
	3) result fail "VM $kver: the guest kernel reported problems (see $results/vm-run$tag.err)" ;;
	124) result fail "VM $kver: timed out after ${vm_timeout}s" ;;
	125) result fail "VM $kver: the guest was wedged (its console silent for ${vm_stall}s), twice" ;;
	*) result fail "VM $kver run failed (exit $vm_rc, see $results/vm-run$tag.err)" ;;
	esac

	# Split the guest stream into one TAP file (and stderr file) per test.
	local prefix=2-vm$tag- status=$results/vm-exit-status$tag
	awk -v dir="$results" -v prefix="$prefix" -v status="$status" '
		/^@@fdr-test-out .*@@$/ { name = $2; sub(/@@$/, "", name); out = dir "/" prefix name ".tap"; printf "" >out; next }
		/^@@fdr-test-err .*@@$/ { name = $2; sub(/@@$/, "", name); out = dir "/" prefix name ".err"; printf "" >out; next }
		/^@@fdr-test-end .*@@$/ { sub(/@@$/, ""); print $2, $3, $4 >status; out = ""; next }
		out != "" { print >out }
	' "$console"
	touch "$status"
	for tap in "$results/$prefix"*.tap; do
		[ -e "$tap" ] || continue
		name=${tap#"$results/$prefix"}
		name=${name%.tap}
		rc=$(awk -v n="$name" '$1 == n { print $2 }' "$status")
		case "$rc" in
		'') result fail "VM $kver test $name did not finish (the VM crashed or timed out)" ;;
		0|4) ;; # 4 is kselftest's KSFT_SKIP
		124|137) result fail "VM $kver test $name was killed: timeout of ${per_test}s (or SIGKILL)" ;;
		*)
			if [ "$rc" -gt 128 ]; then
				result fail "VM $kver test $name died from signal $((rc - 128))"
			elif ! has_failures "$tap"; then
				result fail "VM $kver test $name exited $rc without a failing test"
			fi ;;
		esac
	done

	# 4. Host-side checks of what the VM wrote to /out (e.g. llvm-xray on logs).
	for d in $dirs; do
		has_target "$d" vm-check || continue
		name=$(name_of "$d")
		tap=$results/3-vmcheck$tag-$name.tap
		echo "== host checks of VM $kver output: $d"
		rc=0
		make -s --no-print-directory -C "$d" vm-check VMOUT="$vmout" >"$tap" 2>"${tap%.tap}.err" 9>&- || rc=$?
		if [ "$rc" -ne 0 ] && ! has_failures "$tap"; then
			result fail "make -C $d vm-check failed (exit $rc) without a failing test (see ${tap%.tap}.err)"
			tail -n 20 "${tap%.tap}.err" | sed 's/^/  | /' >&2
		fi
	done
}

if [ "${FDR_SKIP_VM:-0}" = 1 ]; then
	echo "== VM tests skipped (FDR_SKIP_VM=1)"
else
	vm_install
	for series in ${FDR_VM_KERNELS:-6.1 6.12 6.1-rt}; do
		vm_tests "$series"
	done
fi

# 5. The full Debian guest: make deb's packages installed with apt in a
# Debian 12 guest booted with systemd (scripts/guest/test, testing.md).
guest_scenarios=${FDR_GUEST:-6.1}
if [ "${FDR_SKIP_VM:-0}" = 1 ] || [ "$guest_scenarios" = none ]; then
	echo "== full Debian guest test skipped"
else
	t0=$SECONDS
	# its own results; a failure is already counted in them
	# shellcheck disable=SC2086
	scripts/guest/test --results "$top/$results" $guest_scenarios 9>&- || true
	echo "   (full Debian guest test: $((SECONDS - t0)) s)"
fi

end=$(date +%s)
echo
echo "== results in $results/ (took $((end - start)) s)"
exec scripts/tap-summary.sh "$results"
