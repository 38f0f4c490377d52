# SPDX-License-Identifier: MIT
# vm_lib.sh - sourced by fdr's VM tests (busybox sh) after they set W:
# KTAP helpers, a skip without /dev/fdr, the default region reset, and
# a fresh working directory W to run in.  Installed next to the traced
# programs (/bin/fdr-tests), not in /tests, which runs every file.
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
check() { what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }

echo "KTAP version 1"
if [ ! -c /dev/fdr ]; then
	echo "1..0 # SKIP /dev/fdr missing (fdr.ko not loaded)"
	exit 4
fi
fdrctl finalize >/dev/null 2>&1
fdrctl reset >/dev/null 2>&1
rm -rf "$W"
mkdir -p "$W"
cd "$W" || exit 1
