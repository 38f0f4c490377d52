#!/bin/bash
# SPDX-License-Identifier: MIT
# fetch-source.sh [--debian-patches] PKG DEST: the source of Debian package
# PKG (the version bookworm's archive has now), unpacked into DEST/; prints
# the unpacked directory (DEST/PKG-VERSION) on stdout.
#
# apt-get source runs through a private sources list with one deb-src line
# and private package lists, so the system's apt setup is neither needed
# nor touched.  The downloaded files (.dsc, .orig.tar.*, .debian.tar.*) are
# cached in $FDR_REALPROG_CACHE (default /var/cache/fdr-realprog, else
# ~/.cache/fdr-realprog when that is not writable), under PKG/VERSION/;
# a version missing there is downloaded, one present is not.  When the
# archive cannot be reached, the newest cached version is used (and said).
# Without --debian-patches the upstream tree is unpacked as released
# (dpkg-source -x --skip-patches): the program's own build system, not
# Debian's packaging of it.
#
#   FDR_REALPROG_MIRROR   default http://deb.debian.org/debian
#   FDR_REALPROG_SUITE    default bookworm
set -eu

say() { echo "fetch-source: $*" >&2; }
die() { say "$*"; exit 1; }

patches=--skip-patches
if [ "${1:-}" = --debian-patches ]; then patches=; shift; fi
[ $# = 2 ] || { echo "usage: fetch-source.sh [--debian-patches] PKG DEST" >&2; exit 2; }
pkg=$1 dest=$2
command -v dpkg-source >/dev/null || die "dpkg-source is missing: install dpkg-dev (scripts/deps.sh test)"

cache_dir() {
	local d=${FDR_REALPROG_CACHE:-}
	if [ -n "$d" ]; then
		mkdir -p "$d" 2>/dev/null && [ -w "$d" ] || die "$d is not writable (FDR_REALPROG_CACHE)"
	else
		d=/var/cache/fdr-realprog
		mkdir -p "$d" 2>/dev/null && [ -w "$d" ] || d=${XDG_CACHE_HOME:-$HOME/.cache}/fdr-realprog
		mkdir -p "$d" || die "cannot create the cache $d"
	fi
	echo "$d"
}

cache=$(cache_dir)
apt_dir=$cache/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache"
# The archive's key, named, when it is where Debian puts it (else apt's
# trusted keys decide, as for the system's own lists).
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
signed=
[ -f "$keyring" ] && signed="[signed-by=$keyring] "
echo "deb-src $signed${FDR_REALPROG_MIRROR:-http://deb.debian.org/debian} ${FDR_REALPROG_SUITE:-bookworm} main" \
	>"$apt_dir/sources.list"
# Dir::Cache too: apt-get update would otherwise rewrite the system's
# srcpkgcache.bin from our one-line list.
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o APT::Sandbox::User=root -q)

# The archive's version of PKG's source, or "" when it cannot be reached.
archive_version() {
	apt-get "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1 || return 0
	apt-get "${apt_opts[@]}" source --print-uris "$pkg" 2>/dev/null |
		sed -n "s/^'[^']*' ${pkg}_\([^ ]*\)\.dsc .*/\1/p" | head -1
}

# download VERSION: the source files into the cache, atomically.
download() {
	local v=$1 tmp=$cache/$pkg/.tmp-$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	(cd "$tmp" && apt-get "${apt_opts[@]}" source --download-only "$pkg=$v" >download.log 2>&1) ||
		{ cat "$tmp/download.log" >&2; rm -rf "$tmp"; die "apt-get source $pkg=$v failed"; }
	rm -f "$tmp/download.log"
	rm -rf "${cache:?}/$pkg/$v" && mv "$tmp" "$cache/$pkg/$v"
}

# The versions in the cache, one a line.
cached_versions() {
	local d
	for d in "$cache/$pkg"/*/; do
		[ -d "$d" ] && basename "$d"
	done
	return 0
}

exec 9>"$cache/.lock"
flock 9
version=$(archive_version)
if [ -z "$version" ]; then
	version=$(cached_versions | sort -V | tail -1)
	[ -n "$version" ] || die "no source of $pkg: the archive is unreachable (see $apt_dir/update.log) and nothing is cached in $cache/$pkg"
	say "the archive is unreachable; using the cached $pkg $version"
elif [ ! -f "$cache/$pkg/$version/${pkg}_${version}.dsc" ]; then
	say "downloading $pkg $version into $cache/$pkg/$version"
	download "$version"
fi
upstream=${version#*:}
upstream=${upstream%-*}
out=$dest/$pkg-$upstream
rm -rf "$out"
mkdir -p "$dest"
dpkg-source $patches -x "$cache/$pkg/$version/${pkg}_${version}.dsc" "$out" >"$dest/.dpkg-source.log" 2>&1 ||
	{ cat "$dest/.dpkg-source.log" >&2; die "dpkg-source -x failed for $pkg $version"; }
echo "$out"
