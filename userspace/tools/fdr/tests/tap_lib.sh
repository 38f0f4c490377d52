# SPDX-License-Identifier: MIT
# tap_lib.sh - what every fdr test script begins with; sourced as
#   . "$(dirname "$0")/tap_lib.sh" NAME BUILD
# Sets BUILD (absolute), HERE (the tests' directory), B, FDR, T (a scratch
# directory /tmp/fdr-NAME.*, removed at exit), the TAP counters, and
# ok/nok/check/tap_end.
set -u
BUILD=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
B=$BUILD/bin
FDR=$B/fdr
T=$(mktemp -d "/tmp/fdr-$1.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check NAME CMD...: ok when CMD succeeds, else its output as diagnostics
check() { local name=$1; shift; if "$@" >"$T/check.out" 2>&1; then ok "$name"; else nok "$name" "$(head -c 2000 "$T/check.out")"; fi; }
# the plan, and the exit status make check reads
tap_end() { echo "1..$n"; [ "$failed" = 0 ]; }
