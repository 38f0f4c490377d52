#!/bin/bash
# SPDX-License-Identifier: MIT
# hook_regs.sh OBJ [CONTROL]: the library-call and -P hooks' C (plt_shadow.o, run
# between a caller and its callee) touches no vector, mask or x87
# register, and calls only what keeps them: system-call wrappers,
# fdr__vstate_call and fdr__vstate_call_ptr (the recorder's general path
# and -A/-R's records, vstate_call.h), the
# start-up's __errno_location and fdr__xstate_init, and itself.  A
# __m256 argument's upper half lives through it only so.  CONTROL, an
# object beside it that calls more (default: its patch_main.o), shows the
# check can fail.  TAP on stdout.
set -u
obj=$1
control=${2:-$(dirname "$obj")/patch_main.o}
n=0 fail=0
ALLOWED='fdr__vstate_call(_ptr)?|fdr__plt_[a-z_]+|fdr__xstate_init|__errno_location|sigaltstack|write|abort'
REGS='%[xyz]mm[0-9]|%k[0-7]\b|%st\b'
dis=$(objdump -dr --no-show-raw-insn "$obj")
calls() { sed -nE 's/.*R_X86_64_PLT32[[:space:]]+([A-Za-z0-9_.]+).*/\1/p' | sort -u; }

n=$((n + 1))
bad=$(printf '%s\n' "$dis" | grep -E "$REGS" || true)
if [ -z "$dis" ]; then
	echo "not ok $n - $obj disassembles"; fail=1
elif [ -n "$bad" ]; then
	echo "not ok $n - $(basename "$obj") uses no vector, mask or x87 register"
	printf '%s\n' "$bad" | head -20 | sed 's/^/# /'; fail=1
else
	echo "ok $n - $(basename "$obj") uses no vector, mask or x87 register"
fi
n=$((n + 1))
other=$(printf '%s\n' "$dis" | calls | grep -vxE "$ALLOWED" || true)
if [ -z "$other" ] && printf '%s\n' "$dis" | calls | grep -qx fdr__vstate_call; then
	echo "ok $n - it calls fdr__vstate_call for the recorder, nothing else that may touch them"
else
	echo "not ok $n - it calls fdr__vstate_call for the recorder, nothing else that may touch them"
	echo "# other calls: $other"; fail=1
fi
# The checks can fail: ordinary C beside it calls memcpy, calloc...
n=$((n + 1))
if objdump -dr --no-show-raw-insn "$control" | calls | grep -qvxE "$ALLOWED"; then
	echo "ok $n - control: the same check finds $(basename "$control")'s other calls"
else
	echo "not ok $n - control: the same check finds $(basename "$control")'s other calls"; fail=1
fi
echo "1..$n"
exit $fail
