#!/bin/bash
# build.sh - `make deb`: the Debian packages fdr-dkms, fdr-tools, libfdr0
# and libfdr-dev, built with Debian's tooling (dpkg-buildpackage,
# debhelper, dh-dkms) from a copy of the tree, then checked by lintian.
# Output: build/deb/*.deb and lintian.txt.  Documentation/install.md.
set -eu
set -o pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
version=$(cat "$top/VERSION")
out=$top/build/deb
src=$out/fdr-$version
say() { echo "deb: $*" >&2; }

for t in dpkg-buildpackage dh dh_dkms lintian; do
	command -v "$t" >/dev/null ||
		{ say "$t is missing: install dpkg-dev debhelper dh-dkms lintian (scripts/deps.sh does)"; exit 1; }
done

# The sources as a package build sees them: no build outputs.
rm -rf "$out"
mkdir -p "$src"
(cd "$top" && tar --exclude=./build --exclude=./build-san --exclude=./build-tsan \
	--exclude=./.git --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
	--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order -cf - .) |
	tar -C "$src" -xf -
cp -r "$top/packaging/deb/debian" "$src/debian"
# One version for all: the changelog's comes from VERSION.
cat >"$src/debian/changelog" <<CHANGES
fdr ($version) unstable; urgency=medium

  * Release $version (see the project's git history).

 -- fdr developers <fdr-devel@lists.example.org>  $(date -R -d @"${SOURCE_DATE_EPOCH:-$(date +%s)}")
CHANGES

say "dpkg-buildpackage in $src (log: $out/build.log)"
if ! (cd "$src" && dpkg-buildpackage -b -uc -us) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	say "the package build failed: $out/build.log"
	exit 1
fi
rm -rf "$src"
lintian --fail-on error "$out"/*.changes >"$out/lintian.txt" 2>&1 || {
	cat "$out/lintian.txt" >&2
	say "lintian found errors (above)"
	exit 1
}
say "built: $(cd "$out" && ls ./*.deb | tr '\n' ' ')"
say "lintian: no errors ($(grep -c '^W:' "$out/lintian.txt" || true) warnings in $out/lintian.txt)"
