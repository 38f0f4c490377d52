#!/bin/bash
# install.sh - `make install` and `make uninstall` (Documentation/install.md).
#
#   packaging/install.sh install     copy the built tree into place
#   packaging/install.sh uninstall   remove exactly what install added
#
# Where things go comes from the environment, as make passes it: DESTDIR,
# PREFIX (/usr/local), BINDIR, LIBDIR, INCLUDEDIR, MANDIR, DATADIR,
# SYSCONFDIR (/etc), UDEVRULESDIR, SYSTEMDUNITDIR, SYSUSERSDIR,
# MODULESLOADDIR, DKMSDIR (/usr/src: DKMS looks nowhere else), BUILD.
#
# Every file, link and directory install makes is written to a manifest,
# $DATADIR/fdr/install-manifest, which uninstall reads back: it removes
# those, and directories only if install made them and they are empty.
# With DESTDIR empty and as root, install also sets up the system (the
# group, the module's dev_gid, DKMS, udev and systemd reloads) unless
# FDR_SYSTEM_SETUP=no; the manifest records those steps too.
set -eu
set -o pipefail

prog=install.sh
die() { echo "$prog: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

top=$(cd "$(dirname "$0")/.." && pwd)
VERSION=$(cat "$top/VERSION")
SOVERSION=${VERSION%%.*}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
SYSCONFDIR=${SYSCONFDIR:-/etc}
UDEVRULESDIR=${UDEVRULESDIR:-$PREFIX/lib/udev/rules.d}
SYSTEMDUNITDIR=${SYSTEMDUNITDIR:-$PREFIX/lib/systemd/system}
SYSUSERSDIR=${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}
MODULESLOADDIR=${MODULESLOADDIR:-$PREFIX/lib/modules-load.d}
DKMSDIR=${DKMSDIR:-/usr/src}
BUILD=${BUILD:-$top/build}
FDR_SYSTEM_SETUP=${FDR_SYSTEM_SETUP:-yes}

# What users run: the tools, and the man pages in Documentation/man/.
TOOLS="fdr fdrctl fdrd"
HEADERS="fdr.h fdr_inline.h fdr_reader.h"
UAPI_HEADERS="fdr.h fdr_flush.h fdr_log.h fdr_sched.h"
STATIC_LIBS="lib/libfdr.a adapters/libfdr-xray-objs.a adapters/libfdr-xray-cxx.a adapters/libfdr-xray-preinit.a adapters/libfdr-cyg.a
	adapters/libfdr-patchable.a adapters/libfdr-patchable-cxx.a reader/libfdrread.a"

manifest_rel=$DATADIR/fdr/install-manifest
manifest=$DESTDIR$manifest_rel
new_manifest=

# record KIND PATH: one line of the manifest (PATH without DESTDIR).
record() { printf '%s %s\n' "$1" "$2" >>"$new_manifest"; }

# mkdirs DIR: make DIR and its missing parents, recording each one made.
mkdirs() {
	local d=$1 missing=()
	while [ "$d" != / ] && [ ! -d "$DESTDIR$d" ]; do
		missing=("$d" "${missing[@]}")
		d=$(dirname "$d")
	done
	for d in "${missing[@]}"; do
		mkdir "$DESTDIR$d"
		record dir "$d"
	done
}

# put MODE SRC DEST: install one file (DEST a full path), atomically.
put() {
	local mode=$1 src=$2 dest=$3
	[ -f "$src" ] || die "$src is missing: run make first"
	mkdirs "$(dirname "$dest")"
	install -m "$mode" "$src" "$DESTDIR$dest.fdr-new"
	mv -f "$DESTDIR$dest.fdr-new" "$DESTDIR$dest"
	record file "$dest"
}

# put_text MODE DEST: install stdin as DEST.
put_text() {
	local tmp
	tmp=$(mktemp)
	cat >"$tmp"
	put "$1" "$tmp" "$2"
	rm -f "$tmp"
}

# link TARGET DEST: a symbolic link DEST -> TARGET.
link() {
	mkdirs "$(dirname "$2")"
	ln -sfn "$1" "$DESTDIR$2"
	record link "$2"
}

subst() {
	sed -e "s|@BINDIR@|$BINDIR|g" -e "s|@SYSCONFDIR@|$SYSCONFDIR|g" \
	    -e "s|@VERSION@|$VERSION|g" -e "s|@PREFIX@|$PREFIX|g" \
	    -e "s|@LIBDIR@|$LIBDIR|g" -e "s|@INCLUDEDIR@|$INCLUDEDIR|g" "$@"
}

install_tools() {
	local t m sect
	for t in $TOOLS; do
		put 0755 "$BUILD/bin/$t" "$BINDIR/$t"
	done
	# The compiler wrappers find the installed libraries, not the build's.
	sed "s|^installed_libdir=\$|installed_libdir=$LIBDIR|" "$BUILD/bin/fdr-cc" |
		put_text 0755 "$BINDIR/fdr-cc"
	grep -qx "installed_libdir=$LIBDIR" "$DESTDIR$BINDIR/fdr-cc" || die "fdr-cc: no installed_libdir line to set"
	link fdr-cc "$BINDIR/fdr-c++"
	# fdrlog is only a compatibility name of fdr (Documentation/reader.md)
	link fdr "$BINDIR/fdrlog"
	for m in "$top"/Documentation/man/*.[1-8]; do
		sect=${m##*.}
		put 0644 "$m" "$MANDIR/man$sect/$(basename "$m")"
	done
}

install_libs() {
	local l so=libfdr.so.$VERSION
	for l in $STATIC_LIBS; do
		put 0644 "$BUILD/$l" "$LIBDIR/$(basename "$l")"
	done
	put 0755 "$BUILD/lib/$so" "$LIBDIR/$so"
	link "$so" "$LIBDIR/libfdr.so.$SOVERSION"
	link "$so" "$LIBDIR/libfdr.so"
	# fdr record preloads it (library calls); it finds it in ../lib/fdr
	# of its own directory, or in $FDR_LIBDIR.  A private directory: it is
	# no library to link against (no soname).
	put 0755 "$BUILD/adapters/libfdr-plt.so" "$LIBDIR/fdr/libfdr-plt.so"
	# The XRay mode's ld script names its archive by the installed path,
	# never the build tree's (adapters/Makefile explains the script).
	printf '/* GNU ld script: the fdr XRay mode (userspace/adapters) */\nEXTERN(fdr_xray_mode_link)\nINPUT(%s)\n' \
		"$LIBDIR/libfdr-xray-objs.a" | put_text 0644 "$LIBDIR/libfdr-xray.a"
	for l in $HEADERS; do
		put 0644 "$top/userspace/include/$l" "$INCLUDEDIR/$l"
	done
	for l in $UAPI_HEADERS; do
		put 0644 "$top/uapi/linux/$l" "$INCLUDEDIR/linux/$l"
	done
	subst "$top/userspace/lib/libfdr.pc.in" | put_text 0644 "$LIBDIR/pkgconfig/fdr.pc"
}

install_system_files() {
	put 0644 "$top/packaging/fdr.rules" "$UDEVRULESDIR/60-fdr.rules"
	put 0644 "$top/packaging/modules-load.conf" "$MODULESLOADDIR/fdr.conf"
	put 0644 "$top/packaging/sysusers.conf" "$SYSUSERSDIR/fdr.conf"
	subst "$top/packaging/fdrd.service.in" | put_text 0644 "$SYSTEMDUNITDIR/fdrd.service"
	put 0644 "$top/packaging/fdrd.conf" "$SYSCONFDIR/fdr/fdrd.conf"
}

# The module's sources as DKMS builds them: Kbuild, kmod/, uapi/linux/.
install_dkms_tree() {
	local d=$DKMSDIR/fdr-$VERSION f
	subst "$top/packaging/dkms.conf.in" | put_text 0644 "$d/dkms.conf"
	put 0644 "$top/Kbuild" "$d/Kbuild"
	for f in "$top"/kmod/Kbuild "$top"/kmod/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		put 0644 "$f" "$d/kmod/$(basename "$f")"
	done
	for f in $UAPI_HEADERS; do
		put 0644 "$top/uapi/linux/$f" "$d/uapi/linux/$f"
	done
}

# The group and user, the module's dev_gid, DKMS, reloads: only on the
# live system (no DESTDIR), as root.
setup_system() {
	local gid
	[ -z "$DESTDIR" ] && [ "$FDR_SYSTEM_SETUP" != no ] || return 0
	[ "$(id -u)" = 0 ] || { say "not root: skipping the group, DKMS and service setup"; return 0; }
	# Recorded before the user, so that uninstall deletes the user first.
	if ! getent group fdr >/dev/null; then
		groupadd --system fdr
		record group fdr
	fi
	if ! getent passwd fdrd >/dev/null; then
		useradd --system -g fdr -d /var/lib/fdr -s /usr/sbin/nologin fdrd
		record user fdrd
	fi
	gid=$(getent group fdr | cut -d: -f3)
	printf '# written by fdr'"'"'s install: members of group fdr use /dev/fdr\noptions fdr dev_gid=%s dev_mode=0660\n' \
		"$gid" | put_text 0644 "$SYSCONFDIR/modprobe.d/fdr.conf"
	if command -v dkms >/dev/null; then
		if ! dkms status -m fdr -v "$VERSION" | grep -q .; then
			dkms add -m fdr -v "$VERSION" >&2
			record dkms "fdr/$VERSION"
		fi
		dkms install -m fdr -v "$VERSION" >&2 || say "dkms could not build fdr.ko: see 'dkms status' and /var/lib/dkms/fdr/$VERSION/build/make.log"
	else
		say "dkms is not installed: install it, then run 'dkms install fdr/$VERSION'"
	fi
	udevadm control --reload 2>/dev/null || :
	systemctl daemon-reload 2>/dev/null || :
	say "done; start the flush daemon with: systemctl enable --now fdrd"
}

# A failed install takes back what it had put in place: no half install.
rollback() {
	[ -n "$new_manifest" ] || return 0
	say "install failed: removing what it had installed"
	undo "$new_manifest"
	rm -f "$new_manifest"
}

do_install() {
	[ ! -e "$manifest" ] || die "$manifest exists: fdr is installed there already (make uninstall first)"
	new_manifest=$(mktemp)
	trap rollback EXIT
	[ -z "$DESTDIR" ] || mkdir -p "$DESTDIR"
	install_tools
	install_libs
	install_system_files
	install_dkms_tree
	setup_system
	mkdirs "$(dirname "$manifest_rel")"
	record file "$manifest_rel"
	install -m 0644 "$new_manifest" "$manifest"
	rm -f "$new_manifest"
	new_manifest=
	say "installed fdr $VERSION under ${DESTDIR:-}$PREFIX ($(wc -l <"$manifest") entries in $manifest_rel)"
}

# undo MANIFEST: in reverse order, files before the directories that hold
# them.
undo() {
	local kind path
	tac "$1" | while read -r kind path; do
		case $kind in
		file | link) rm -f "$DESTDIR$path" ;;
		dir) rmdir "$DESTDIR$path" 2>/dev/null || say "kept $DESTDIR$path: not empty" ;;
		dkms) dkms remove "$path" --all >&2 || say "dkms remove $path failed" ;;
		user) userdel "$path" || say "could not remove user $path" ;;
		group) groupdel "$path" || say "could not remove group $path" ;;
		*) say "unknown manifest line: $kind $path" ;;
		esac
	done
}

do_uninstall() {
	[ -f "$manifest" ] || die "no $manifest: nothing installed there by make install (same PREFIX and DESTDIR?)"
	undo "$manifest"
	say "removed fdr from ${DESTDIR:-}$PREFIX"
}

case ${1:-} in
install) do_install ;;
uninstall) do_uninstall ;;
*) echo "usage: $prog install|uninstall   (make install / make uninstall)" >&2; exit 2 ;;
esac
