#!/bin/sh
# Extract the kselftest harness (kselftest_harness.h, kselftest.h) from
# Debian's linux-source-6.1 into build/kselftest/.  The files are GPL-2.0
# kernel sources: they are fetched at build time, never committed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dest="$top/build/kselftest"
[ -f "$dest/kselftest_harness.h" ] && [ -f "$dest/kselftest.h" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
if ! apt-get download linux-source-6.1 >/dev/null 2>&1; then
	echo "get-kselftest: cannot download linux-source-6.1 (run scripts/deps.sh, or apt-get update)" >&2
	exit 1
fi
dpkg-deb --fsys-tarfile linux-source-6.1_*.deb | tar -x ./usr/src/
tarball=$(ls usr/src/linux-source-6.1*.tar.xz)
base=$(basename "$tarball" .tar.xz)
tar -xJf "$tarball" "$base/tools/testing/selftests/kselftest_harness.h" \
	"$base/tools/testing/selftests/kselftest.h"
mkdir -p "$dest"
cp "$base/tools/testing/selftests/kselftest_harness.h" \
   "$base/tools/testing/selftests/kselftest.h" "$dest/"
echo "get-kselftest: harness in $dest"
