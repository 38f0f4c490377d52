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

DEMO_COMPONENTS="userspace/tools/fdrctl"
stage=$top/build/demo-stage
out=$top/build/demo-out

say() { printf '\n### %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

setup() {
	if [ "${FDR_SKIP_DEPS:-0}" != 1 ]; then
		say "checking dependencies (scripts/deps.sh)"
		scripts/deps.sh || die "installing dependencies failed (see above)"
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
	cp scripts/demo/guest.sh "$stage/demo.sh"
}

boot() {
	say "booting $(modinfo -F vermagic kmod/fdr.ko | awk '{ print $1 }') in qemu (TCG, ~10 s), loading fdr.ko"
	local rc=0
	scripts/vm/run --ko kmod/fdr.ko --add "$stage:/" --out "$out" -- /demo.sh || rc=$?
	[ "$rc" -eq 0 ] || die "the demo failed in the VM (exit status $rc; guest console: build/vm/last/console.log)"
}

report() {
	say "done"
	echo "The module went UNINITIALIZED -> INITIALIZED -> FINALIZED -> UNINITIALIZED inside the VM,"
	echo "with a clean kernel log (no warnings from fdr.ko)."
	if [ -n "$(ls -A "$out")" ]; then
		echo "Files the VM wrote: $out/"
		ls -l "$out"
	fi
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
