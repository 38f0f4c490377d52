#!/bin/bash
# SPDX-License-Identifier: MIT
# patch_test.sh BUILD - fdr record -P (function entries of a program not
# built with fdr-cc, patched by the preloaded libfdr-plt.so): per function,
# the calls recorded equal those of the XRay build of the same source by
# fdr-cc (XRay changes no inlining: the same calls happen), the program's
# output does not change, the patcher's own cases (moved jcc, call and
# RIP-relative load; refusals) do what they should (TAP on stdout).
. "$(dirname "$0")/tap_lib.sh" patch "$1"
export LC_ALL=C
cd "$T" || exit 1
. "$HERE/log_checks.sh"

# The functions DIR's sym-maps name in EXE (the patched ones), one a line
patched() { # DIR EXE
	cat "$1"/fdr-syms.*.map | awk -F'\t' -v exe="$2" '$3 == exe {print $2}' | sort -u
}
# "name=calls" of fdr report --json DIR, for the names in the file NAMES
report_calls() { # DIR NAMES
	"$FDR" report --json "$1" 2>/dev/null | python3 -c '
import json, sys
want = set(open(sys.argv[1]).read().split())
calls = {f["name"]: f["calls"] for f in json.load(sys.stdin)["functions"]}
print(" ".join("%s=%d" % (k, calls.get(k, 0)) for k in sorted(want)))' "$2"
}
# the patcher's own asm cases (patch_prog.c: ASM_CALLS); XRay cannot see them
ASM='rel_call rel_helper rel_jcc rel_rip spin tiny'

check "build: plain clang-19 -O2 -g, no fdr-cc" clang-19 -O2 -g -o prog "$HERE/patch_prog.c" -lpthread
check "build: the same source with fdr-cc (XRay), the oracle" \
	"$B/fdr-cc" -O2 -g -o prog_xray "$HERE/patch_prog.c" -lpthread

# ---- -P . against XRay: every patched C function's calls, the output ----
./prog 4 > plain.out; rc_plain=$?
"$FDR" record -o p.data -t 0 -P . -- ./prog 4 > p.out 2> p.err; rc=$?
[ $rc = $rc_plain ] && [ -s p.out ] && cmp -s plain.out p.out \
	&& ok "-P .: output and exit status ($rc) unchanged" \
	|| nok "-P .: output and exit status unchanged" "rc $rc_plain/$rc" "$(cat plain.out p.out)" \
		"$(head -c 1500 p.err)"
"$FDR" record -o x.data -t 0 -- ./prog_xray 4 > x.out 2> x.err
patched p.data "$T/prog" | grep -vxF -f <(tr ' ' '\n' <<<"$ASM") > c_funcs
p=$(report_calls p.data c_funcs) x=$(report_calls x.data c_funcs)
[ -s c_funcs ] && [ "$p" = "$x" ] \
	&& ok "-P .: calls of each of the $(wc -l < c_funcs) patched C functions = the XRay build's" \
	|| nok "-P .: calls of each patched C function = the XRay build's" "-P:   $p" "XRay: $x" \
		"$(head -c 1500 p.err)"
# what -O2 keeps as its own function and is long enough must be patched
missing=
for f in main worker tail leaf fib jumper deep through_pointers op_add op_mul op_sub op_xor on_signal; do
	grep -qx "$f" c_funcs || missing="$missing $f"
done
[ -z "$missing" ] && ok "-P .: the program's functions are patched (main, threads', recursive, tail-calling, static, signal handler)" \
	|| nok "-P .: the program's functions are patched" "not patched:$missing" "$(grep -- -P: p.err)"
check "-P .: every exit closes the newest entry (longjmp, signal, tail calls, threads)" nested p.data

# ---- the patcher's own cases ----
a=$(tr ' ' '\n' <<<"$ASM" > asm_names; report_calls p.data asm_names)
want="rel_call=2 rel_helper=2 rel_jcc=3 rel_rip=4 spin=0 tiny=0"
[ "$a" = "$want" ] && ok "moved first instructions (short jcc, call, RIP-relative load) run and record; refused ones do not" \
	|| nok "moved first instructions run and record; refused ones do not" "got:  $a" "want: $want"
cov=$(grep -- '-P:' p.err)
refusals_named=1
for why in 'too short' 'jump into the patch' 'indirect jump' 'program entry point'; do
	case $cov in *"$why"*) ;; *) refusals_named=0 ;; esac
