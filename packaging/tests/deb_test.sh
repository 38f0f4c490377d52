#!/bin/bash
# deb_test.sh - `make deb` builds the four packages with Debian's tooling,
# lintian finds no error, and each package holds what it must: read from
# the .debs themselves (dpkg-deb), not from the build tree.  Installing
# them is the guest's part (Documentation/install.md).
# usage: deb_test.sh TOP   (TAP on stdout)
set -u
top=$1
out=$top/build/deb
version=$(cat "$top/VERSION")
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
check() {	# description, command...
	local desc=$1; shift
	n=$((n + 1))
	if "$@" >"$tmp/why" 2>&1; then
		echo "ok $n - deb: $desc"
	else
		echo "not ok $n - deb: $desc"
		sed 's/^/# /' "$tmp/why" | tail -n 30
	fi
}
deb() { echo "$out/${1}_${version}_${2:-$arch}.deb"; }
# has PKG [ARCH] PATH...: every PATH (./-relative) is in PKG's data.
has() {
	local f=$1 p missing=
	shift
	dpkg-deb -c "$f" | awk '{print $6}' | sed 's/^\.//' >"$tmp/list" || return 1
	for p in "$@"; do
		grep -qx "$p" "$tmp/list" || missing="$missing $p"
	done
	[ -z "$missing" ] || { echo "missing from $(basename "$f"):$missing"; return 1; }
}

echo "1..7"
check "make deb builds the packages, lintian finds no error" \
	env -u MAKEFLAGS -u MFLAGS make -s -C "$top" deb

dkms_sources() {
	local f
	f=$(deb fdr-dkms all)
	has "$f" "/usr/src/fdr-$version/dkms.conf" "/usr/src/fdr-$version/Kbuild" \
		"/usr/src/fdr-$version/kmod/main.c" "/usr/src/fdr-$version/uapi/linux/fdr.h" || return 1
	! grep -q '\.ko' "$tmp/list" || { echo "a built module is shipped"; return 1; }
	dpkg-deb -I "$f" postinst | grep -q dkms || { echo "postinst does not run dkms"; return 1; }
}
check "fdr-dkms holds the module's sources and dkms.conf, no prebuilt module" dkms_sources

check "fdr-tools holds the tools, unit, udev rule, man pages" \
	has "$(deb fdr-tools)" /usr/bin/fdr /usr/bin/fdrd /usr/bin/fdrctl /usr/bin/fdrlog \
	/lib/systemd/system/fdrd.service /lib/udev/rules.d/60-fdr.rules \
	/usr/lib/sysusers.d/fdr.conf /usr/lib/modules-load.d/fdr.conf /etc/fdr/fdrd.conf \
	/usr/share/man/man8/fdrd.8.gz /usr/share/man/man1/fdrlog.1.gz

scripts_sound() {
	local f
	f=$(deb fdr-tools)
	dpkg-deb -I "$f" postinst >"$tmp/postinst" || return 1
	grep -q 'addgroup --system --quiet fdr' "$tmp/postinst" || { echo "postinst makes no group"; return 1; }
	grep -q 'dev_gid=' "$tmp/postinst" || { echo "postinst writes no dev_gid"; return 1; }
	grep -q 'deb-systemd-helper.*fdrd.service' "$tmp/postinst" || { echo "fdrd.service is not enabled"; return 1; }
	dpkg-deb -I "$f" postrm | grep -q 'rm -f /etc/modprobe.d/fdr.conf' || { echo "postrm leaves modprobe.d/fdr.conf"; return 1; }
	sh -n "$tmp/postinst"
}
check "fdr-tools' scripts make the group, write dev_gid, enable fdrd, clean up" scripts_sound

check "libfdr0 holds the shared library under its soname" \
	has "$(deb libfdr0)" "/usr/lib/$multiarch/libfdr.so.$version" "/usr/lib/$multiarch/libfdr.so.${version%%.*}"

dev_paths() {
	local f x
	f=$(deb libfdr-dev)
	has "$f" /usr/bin/fdr-cc /usr/bin/fdr-c++ /usr/include/fdr.h /usr/include/fdr_inline.h /usr/include/linux/fdr.h \
		"/usr/lib/$multiarch/libfdr.a" "/usr/lib/$multiarch/libfdr.so" \
		"/usr/lib/$multiarch/libfdr-xray.a" "/usr/lib/$multiarch/libfdr-cyg.a" \
		"/usr/lib/$multiarch/pkgconfig/fdr.pc" || return 1
	x=$tmp/dev
	dpkg-deb -x "$f" "$x" || return 1
	grep -qx "INPUT(/usr/lib/$multiarch/libfdr-xray-objs.a)" "$x/usr/lib/$multiarch/libfdr-xray.a" ||
		{ cat "$x/usr/lib/$multiarch/libfdr-xray.a"; return 1; }
	grep -qx "libdir=/usr/lib/$multiarch" "$x/usr/lib/$multiarch/pkgconfig/fdr.pc" ||
		{ cat "$x/usr/lib/$multiarch/pkgconfig/fdr.pc"; return 1; }
	grep -qx "installed_libdir=/usr/lib/$multiarch" "$x/usr/bin/fdr-cc" ||
		{ echo "fdr-cc does not look in /usr/lib/$multiarch"; return 1; }
}
check "libfdr-dev: headers, archives, the ld script and fdr.pc name Debian's paths" dev_paths

shlibs_declared() {
	dpkg-deb -I "$(deb libfdr0)" shlibs | grep -q "^libfdr ${version%%.*} libfdr0"
}
check "libfdr0 declares its shlibs (programs linked to it depend on it)" shlibs_declared
