# SPDX-License-Identifier: MIT
# tap.sh - the TAP helpers of fdrd's shell tests, sourced: ok, not_ok,
# check WHAT CMD..., skip WHAT WHY, diag (stdin as # lines), and tap_end,
# which prints the plan and returns the status.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/# /'; }
tap_end() { echo "1..$n"; [ "$failed" = 0 ]; }