done
spin_patched=$(patched p.data "$T/prog" | grep -cx 'spin\|tiny')
items=$(awk -F'\t' '$1 == "refused" && $3 ~ /^(spin|tiny|dispatch|_start)$/ {print $3 ": " $2}' \
	p.data/fdr-patch.*.txt | sort | paste -sd, -)
[ $refusals_named = 1 ] && [ "$spin_patched" = 0 ] \
	&& [ "$items" = "_start: program entry point,dispatch: indirect jump,spin: jump into the patch,tiny: too short" ] \
	&& ok "refusals counted by reason (too short, jump into the patch, indirect jump, entry point), each itemised" \
	|| nok "refusals counted by reason, each itemised" "$cov" "spin/tiny patched: $spin_patched" "itemised: $items"

# ---- threads: many runs, the same result every time ----
./prog 8 > t_plain.out
bad=0
for i in $(seq 100); do
	"$FDR" record -o t.data -t 0 -P . -- ./prog 8 > t.out 2> t.err || bad=$((bad + 1))
	cmp -s t_plain.out t.out || bad=$((bad + 1))
done
[ $bad = 0 ] && ok "8 threads, 100 runs under -P .: no crash, the same output" \
	|| nok "8 threads, 100 runs under -P .: no crash, the same output" "$bad bad runs" "$(head -c 1500 t.err)"

# ---- a thread that exists before the patching: nothing is patched ----
# A constructor of a library the program needs runs before the preloaded
# patcher's and may start a thread, which could be running the bytes
# being rewritten: -P must patch nothing, say why, and the program run.
cat > early.c <<'X'
#include <pthread.h>
#include <unistd.h>
static int pipe_fd[2];
static void *wait_for_exit(void *arg)
{
	char c;

	(void)arg;
	return (void *)read(pipe_fd[0], &c, 1);
}
__attribute__((constructor)) static void early_thread(void)
{
	pthread_t t;

	if (pipe(pipe_fd) == 0)
		pthread_create(&t, NULL, wait_for_exit, NULL);
}
X
check "build: a program whose library starts a thread in its constructor" \
	bash -c "cc -O2 -fPIC -shared -o libearly.so early.c -lpthread && \
		clang-19 -O2 -o early_prog '$HERE/patch_prog.c' -L. -learly -Wl,-rpath,'\$ORIGIN' -lpthread"
"$FDR" record -o th.data -t 0 -P . -- ./early_prog 2 > th.out 2> th.err; rc=$?
nth=$(patched th.data "$T/early_prog" | wc -l)
[ $rc = 0 ] && cmp -s th.out <(./prog 2) && [ "$nth" = 0 ] \
	&& grep -q -- '-P: .*: 0 of [0-9]* functions patched .*other threads running' th.err \
	&& grep -q 'started a thread before the patching.*rebuild the program with fdr-cc' th.err \
	&& ok "a thread started before the patching: nothing patched, the reason and the fix said, output unchanged" \
	|| nok "a thread started before the patching: nothing patched, the reason and the fix said, output unchanged" \
		"rc=$rc patched=$nth" "$(head -c 1500 th.err)"

# ---- a hostile symbol table: a refused function named with a newline ----
# The coverage file is one record a line: such a name must not make a
# line of its own (objcopy gives the 1-byte function its name).
cat > hostile.c <<'X'
#include <stdio.h>
__asm__(".text\n.p2align 4\n.globl badname\n.type badname,@function\nbadname:\n\tret\n"
	".size badname,1\n.globl after_bad\n.type after_bad,@function\nafter_bad:\n"
	"\tmovl $7,%eax\n\tret\n.size after_bad,6\n");
int after_bad(void);
int main(void) { printf("%d\n", after_bad()); return 0; }
X
check "build: a function named with a newline and a tab" \
	bash -c "clang-19 -O2 -c -o hostile.o hostile.c && objcopy --redefine-sym \$'badname=bad\nna\tme' hostile.o hostile2.o && clang-19 -o hostile hostile2.o"
