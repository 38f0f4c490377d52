#!/bin/bash
# SPDX-License-Identifier: MIT
# fast_regs.sh OBJ [FUNC...]: the trampolines keep only their call's
# registers around the common-case calls - xray_fast.c's (the default
# FUNCs; xray_tramp_x86_64.S) - which is right only if each of them
# calls nothing and touches no vector or x87 register.
# Checks the compiled object's disassembly; TAP on stdout.
set -u
obj=$1
shift
[ $# -gt 0 ] || set -- fdr__xray_try_tail
n=0 fail=0
# A call or a jump to a function (in an object not linked yet, a PLT32
# relocation), or a vector or x87 register.
CALLS_OR_VECTORS='\bcall|R_X86_64_PLT32|%[xyz]mm|%st\b'
body_of() { objdump -dr --no-show-raw-insn "$1" | sed -n "/<$2>:/,/^\$/p"; }
for f in "$@"; do
	n=$((n + 1))
	body=$(body_of "$obj" "$f")
	bad=$(printf '%s\n' "$body" | grep -E "$CALLS_OR_VECTORS" || true)
	if [ -z "$body" ]; then
		echo "not ok $n - $f is in $obj"; fail=1
	elif [ -n "$bad" ]; then
		echo "not ok $n - $f calls nothing and uses no vector or x87 register"
		printf '%s\n' "$bad" | sed 's/^/# /'; fail=1
	else
		echo "ok $n - $f calls nothing and uses no vector or x87 register"
	fi
done
# The check can fail: the general handler calls libfdr.
n=$((n + 1))
if body_of "$(dirname "$obj")/xray_mode.o" fdr__xray_fast_event | grep -qE "$CALLS_OR_VECTORS"; then
	echo "ok $n - control: the same check finds the calls of fdr__xray_fast_event"
else
	echo "not ok $n - control: the same check finds the calls of fdr__xray_fast_event"; fail=1
fi
echo "1..$n"
exit $fail
