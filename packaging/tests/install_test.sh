#!/bin/bash
# install_test.sh - make install / make uninstall into staging trees, and
# DKMS building fdr.ko from the installed source tree: never the live
# system (DESTDIR or a private PREFIX, DKMS with trees of its own).
# usage: install_test.sh TOP BUILD   (TAP on stdout)
set -u
# Only what each step below sets: a make's BINDIR (the build's) must not
# leak into the installs.
unset DESTDIR PREFIX BINDIR LIBDIR INCLUDEDIR DATADIR MANDIR SYSCONFDIR \
	UDEVRULESDIR SYSTEMDUNITDIR SYSUSERSDIR MODULESLOADDIR DKMSDIR FDR_SYSTEM_SETUP
top=$1 build=$2
inst=$top/packaging/install.sh
version=$(cat "$top/VERSION")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
pass() { n=$((n + 1)); echo "ok $n - install: $1"; }
fail() { n=$((n + 1)); echo "not ok $n - install: $1"; [ ! -s "$tmp/why" ] || sed 's/^/# /' "$tmp/why"; }
check() {	# description, command...: the command's success is the result
	local desc=$1; shift
	if "$@" >"$tmp/why" 2>&1; then pass "$desc"; else fail "$desc"; fi
}
# listing DIR: every path under DIR with its type and mode, sorted.
listing() { (cd "$1" && find . -printf '%y %m %p\n' | LC_ALL=C sort); }

echo "1..17"

# --- a staged install (DESTDIR), as a package build makes it ------------
d=$tmp/dest
mkdir -p "$d/usr/local/bin" "$d/etc"
echo keep >"$d/usr/local/bin/someone-elses-tool"
listing "$d" >"$tmp/before"
DESTDIR=$d BUILD=$build bash "$inst" install >"$tmp/why" 2>&1
check "a DESTDIR install succeeds" test $? = 0

p=$d/usr/local
expected_files() {
	local f missing=
	for f in bin/fdr bin/fdrctl bin/fdrd bin/fdrlog bin/fdr-cc share/man/man1/fdr.1 lib/libfdr.a "lib/libfdr.so.$version" \
		lib/libfdr-xray.a lib/libfdr-xray-objs.a lib/libfdr-xray-cxx.a lib/libfdr-xray-preinit.a lib/libfdr-cyg.a lib/libfdr-patchable.a lib/libfdr-patchable-cxx.a lib/libfdrread.a lib/fdr/libfdr-plt.so \
		include/fdr.h include/fdr_inline.h include/fdr_reader.h include/linux/fdr.h \
		include/linux/fdr_flush.h include/linux/fdr_log.h include/linux/fdr_sched.h lib/pkgconfig/fdr.pc share/man/man8/fdrd.8 \
		share/man/man8/fdrctl.8 share/man/man1/fdrlog.1 lib/udev/rules.d/60-fdr.rules \
		lib/systemd/system/fdrd.service lib/sysusers.d/fdr.conf lib/modules-load.d/fdr.conf; do
		[ -f "$p/$f" ] || missing="$missing $f"
	done
	for f in dkms.conf Kbuild kmod/Kbuild kmod/main.c kmod/fdr_dev.h kmod/sched_probe.c uapi/linux/fdr.h uapi/linux/fdr_flush.h uapi/linux/fdr_sched.h; do
		[ -f "$d/usr/src/fdr-$version/$f" ] || missing="$missing /usr/src/fdr-$version/$f"
	done
	[ -f "$d/etc/fdr/fdrd.conf" ] || missing="$missing /etc/fdr/fdrd.conf"
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
	[ -x "$p/bin/fdrd" ] || { echo "fdrd is not executable"; return 1; }
	[ "$(readlink "$p/lib/libfdr.so.${version%%.*}")" = "libfdr.so.$version" ] || { echo "soname link wrong"; return 1; }
	[ "$(readlink "$p/lib/libfdr.so")" = "libfdr.so.$version" ] || { echo "dev link wrong"; return 1; }
	[ "$(readlink "$p/bin/fdrlog")" = fdr ] || { echo "fdrlog is not fdr's compatibility link"; return 1; }
}
check "every tool, library, header, page, rule, unit and the DKMS tree is in place" expected_files