"$FDR" record -o h.data -t 0 -P . -- ./hostile > h.out 2> h.err; rc=$?
hl=$(grep -c . h.data/fdr-patch.*.txt)
hk=$(awk -F'\t' '$1 == "refused" || NF == 2' h.data/fdr-patch.*.txt | wc -l)
[ $rc = 0 ] && [ "$(cat h.out)" = 7 ] && [ "$hl" = "$hk" ] \
	&& grep -q "^refused	too short	bad?na?me\$" h.data/fdr-patch.*.txt \
	&& grep -q -- '-P: .*/hostile: [0-9]* of [0-9]* functions patched ([0-9]* selected, from .symtab); refused: [0-9]* too short, 1 program entry point$' h.err \
	&& ok "a refused function named with a newline and a tab: itemised on one line (bad?na?me), counts intact" \
	|| nok "a refused function named with a newline and a tab: itemised on one line, counts intact" \
		"rc=$rc lines=$hl well-formed=$hk" "$(cat -A h.data/fdr-patch.*.txt | head -20)" "$(cat h.err)"

# ---- exec: the exec'ed program is patched again (FDR_PATCH is inherited) ----
cat > execer.c <<'X'
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int st;
	pid_t pid = fork();	/* the child inherits the patched text */

	(void)argc;
	if (pid == 0) {
		execv(argv[1], argv + 1);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
X
cc -O2 -o execer execer.c
"$FDR" record -o ex.data -t 0 -P . -- ./execer ./prog 2 > ex.out 2> ex.err; rc=$?
nproc_cov=$(grep -c -- '-P: .*functions patched' ex.err)
fibs=$(report_calls ex.data <(echo fib))
fibx=$("$FDR" record -o exx.data -t 0 -- ./prog_xray 2 >/dev/null 2>&1; report_calls exx.data <(echo fib))
[ $rc = 0 ] && cmp -s ex.out <(./prog 2) && [ "$nproc_cov" = 2 ] && [ "$fibs" = "$fibx" ] \
	&& ok "fork + exec under -P: both programs patched (two coverage lines), the exec'ed one's calls = XRay's" \
	|| nok "fork + exec under -P: both programs patched, the exec'ed one's calls = XRay's" \
		"rc=$rc coverage lines=$nproc_cov fib: $fibs / $fibx" "$(head -c 1000 ex.err)"

# ---- selection: a regular expression; --no-libcall ----
"$FDR" record -o s.data -t 0 -P '^op_' -P fib --no-libcall -- ./prog 2 > s.out 2> s.err
got=$(patched s.data "$T/prog" | tr '\n' ' ')
libs=$(cat s.data/fdr-syms.*.map | awk -F'\t' -v exe="$T/prog" '!/^#/ && $3 != exe' | wc -l)
[ "$got" = "fib op_add op_mul op_sub op_xor " ] && [ "$libs" = 0 ] && cmp -s s.out <(./prog 2) \
	&& ok "-P '^op_' -P fib --no-libcall: those functions only, no library calls" \
	|| nok "-P '^op_' -P fib --no-libcall: those functions only, no library calls" \
		"patched: $got" "library functions: $libs" "$(head -c 1000 s.err)"
grep -q -- '-P: .*: 5 of [0-9]* functions patched (5 selected, from .symtab)$' s.err \
	&& ok "coverage: patched of all, selected (op_add, 4 bytes, takes its padding)" \
	|| nok "coverage: patched of all, selected, refusals" "$(cat s.err)"

# ---- a stripped program: .dynsym only ----
check "build: -rdynamic, stripped" clang-19 -O2 -rdynamic -s -o stripped "$HERE/patch_prog.c" -lpthread
"$FDR" record -o d.data -t 0 -P . -- ./stripped 4 > d.out 2> d.err
patched d.data "$T/stripped" | grep -vxF -f asm_names > d_funcs
p=$(report_calls d.data d_funcs) x=$(report_calls x.data d_funcs)
[ "$(wc -l < d_funcs)" -ge 5 ] && [ "$p" = "$x" ] && cmp -s d.out plain.out \
	&& ok "stripped (.dynsym only): $(wc -l < d_funcs) functions patched, calls = XRay's, output unchanged" \
	|| nok "stripped (.dynsym only): calls = XRay's, output unchanged" "-P:   $p" "XRay: $x" \
		"$(head -c 1000 d.err)"

# ---- stripped, its debug info apart: DWARF adds the static functions ----
# .gnu_debuglink to a file beside it (-rdynamic: .dynsym has the globals),
# then, without .dynsym's functions, its build id under $FDR_DEBUG_DIR
unset DEBUGINFOD_URLS
STATICS='deep fib on_signal op_add op_mul op_sub op_xor worker'
check "build: -O2 -g, debug info split off (objcopy --only-keep-debug), stripped, --add-gnu-debuglink" \
	bash -c "clang-19 -O2 -g -rdynamic -o dl_prog '$HERE/patch_prog.c' -lpthread && \
		objcopy --only-keep-debug dl_prog dl_prog.debug && strip dl_prog && \
		objcopy --add-gnu-debuglink=dl_prog.debug dl_prog"
"$FDR" record -o dl.data -t 0 -P . -- ./dl_prog 4 > dl.out 2> dl.err; rc=$?
patched dl.data "$T/dl_prog" | grep -vxF -f asm_names > dl_funcs
p=$(report_calls dl.data dl_funcs) x=$(report_calls x.data dl_funcs)
statics=$(grep -cxF -f <(tr ' ' '\n' <<<"$STATICS") dl_funcs)
[ $rc = 0 ] && cmp -s dl.out plain.out && [ "$p" = "$x" ] && [ "$statics" = 8 ] \
	&& grep -q -- "-P: $T/dl_prog: [0-9]* of [0-9]* functions patched ([0-9]* selected, from .dynsym + [0-9]* of the DWARF of $T/dl_prog.debug)" dl.err \
	&& ok "stripped, .gnu_debuglink: the 8 static functions patched from DWARF, named; calls of all $(wc -l < dl_funcs) = XRay's; the coverage line names the debug file" \
	|| nok "stripped, .gnu_debuglink: static functions patched from DWARF, calls = XRay's" \
		"rc=$rc statics=$statics" "-P:   $p" "XRay: $x" "$(grep -- -P: dl.err)"
mkdir -p dbg
check "build: -O2 -g, stripped, its debug file under DIR/.build-id/xx/yyyy.debug" \
	bash -c "clang-19 -O2 -g -Wl,--build-id -o bi_prog '$HERE/patch_prog.c' -lpthread && \
		id=\$(readelf -n bi_prog | sed -n 's/.*Build ID: //p') && mkdir -p dbg/.build-id/\${id:0:2} && \
		objcopy --only-keep-debug bi_prog dbg/.build-id/\${id:0:2}/\${id:2}.debug && strip bi_prog"
FDR_DEBUG_DIR=$T/dbg "$FDR" record -o bi.data -t 0 -P . -- ./bi_prog 4 > bi.out 2> bi.err; rc=$?
patched bi.data "$T/bi_prog" > bi_funcs
p=$(report_calls bi.data bi_funcs) x=$(report_calls x.data bi_funcs)
statics=$(grep -cxF -f <(tr ' ' '\n' <<<"$STATICS") bi_funcs)
[ $rc = 0 ] && cmp -s bi.out plain.out && [ "$p" = "$x" ] && [ "$statics" = 8 ] \
	&& grep -q -- "-P: $T/bi_prog: [0-9]* of [0-9]* functions patched ([0-9]* selected, from [0-9]* of the DWARF of $T/dbg/.build-id/../.*\.debug)" bi.err \
	&& ok "stripped, no .dynsym functions, FDR_DEBUG_DIR/.build-id: $(wc -l < bi_funcs) functions patched from DWARF, calls = XRay's" \
	|| nok "stripped, FDR_DEBUG_DIR/.build-id: functions patched from DWARF, calls = XRay's" \
		"rc=$rc statics=$statics" "-P:   $p" "XRay: $x" "$(grep -- -P: bi.err)"
# a debug file of another build (its build id differs) is not used
check "build: a debuglink to the debug file of another build" \
	bash -c "clang-19 -O1 -g -o other '$HERE/patch_prog.c' -lpthread && objcopy --only-keep-debug other dl_prog.debug"
"$FDR" record -o wr.data -t 0 -P . -- ./dl_prog 4 > wr.out 2> wr.err; rc=$?
statics=$(patched wr.data "$T/dl_prog" | grep -cxF -f <(tr ' ' '\n' <<<"$STATICS"))
[ $rc = 0 ] && cmp -s wr.out plain.out && [ "$statics" = 0 ] && ! ls wr.data/fdr-dwarf.* >/dev/null 2>&1 \
	&& grep -q -- "-P: $T/dl_prog: .*selected, from .dynsym)" wr.err \
	&& ok "a debug file whose build id differs: not used (.dynsym only), output unchanged" \
	|| nok "a debug file whose build id differs: not used" "rc=$rc statics=$statics" "$(grep -- -P: wr.err)"

# ---- __m256 arguments and results (ymm0-7) through the hooks ----
# patch_avx.c: a patched function and a library call through the PLT, in
# 5 threads; 4K buffers send many records down the recorder's general
# path (libc's AVX memcpy, vzeroupper), with glibc's AVX-512 string
# functions and with its AVX2 ones; FDR_XRAY_VSTATE=sse, which keeps
# xmm only, must break it (the check can fail)
if grep -qw avx /proc/cpuinfo; then
	check "build: patch_avx.c (clang-19 -O2 -mavx, GCC -O2 -mavx with -fipa-ra) and its library" \
		bash -c "clang-19 -O2 -mavx -fPIC -shared -o libpatchavx.so '$HERE/patch_avx_lib.c' && \
		clang-19 -O2 -mavx -o avx '$HERE/patch_avx.c' -L. -lpatchavx -Wl,-rpath,'\$ORIGIN' -lpthread && \
		gcc -O2 -mavx -o avx_gcc '$HERE/patch_avx.c' -L. -lpatchavx -Wl,-rpath,'\$ORIGIN' -lpthread"
	bad=
	for prog in avx avx_gcc; do
		for tun in '' 'glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD'; do
			GLIBC_TUNABLES=$tun "$FDR" record -o v.data -b 4K -n 1024 -t 0 -P . -- ./$prog 3000 \
				> v.out 2> v.err || bad="$bad $prog:rc=$?${tun:+(avx2)}"
			grep -qx 'wrong results: 0' v.out || bad="$bad $prog:$(cat v.out)"
			c=$(report_calls v.data <(echo lib_fma own_fma))
			[ "$c" = "lib_fma=15000 own_fma=15000" ] || bad="$bad $prog:$c"
		done
	done
	FDR_XRAY_VSTATE=sse "$FDR" record -o vs.data -b 4K -n 1024 -t 0 -P . -- ./avx 3000 > vs.out 2>&1
	[ -z "$bad" ] && ! grep -qx 'wrong results: 0' vs.out \
		&& ok "__m256 arguments and results of a patched function and a PLT call: unchanged (clang, GCC; libc's AVX-512 and AVX2 paths); 15000 calls each; keeping xmm only breaks them" \
		|| nok "__m256 arguments and results through the hooks unchanged" "$bad" "sse: $(cat vs.out)" \
			"$(head -c 1000 v.err)"
else
	ok "__m256 through the hooks # SKIP the CPU has no AVX"
fi

# ---- every register but rsp across patched functions (patch_regs.c): the
# hooks' common path (-t 0), their general path (4K buffers: each new
# buffer's first record) and threshold rewinds (the default) ----
AT=$HERE/../../../adapters/tests
REGS_SRC="$AT/patch_regs.c $AT/regs_run.c $AT/regs.c $AT/regs_harness.S"
check "build: patch_regs.c (plain clang-19 -O2) and its control, a target writing r11" \
	bash -c "clang-19 -O2 -g -I'$AT' -o pregs $REGS_SRC -lpthread && \
	clang-19 -O2 -g -DPATCH_REGS_CONTROL -I'$AT' -o pregs_bad $REGS_SRC -lpthread"
./pregs 1000 > /dev/null 2>&1; rc=$?
./pregs_bad 1000 > /dev/null 2>&1; rc_bad=$?
[ $rc = 0 ] && [ $rc_bad = 1 ] \
	&& ok "patch_regs untraced: its targets keep every register; the control's r11 is caught" \
	|| nok "patch_regs untraced: targets keep every register, the control is caught" "rc=$rc control rc=$rc_bad"
for opts in "-t 0" "-t 0 -b 4K -n 64" ""; do
	rm -rf r.data
	"$FDR" record -o r.data $opts -P . -- ./pregs 3000 > r.out 2> r.err; rc=$?
	c=$(echo plain > plain_name; report_calls r.data plain_name)
	calls=${c#plain=}
	case $opts in	# the path's evidence: all kept, some (a new buffer's), rewound
	"-t 0") path=$((calls == 6000)) ;;
	"-t 0 -b"*) path=$((calls > 0)) ;;
	*) path=$((calls < 6000)) ;;
	esac
	[ $rc = 0 ] && grep -q 'mismatches 0,' r.out && [ "$path" = 1 ] \
		&& ok "-P . ${opts:-(default threshold)}: every register but rsp kept across 12000 patched calls, 2 threads ($c)" \
		|| nok "-P . ${opts:-(default threshold)}: every register but rsp kept across patched calls" \
			"rc=$rc $c" "$(cat r.out)" "$(head -c 1000 r.err)"
