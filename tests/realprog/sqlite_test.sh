#!/bin/bash
# SPDX-License-Identifier: MIT
# sqlite_test.sh BUILD: a real program with indirect tail calls, sqlite3
# from Debian's source package, built by its own build system through
# fdr-cc, runs a fixed SQL workload (workload.sql) under `fdr record` at
# every threshold and streaming: its output and exit status must be the
# untraced run's.  clang keeps an indirect tail call's target in r11
# across the tail-exit sled (`jmp *%r11`); a trampoline that lost r11
# crashed it (issue 31).  TAP on stdout; Documentation/realprog.md.
set -u
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
B=$BUILD/bin
T=$(mktemp -d /tmp/fdr-sqlite.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); echo "not ok $n $1"; shift; for l in "$@"; do printf '%s\n' "$l" | head -c 4000 | sed 's/^/# /'; done; }
bail() { echo "1..$n"; exit 0; }
t0=$SECONDS

if SQLITE=$("$TOP/scripts/realprog/build-sqlite.sh" "$T/src" "$B/fdr-cc" 2>"$T/build.err"); then
	ok "build: Debian's sqlite3 source, ./configure CC=fdr-cc && make sqlite3 ($((SECONDS - t0)) s)"
else
	nok "build: Debian's sqlite3 source, ./configure CC=fdr-cc && make sqlite3" "$(cat "$T/build.err")"; bail
fi
# The class of the bug: a tail-exit sled (a 2-byte jmp over 9 bytes of
# nop) right before a jump through r11.
sites=$(objdump -d --no-show-raw-insn "$SQLITE" | grep -A2 -E '^ *[0-9a-f]+:\s+nopw\s+0x200\(%rax,%rax,1\)' |
	grep -cE 'jmp\s+\*%r11')
[ "$sites" -ge 1 ] && ok "the binary jumps through r11 right after a tail-exit sled ($sites sites)" \
	|| nok "the binary jumps through r11 right after a tail-exit sled" "$sites sites"
cd "$T" || exit 1
"$SQLITE" :memory: <"$HERE/workload.sql" >want.out 2>want.err
rc=$?
lines=$(wc -l <want.out)
[ $rc = 0 ] && [ "$lines" -ge 50 ] && ! [ -s want.err ] \
	&& ok "untraced: the workload runs ($lines lines of output)" \
	|| { nok "untraced: the workload runs" "rc=$rc, $lines lines" "$(cat want.err)"; bail; }

# run NAME FDR-RECORD-OPTIONS...: the same output and status under fdr record
run() {
	local name=$1; shift
	local t1=$SECONDS
	"$B/fdr" record -o "$T/data" "$@" -- "$SQLITE" :memory: <"$HERE/workload.sql" >got.out 2>got.err
	local rc=$?
	local summary
	summary=$(grep '^fdr record: ' got.err)
	if [ $rc = 0 ] && cmp -s got.out want.out && [ -n "$summary" ]; then
		ok "fdr record $name: the same output, status 0 ($((SECONDS - t1)) s; ${summary#fdr record: })"
	else
		nok "fdr record $name: the same output, status 0" "rc=$rc" "$(cat got.err)" \
			"$(diff want.out got.out | head -20)"
	fi
}
run "-t 0" -t 0
run "(the default threshold)"
run "-t 1us" -t 1us
run "-t 50us" -t 50us
run "--stream -t 0" --stream -t 0
run "--stream (the default threshold)" --stream
echo "# $((SECONDS - t0)) s in all"
echo "1..$n"