no_build_paths() {
	# Text files only (-I): the binaries' debug info may name the sources.
	if grep -rlIF "$top" "$p" "$d/usr/src"; then
		echo "a build-tree path is left in the files above"; return 1
	fi
	grep -qx "INPUT(/usr/local/lib/libfdr-xray-objs.a)" "$p/lib/libfdr-xray.a" ||
		{ cat "$p/lib/libfdr-xray.a"; return 1; }
	grep -qx 'prefix=/usr/local' "$p/lib/pkgconfig/fdr.pc" && grep -qx "Version: $version" "$p/lib/pkgconfig/fdr.pc" ||
		{ cat "$p/lib/pkgconfig/fdr.pc"; return 1; }
	grep -q '^ExecStart=/usr/local/bin/fdrd .*--config /etc/fdr/fdrd.conf' "$p/lib/systemd/system/fdrd.service" &&
		grep -qx 'ExecReload=/bin/kill -HUP $MAINPID' "$p/lib/systemd/system/fdrd.service" ||
		{ grep ExecStart "$p/lib/systemd/system/fdrd.service"; return 1; }
	grep -qx "PACKAGE_VERSION=\"$version\"" "$d/usr/src/fdr-$version/dkms.conf"
}
check "installed files name installed paths (ld script, fdr.pc, unit, dkms.conf)" no_build_paths

unit_is_sound() {
	local u=$p/lib/systemd/system/fdrd.service
	command -v systemd-analyze >/dev/null || { echo "no systemd-analyze"; return 1; }
	systemd-analyze security --offline=yes --threshold=35 "$u" >/dev/null 2>"$tmp/unit.err" || return 1
	! grep -i 'unknown\|invalid\|ignoring' "$tmp/unit.err" || return 1
	! grep -q '^ConditionPathExists' "$u" || { echo "a missing device would skip the unit silently"; return 1; }
	grep -qx 'User=fdrd' "$u" && grep -qx 'CapabilityBoundingSet=' "$u"
}
check "fdrd.service parses, runs without root or capabilities, exposure <= 3.5" unit_is_sound

check "the udev rule gives /dev/fdr to group fdr, mode 0660" \
	grep -qx 'KERNEL=="fdr", SUBSYSTEM=="misc", GROUP="fdr", MODE="0660"' "$p/lib/udev/rules.d/60-fdr.rules"

# A second install over the first is refused and changes nothing.
# refused DESTDIR BUILD MESSAGE: an install there fails, says MESSAGE and
# leaves the tree as it was.
refused() {
	listing "$1" >"$tmp/pre"
	if DESTDIR=$1 BUILD=$2 bash "$inst" install >"$tmp/out" 2>&1; then
		cat "$tmp/out"; echo "the install succeeded"; return 1
	fi
	cat "$tmp/out"
	grep -q "$3" "$tmp/out" || { echo "no '$3' in the message"; return 1; }
	listing "$1" | diff "$tmp/pre" - || { echo "the tree changed"; return 1; }
}
check "a second install is refused, naming the cause, and changes nothing" \
	refused "$d" "$build" 'installed there already'

DESTDIR=$d bash "$inst" uninstall >"$tmp/why" 2>&1
listing "$d" >"$tmp/after"
if diff "$tmp/before" "$tmp/after" >"$tmp/why"; then
	pass "uninstall removes exactly what install added (others' files kept)"
else
	fail "uninstall removes exactly what install added (others' files kept)"
fi

DESTDIR=$d bash "$inst" uninstall >"$tmp/why" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q 'nothing installed there' "$tmp/why"; then
	pass "uninstall of nothing says so and fails"
else
	fail "uninstall of nothing says so and fails"
fi

# An install that fails half-way leaves nothing behind.
mkdir -p "$tmp/partial/bin"
cp -a "$build/lib" "$build/adapters" "$build/reader" "$tmp/partial/"
cp -a "$build/bin/." "$tmp/partial/bin/"
rm "$tmp/partial/bin/fdrd"
d2=$tmp/dest2
mkdir -p "$d2"
check "a failed install names the missing file and leaves no partial install" \
	refused "$d2" "$tmp/partial" 'fdrd is missing'

# --- a private PREFIX: what was installed links and runs ----------------
pre=$tmp/prefix
PREFIX=$pre SYSCONFDIR=$pre/etc DKMSDIR=$pre/src BUILD=$build FDR_SYSTEM_SETUP=no \
	bash "$inst" install >"$tmp/why" 2>&1
check "an install into a private PREFIX succeeds" test $? = 0

cat >"$tmp/use.c" <<'SRC'
#include <fdr.h>
#include <stdio.h>
int main(void)
{
	printf("%s\n", fdr_state_name(FDR_STATE_INITIALIZED));
	return 0;
}
SRC
pcflags() { PKG_CONFIG_PATH=$pre/lib/pkgconfig pkg-config "$@" fdr; }
linked_shared() {
	cc -Werror $(pcflags --cflags) -o "$tmp/use" "$tmp/use.c" $(pcflags --libs) || return 1
	readelf -d "$tmp/use" | grep -q "NEEDED.*\[libfdr.so.${version%%.*}\]" || { echo "not linked to the soname"; return 1; }
	[ "$(LD_LIBRARY_PATH=$pre/lib "$tmp/use")" = INITIALIZED ]
}
check "a program builds with pkg-config fdr, links the soname and runs" linked_shared