done

# ---- a Debian binary from the archive: python3, stripped (.dynsym) and
# built by GCC with -fipa-ra (callers keep values in registers the callee
# does not write: patch_tramp_x86_64.S keeps every one) ----
PY=$(readlink -f /usr/bin/python3)
if [ -x "$PY" ]; then
	script='import json, re; print(sum(range(1000)), json.dumps({"a": [1, 2]}), re.sub("b+", "-", "abbbc"))'
	"$PY" -c "$script" > py_plain.out
	"$FDR" record -o py.data -P . -- "$PY" -c "$script" > py.out 2> py.err; rc=$?
	npy=$(patched py.data "$PY" | wc -l)
	[ $rc = 0 ] && cmp -s py_plain.out py.out && [ "$npy" -ge 500 ] \
		&& ok "$PY (stripped, GCC -O2): $npy functions patched, output unchanged" \
		|| nok "$PY (stripped, GCC -O2): functions patched, output unchanged" "rc=$rc patched=$npy" \
			"$(cat py_plain.out py.out)" "$(head -c 1000 py.err)"
else
	ok "python3 from the archive # SKIP not installed"
fi

# ---- C++ exceptions thrown through patched frames, rethrown, caught ----
check "build: plain clang++-19 -O2 -g, and fdr-c++ (XRay)" \
	bash -c "clang++-19 -O2 -g -o throw '$HERE/patch_throw.cc' && '$B/fdr-c++' -O2 -g -o throw_xray '$HERE/patch_throw.cc'"
