#!/bin/bash
# `make demo`: build, boot the VM with fdr.ko, drive the recorder with the
# guest-side steps of scripts/demo/guest.sh, then report on the host what
# came back in build/demo-out/.
#
# Components the demo needs are listed in DEMO_COMPONENTS; each one's
# `make vm-install` puts its static binaries into the VM.
#
# Environment: FDR_SKIP_DEPS=1 skips scripts/deps.sh.
set -eu
# modinfo lives in /sbin, which is not on a normal user's PATH on Debian.
export PATH="$PATH:/sbin:/usr/sbin"
set -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

DEMO_COMPONENTS="userspace/tools/fdrctl userspace/fdrd userspace/tools/fdrlog"
stage=$top/build/demo-stage
out=$top/build/demo-out

say() { printf '\n### %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

setup() {
	if [ "${FDR_SKIP_DEPS:-0}" != 1 ]; then
		say "checking dependencies (scripts/deps.sh demo)"
		scripts/deps.sh demo || die "installing dependencies failed (see above)"
	fi
	say "building fdr.ko and userspace"
	mkdir -p build
	if ! make -s --no-print-directory all >build/demo-build.log 2>&1; then
		tail -n 30 build/demo-build.log >&2
		die "the build failed (full log: build/demo-build.log)"
	fi
	[ -f kmod/fdr.ko ] || die "kmod/fdr.ko was not built (full log: build/demo-build.log)"
	echo "fdr.ko built for $(modinfo -F vermagic kmod/fdr.ko | awk '{ print $1 }')"
}

install_guest() {
	rm -rf "$stage" "$out"
	mkdir -p "$stage" "$out"
	local d
	for d in $DEMO_COMPONENTS; do
		[ -f "$d/Makefile" ] || die "$d is not there yet: the demo needs it"
		make -s --no-print-directory -C "$d" vm-install DESTDIR="$stage" >build/demo-install.log 2>&1 \
			|| { tail -n 20 build/demo-install.log >&2; die "make -C $d vm-install failed (log: build/demo-install.log)"; }
	done
	[ -x "$stage/bin/fdrctl" ] || die "no static fdrctl for the VM ($stage/bin/fdrctl): userspace/tools/fdrctl has no vm-install yet"
	build_workload
	cp scripts/demo/guest.sh "$stage/demo.sh"
}

# The traced program: plain C, built with -finstrument-functions and the
# adapter; static, as everything in the VM.
build_workload() {
	local cyg=build/adapters/libfdr-cyg.a lib=build/lib/libfdr.a
	[ -f "$cyg" ] && [ -f "$lib" ] || die "$cyg or $lib is missing (see build/demo-build.log)"
	mkdir -p "$stage/bin"
	gcc -static -O1 -g -finstrument-functions -o "$stage/bin/workload" \
		scripts/demo/workload.c "$cyg" "$lib" -lpthread \
		|| die "building scripts/demo/workload.c failed"
}

boot() {
	say "booting $(modinfo -F vermagic kmod/fdr.ko | awk '{ print $1 }') in qemu (TCG, ~10 s), loading fdr.ko"
	local rc=0
	scripts/vm/run --ko kmod/fdr.ko --add "$stage:/" --out "$out" -- /demo.sh || rc=$?
	[ "$rc" -eq 0 ] || die "the demo failed in the VM (exit status $rc; guest console: build/vm/last/console.log)"
}

report() {
	local log maps=() m
	say "back on the host: the log fdrd wrote in the VM"
	log=$(ls "$out"/logs/demo.*.xray 2>/dev/null | head -n 1)
	[ -n "$log" ] || die "the VM wrote no log into $out/logs"
	for m in "$out"/logs/fdr-syms.*.map; do
		[ -f "$m" ] && maps+=(--sym-map "$m")
	done
	ls -l "$out/logs"
	echo
	echo "\$ fdrlog verify $log"
	build/bin/fdrlog verify "$log" || die "fdrlog verify refused $log"
	if command -v llvm-xray-19 >/dev/null; then
		echo "\$ llvm-xray-19 fdr-dump --verify $log > /dev/null"
		llvm-xray-19 fdr-dump --verify "$log" >/dev/null || die "llvm-xray-19 refused $log"
		echo "llvm-xray-19 reads it too"
	fi
	say "per-function latency (fdrlog account)"
	build/bin/fdrlog account "${maps[@]}" --sort sum --desc "$log"
	say "the first calls of the first thread (fdrlog replay --depth 3)"
	# into a file first: with pipefail, head closing the pipe would fail the demo
	build/bin/fdrlog replay "${maps[@]}" --depth 3 "$log" >"$out/demo.replay.txt" \
		|| die "fdrlog replay failed"
	head -n 14 "$out/demo.replay.txt"
	if command -v llvm-xray-19 >/dev/null; then
		# llvm-xray account fails on most multi-threaded logs (its record
		# order; Documentation/reader.md): feed it the export instead
		say "llvm-xray-19 account, through fdrlog convert --for-llvm-xray"
		build/bin/fdrlog convert --for-llvm-xray -o "$out/demo.llvm.yaml" "$log" \
			|| die "fdrlog convert --for-llvm-xray failed"
		llvm-xray-19 account "$out/demo.llvm.yaml" >"$out/demo.llvm-account.txt" \
			|| die "llvm-xray-19 account refused the export"
		head -n 8 "$out/demo.llvm-account.txt"
	fi
	build/bin/fdrlog convert --format chrome "${maps[@]}" -o "$out/demo.chrome.json" "$log" \
		|| die "fdrlog convert --format chrome failed"
	build/bin/fdrlog flame "${maps[@]}" -o "$out/demo.svg" "$log" || die "fdrlog flame failed"
	say "done"
	echo "The log:          $log"
	echo "Who wrote it:     $log.threads"
	echo "Chrome trace:     $out/demo.chrome.json (open it in https://ui.perfetto.dev or chrome://tracing)"
	echo "Flame graph:      $out/demo.svg"
}

# One demo per checkout at a time (they share build/demo-*).
mkdir -p build
exec 9>build/.demo.lock
if ! flock -n 9; then
	echo "demo: another make demo is running in this checkout; waiting for it"
	flock 9
fi

setup
install_guest
boot
report