linked_xray() {
	command -v clang-19 >/dev/null || { echo "no clang-19"; return 1; }
	grep -qx "INPUT($pre/lib/libfdr-xray-objs.a)" "$pre/lib/libfdr-xray.a" || { cat "$pre/lib/libfdr-xray.a"; return 1; }
	clang-19 -fxray-instrument -I"$pre/include" -o "$tmp/xr" "$tmp/use.c" \
		-L"$pre/lib" -l:libfdr-xray.a -l:libfdr.a -lpthread || return 1
	nm "$tmp/xr" | grep -q fdr_xray_mode_link || { echo "the XRay mode was not linked in"; return 1; }
}
check "an XRay program links the installed fdr XRay mode by its ld script" linked_xray

cat >"$tmp/traced.c" <<'SRC'
int leaf(int x) { return x * 3; }
int main(void) { return leaf(1) == 3 ? 0 : 1; }
SRC
wrapper_installed() {
	"$pre/bin/fdr-cc" -o "$tmp/traced" "$tmp/traced.c" || return 1
	nm "$tmp/traced" | grep -q fdr_xray_mode_link || { echo "fdr-cc linked no XRay mode"; return 1; }
	"$pre/bin/fdr-c++" --gcc -x c -o "$tmp/traced-gcc" "$tmp/traced.c" || return 1
	nm "$tmp/traced-gcc" | grep -q __cyg_profile_func_enter || { echo "fdr-c++ --gcc linked no hooks"; return 1; }
	"$tmp/traced" && "$tmp/traced-gcc"
}
check "the installed fdr-cc and fdr-c++ link the installed libraries" wrapper_installed

recorded_installed() {
	(cd "$tmp" && "$pre/bin/fdr" record --threshold 0 -o "$tmp/rec.data" -- "$tmp/traced") || return 1
	"$pre/bin/fdr" report --json "$tmp/rec.data" >"$tmp/rep.json" || return 1
	grep -q '"name": *"leaf"' "$tmp/rep.json" || { cat "$tmp/rep.json"; return 1; }
}
check "the installed fdr records the program and reports leaf by name" recorded_installed

# an uninstrumented program: the installed fdr finds the installed libfdr-plt.so
libcalls_installed() {
	(cd "$tmp" && "$pre/bin/fdr" record --threshold 0 -o "$tmp/lc.data" -- /bin/true --version >/dev/null) || return 1
	"$pre/bin/fdr" report --json "$tmp/lc.data" >"$tmp/lc.json" || return 1
	grep -q '"name": *"setlocale"' "$tmp/lc.json" || { cat "$tmp/lc.json"; return 1; }
}
check "the installed fdr records an uninstrumented program's library calls" libcalls_installed

emptied() {
	PREFIX=$pre bash "$inst" uninstall || return 1
	[ ! -e "$pre" ] || [ -z "$(find "$pre" -mindepth 1)" ] || { find "$pre"; return 1; }
}
check "uninstall from the private PREFIX leaves it empty" emptied

# --- DKMS builds fdr.ko from the installed tree, for each kernel --------
dkms_builds() {	# KVER
	local k=$1 ko
	command -v dkms >/dev/null || { echo "dkms is not installed (scripts/packages.d/install.txt)"; return 1; }
	[ -d "/lib/modules/$k/build" ] || { echo "no headers for $k"; return 1; }
	rm -rf "$tmp/dk"; mkdir -p "$tmp/dk/src" "$tmp/dk/tree" "$tmp/dk/inst"
	DESTDIR=$tmp/dk/stage BUILD=$build FDR_SYSTEM_SETUP=no bash "$inst" install >/dev/null || return 1
	cp -r "$tmp/dk/stage/usr/src/fdr-$version" "$tmp/dk/src/"
	dkms build -m fdr -v "$version" -k "$k" --sourcetree "$tmp/dk/src" \
		--dkmstree "$tmp/dk/tree" --installtree "$tmp/dk/inst" || return 1
	ko=$tmp/dk/tree/fdr/$version/$k/x86_64/module/fdr.ko
	[ -f "$ko" ] || ko=$ko.xz
	[ -f "$ko" ] || { echo "no fdr.ko from dkms"; find "$tmp/dk/tree"; return 1; }
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$k" ] || { modinfo "$ko"; return 1; }
}
k61=$("$top/scripts/default-kver")
check "dkms builds fdr.ko for $k61 from the installed tree" dkms_builds "$k61"
k612=$(ls -d /lib/modules/6.12.*/build 2>/dev/null | sort -V | tail -n 1 | cut -d/ -f4)
if [ -n "$k612" ]; then
	check "dkms builds fdr.ko for $k612 from the installed tree" dkms_builds "$k612"
else
	n=$((n + 1)); echo "ok $n - install: dkms build for 6.12 # SKIP no 6.12 headers installed"
fi
