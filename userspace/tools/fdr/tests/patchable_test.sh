#!/bin/bash
# SPDX-License-Identifier: MIT
# patchable_test.sh BUILD - fdr-cc --patchable (a 5-byte nop at each
# function's entry, fdr's runtime patching them when fdr record runs the
# program): per function, the calls recorded from the start equal those
# of the XRay build of the same source (threads, longjmp, a signal
# handler, tail calls, recursion; a C++ throw and rethrow through
# patched frames); output unchanged; -P narrows; a site that is not the
# compiler's nop is refused and counted; nobody recording leaves no
# trace; no capstone in the program (TAP on stdout).  The attach side is
# attach_test.sh's.
. "$(dirname "$0")/tap_lib.sh" patchable "$1"
export LC_ALL=C
cd "$T" || exit 1
. "$HERE/log_checks.sh"

# "name=calls" of fdr report --json DIR, every function, sorted
report_calls() { # DIR
	"$FDR" report --json "$1" 2>/dev/null | python3 -c '
import json, sys
fs = json.load(sys.stdin)["functions"]
print(" ".join("%s=%d" % (f["name"], f["calls"]) for f in sorted(fs, key=lambda f: f["name"])))'
}
# The functions recorded in DIR, one line (the sym-map names every site:
# the patched ones are those with calls)
recorded() { # DIR
	report_calls "$1" | tr ' ' '\n' | sed 's/=.*//' | paste -sd' ' -
}

check "build: fdr-cc --patchable -O2 -g, and the XRay build of the same source" \
	bash -c "'$B/fdr-cc' --patchable -O2 -g -o prog '$HERE/patch_prog.c' -lpthread && \
		'$B/fdr-cc' -O2 -g -o prog_xray '$HERE/patch_prog.c' -lpthread"

# ---- from the start: every function, the calls XRay sees ----
./prog 4 > plain.out; rc_plain=$?
"$FDR" record -o p.data -t 0 -- ./prog 4 > p.out 2> p.err; rc=$?
[ $rc = $rc_plain ] && [ -s p.out ] && cmp -s plain.out p.out \
	&& ok "recorded from the start: output and exit status ($rc) unchanged" \
	|| nok "recorded from the start: output and exit status unchanged" "rc $rc_plain/$rc" \
		"$(head -c 1500 p.err)"
"$FDR" record --no-libcall -o x.data -t 0 -- ./prog_xray 4 > /dev/null 2> x.err
p=$(report_calls p.data) x=$(report_calls x.data)
nf=$(wc -w <<<"$p")
[ "$nf" -ge 10 ] && [ "$p" = "$x" ] \
	&& ok "calls of each of the $nf functions = the XRay build's (threads, longjmp, signal, tail calls)" \
	|| nok "calls of each function = the XRay build's" "patchable: $p" "XRay:      $x" \
		"$(head -c 1500 p.err)"
grep -q -- ": prog: \([0-9]*\) of \1 functions patched (\1 selected)$" <(sed "s|$T/||" p.err) \
	&& ok "every nop site patched, no -P needed ($(grep -o '[0-9]* of [0-9]*' p.err))" \
	|| nok "every nop site patched, no -P needed" "$(cat p.err)"
check "every exit closes the newest entry" nested p.data
grep -qx 'instrumentation	patchable' p.data/info \
	&& ok "DIR/info names the instrumentation (patchable)" \
	|| nok "DIR/info names the instrumentation (patchable)" "$(head -20 p.data/info)"

# ---- C++: a throw and a rethrow through patched frames ----
check "build: fdr-c++ --patchable and fdr-c++ (XRay)" \
	bash -c "'$B/fdr-c++' --patchable -O2 -g -o throw '$HERE/patch_throw.cc' && \
		'$B/fdr-c++' -O2 -g -o throw_xray '$HERE/patch_throw.cc'"
./throw > cxx_plain.out
"$FDR" record -o c.data -t 0 -- ./throw > c.out 2> c.err; rc=$?
"$FDR" record --no-libcall -o cx.data -t 0 -- ./throw_xray > /dev/null 2>&1
p=$(report_calls c.data) x=$(report_calls cx.data)
[ $rc = 0 ] && cmp -s cxx_plain.out c.out && [ -n "$p" ] && [ "$p" = "$x" ] \
	&& ok "C++ throw/rethrow through patched frames: output unchanged, calls = XRay's" \
	|| nok "C++ throw/rethrow through patched frames: output unchanged, calls = XRay's" "rc=$rc" \
		"patchable: $p" "XRay:      $x" "$(head -c 1000 c.err)"
check "C++: every exit closes the newest entry" nested c.data

# ---- -P narrows ----
"$FDR" record -o s.data -t 0 -P '^op_' -P fib -- ./prog 2 > s.out 2> s.err
got=$(recorded s.data)
[ "$got" = "fib op_add op_mul op_sub op_xor" ] && cmp -s s.out <(./prog 2) \
	&& grep -q ': 5 of [0-9]* functions patched (5 selected)$' s.err \
	&& ok "-P '^op_' -P fib: those functions only" \
	|| nok "-P '^op_' -P fib: those functions only" "patched: $got" "$(head -c 1000 s.err)"

# ---- listed sites that are not the compiler's nop: refused, counted ----
# (one in the text whose first bytes are code; one in the data, which
# must not even be read as code or made executable: no function there,
# named "?")
cat > notnop.c <<'X'
#include <stdio.h>
int data_word = 5;
__asm__(".text\n.p2align 4\n.globl notnop\n.type notnop,@function\nnotnop:\n"
	"\tmovl $7,%eax\n\tret\n.size notnop,6\n"
	".section __patchable_function_entries,\"awo\",@progbits,notnop\n"
	".p2align 3\n.quad notnop\n.quad data_word\n.text\n");
int notnop(void);
int main(void) { data_word++; printf("%d %d\n", notnop(), data_word); return 0; }
X
check "build: a listed site whose bytes are not a nop" "$B/fdr-cc" --patchable -O2 -o notnop notnop.c
"$FDR" record -o n.data -t 0 -- ./notnop > n.out 2> n.err; rc=$?
[ $rc = 0 ] && [ "$(cat n.out)" = "7 6" ] \
	&& grep -q '^refused	not a 5-byte nop	notnop$' n.data/fdr-patch.*.txt \
	&& grep -q '^refused	not a 5-byte nop	?$' n.data/fdr-patch.*.txt \
	&& grep -q ': 1 of 3 functions patched (3 selected); refused: 2 not a 5-byte nop$' n.err \
	&& ok "sites that are not the nop (code; data): refused, counted and itemised, the program runs" \
	|| nok "sites that are not the nop: refused, counted and itemised" "rc=$rc $(cat n.out)" \
		"$(cat n.err)" "$(cat n.data/fdr-patch.*.txt 2>/dev/null)"

# ---- nobody records: nothing of fdr's happens ----
mkdir idle
env -u FDR_TARGET FDR_SYMDIR="$T/idle" ./prog 2 > i.out; rc=$?
[ $rc = 0 ] && cmp -s i.out <(./prog 2) && [ -z "$(ls idle)" ] \
	&& ok "nobody records: the program runs, writes no sym-map or coverage file" \
	|| nok "nobody records: the program runs, writes no file" "rc=$rc" "$(ls idle)"

# ---- the runtime needs no disassembler ----
if ! ldd prog | grep -q capstone && ! nm prog | grep -q ' cs_open'; then
	ok "no capstone in an fdr-cc --patchable program"
else
	nok "no capstone in an fdr-cc --patchable program" "$(ldd prog)"
fi

tap_end