./throw > cxx_plain.out
"$FDR" record -o c.data -t 0 -P . -- ./throw > c.out 2> c.err; rc=$?
"$FDR" record -o cx.data -t 0 -- ./throw_xray > /dev/null 2>&1
"$FDR" report --json cx.data | python3 -c '
import json, sys
print("\n".join(f["name"] for f in json.load(sys.stdin)["functions"]))' > cxx_funcs
p=$(report_calls c.data cxx_funcs) x=$(report_calls cx.data cxx_funcs)
[ $rc = 0 ] && cmp -s cxx_plain.out c.out && [ "$p" = "$x" ] \
	&& ok "C++ throw/rethrow through patched frames: output unchanged, calls = XRay's ($(wc -l < cxx_funcs) functions)" \
	|| nok "C++ throw/rethrow through patched frames: output unchanged, calls = XRay's" "rc=$rc" \
		"-P:   $p" "XRay: $x" "$(head -c 1000 c.err)"
check "C++ exceptions: every exit closes the newest entry" nested c.data

# ---- deeper than the shadow stack (512 a thread): the deeper calls are
# jumped to unrecorded, with stack and xmm arguments (patch_deep.c) ----
check "build: patch_deep.c, plain clang-19 -O2 -g" clang-19 -O2 -g -o deep "$HERE/patch_deep.c"
echo deep > deep_name
good=1 got=
for d in 300 2000; do
	./deep $d > deep_plain.out
	"$FDR" record -o d$d.data -t 0 --no-libcall -P '^deep$' -- ./deep $d > deep.out 2> deep.err || good=0
	cmp -s deep_plain.out deep.out || good=0
	got="$got $d:$(report_calls d$d.data deep_name)"
