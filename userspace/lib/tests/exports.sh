#!/bin/sh
# exports.sh - libfdr.so exports exactly what libfdr.map lists, every call
# <fdr.h> declares is among them, each carries its version node, and the
# soname is libfdr.so.<major of VERSION>: what a program linked today
# finds in a later build.
# usage: exports.sh OUT TOP   (TAP on stdout)
set -u
out=$1 top=$2
so=$out/libfdr.so
map=$top/userspace/lib/libfdr.map
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
check() {	# description, then a command whose success is the result
	desc=$1; shift
	n=$((n + 1))
	if "$@" >"$tmp/why" 2>&1; then
		echo "ok $n - exports: $desc"
	else
		echo "not ok $n - exports: $desc"
		sed 's/^/# /' "$tmp/why"
	fi
}
echo "1..4"

major=$(cut -d. -f1 "$top/VERSION")
soname_is() {
	got=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	[ "$got" = "libfdr.so.$major" ] || { echo "soname '$got', want libfdr.so.$major"; return 1; }
}
check "soname is libfdr.so.$major" soname_is

# The map's global names: lines of one identifier and ';' before 'local:'.
sed -n '/global:/,/local:/p' "$map" | sed -n 's/^[[:space:]]*\([A-Za-z_0-9]*\);$/\1/p' |
	LC_ALL=C sort >"$tmp/map"
nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' >"$tmp/raw"
sed 's/@.*//' "$tmp/raw" | LC_ALL=C sort -u >"$tmp/so"
same_as_map() {
	[ -s "$tmp/map" ] || { echo "no names read from $map"; return 1; }
	diff "$tmp/map" "$tmp/so" || { echo "(< only in libfdr.map, > only in libfdr.so)"; return 1; }
}
check "the .so exports exactly libfdr.map's names" same_as_map

header_calls_exported() {
	sed -n 's/^[a-z][a-z_ 0-9*]*[ *]\(fdr_[a-z_0-9]*\)(.*/\1/p' "$top/userspace/include/fdr.h" |
		LC_ALL=C sort -u >"$tmp/hdr"
	[ -s "$tmp/hdr" ] || { echo "no calls read from fdr.h"; return 1; }
	missing=$(LC_ALL=C comm -23 "$tmp/hdr" "$tmp/so")
	[ -z "$missing" ] || { echo "declared in fdr.h, not exported: $missing"; return 1; }
}
check "every call fdr.h declares is exported" header_calls_exported

versioned() {
	bad=$(grep -v '@@LIBFDR_' "$tmp/raw" || true)
	[ -z "$bad" ] || { echo "without a version node: $bad"; return 1; }
}
check "every export carries a LIBFDR_ version" versioned
