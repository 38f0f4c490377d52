#!/bin/bash
# Host tests of scripts/tap-summary.sh: the counting rules make test relies
# on (Documentation/testing.md).  Prints TAP.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
summary=$top/scripts/tap-summary.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
# check NAME EXPECTED_LAST_LINE EXPECTED_EXIT: run the summary over $tmp/in
check() {
	local out rc=0 last
	n=$((n + 1))
	out=$("$summary" "$tmp/in" 2>&1) || rc=$?
	last=$(printf '%s\n' "$out" | tail -n 1)
	if [ "$last" = "$2" ] && [ "$rc" = "$3" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		echo "# expected '$2' exit $3, got '$last' exit $rc"
		fails=$((fails + 1))
	fi
}
reset_in() { rm -rf "$tmp/in"; mkdir "$tmp/in"; }

echo "1..8"

reset_in
printf 'TAP version 13\n1..3\nok 1 a\nok 2 b\nok 3 c\n' >"$tmp/in/a.tap"
check "flat TAP, all pass" "3 passed, 0 failed" 0

reset_in
printf '1..2\nok 1 a\nnot ok 2 b\n' >"$tmp/in/a.tap"
check "a not ok fails the run" "1 passed, 1 failed" 1

reset_in
printf '1..3\nok 1 a # SKIP no device\nnot ok 2 b # skip later\nnot ok 3 c # TODO\n' >"$tmp/in/a.tap"
check "SKIP and TODO are skipped; nothing passed fails the run" "0 passed, 0 failed" 1

reset_in
printf 'KTAP version 1\n1..2\n    KTAP version 1\n    1..2\n    ok 1 x\n    ok 2 y\nok 1 suite\n    not ok 1 z\nnot ok 2 suite2\n' >"$tmp/in/a.tap"
check "nested KTAP: only the innermost cases count" "2 passed, 1 failed" 1

reset_in
printf '    ok 1 a\n        ok 1 deep\n    ok 2 closes-deep\nok 1 top\n' >"$tmp/in/a.tap"
check "a line closing a deeper block is a summary" "2 passed, 0 failed" 0

reset_in
printf '# ok 1 in a comment\nnotok 1\n  # not ok 2\nok\n' >"$tmp/in/a.tap"
check "comments and near misses are ignored; a bare ok counts" "1 passed, 0 failed" 0

reset_in
printf 'ok 1 a\n' >"$tmp/in/a.tap"
printf 'not ok 1 b\n' >"$tmp/in/b.tap"
: >"$tmp/in/empty.tap"
check "counts add up over files" "1 passed, 1 failed" 1

reset_in
check "no results at all fails" "0 passed, 0 failed" 1

[ "$fails" -eq 0 ]