done
# 3 runs: every call at 300 levels (3 x 301), the outermost 512 at 2000
[ $good = 1 ] && [ "$got" = " 300:deep=903 2000:deep=1536" ] \
	&& ok "a recursion of 300 and 2000 levels (stack and xmm arguments): output unchanged, calls 3 x 301 and 3 x 512 (the shadow stack's depth)" \
	|| nok "a recursion deeper than the shadow stack: output unchanged, the outermost 512 calls recorded" \
		"$got" "$(head -c 1000 deep.err)"
check "deeper than the shadow stack: every exit closes the newest entry" nested d2000.data

# ---- what -P refuses, before running anything ----
"$FDR" record -o e1 -P . -- ./prog_xray >/dev/null 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'built with fdr-cc' e.err && [ ! -e e1 ] \
	&& ok "-P on an fdr-cc build: refused with the reason, no data directory" \
	|| nok "-P on an fdr-cc build: refused with the reason, no data directory" "rc=$rc" "$(cat e.err)"
"$FDR" record -o e2 -P '(' -- ./prog >/dev/null 2>e.err; rc=$?
[ $rc = 2 ] && grep -q 'not a valid regular expression' e.err && [ ! -e e2 ] \
	&& ok "-P with a bad regular expression: a usage error naming it" \
	|| nok "-P with a bad regular expression: a usage error naming it" "rc=$rc" "$(cat e.err)"

tap_end
