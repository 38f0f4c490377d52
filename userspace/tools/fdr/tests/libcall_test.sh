#!/bin/bash
# SPDX-License-Identifier: MIT
# libcall_test.sh BUILD - library-call tracing (libfdr-plt.so, preloaded
# by fdr record into programs not built with fdr-cc): the calls fdr
# records per function equal what an independent counter, an rtld-audit
# module (libcall_audit.c), counts on a run with the same input, and the
# program's output and exit status do not change; -A/-R on library calls
# show the values the program printed (TAP on stdout).
. "$(dirname "$0")/tap_lib.sh" libcall "$1"
export LC_ALL=C
cd "$T" || exit 1
. "$HERE/log_checks.sh"

. "$HERE/libcall_lib.sh"

# ---- a plain clang -O2 build: floats, errno, signals, threads, fork, vfork+exec, longjmp ----
check "build: plain clang-19 -O2" clang-19 -O2 -o prog "$HERE/libcall_prog.c" -lm -lpthread
compare "clang -O2 program" "$T/prog"
grep -q 'recording its calls into shared libraries only' "$T/f.err" \
	&& ok "summary: says PROG is not instrumented and only library calls are recorded" \
	|| nok "summary: says PROG is not instrumented and only library calls are recorded" "$(cat "$T/f.err")"
got=$(fdr_counts "$T/f.data")
case " $got" in *" vfork="*|*" _setjmp="*) nok "returns-twice functions are not hooked" "$got" ;;
	*) ok "returns-twice functions are not hooked" ;; esac
check "longjmp out of qsort's comparator: every exit closes the newest entry" nested "$T/f.data"

# ---- C++ exceptions through library calls (plt_unwind.c) ----
check "build: clang++-19 -O2 exceptions" clang++-19 -O2 -o throw "$HERE/libcall_throw.cc"
compare "C++ exceptions thrown through and from library calls" "$T/throw"
check "C++ exceptions: every exit closes the newest entry" nested "$T/f.data"

# ---- fdr-cc builds: their own runtime hooks the GOT (plt_self.c) ----
# The program's functions are still recorded, with its library calls
# nested inside them, named in the report.
FDRCC=1
for mode in xray gcc; do
	flag=; [ $mode = gcc ] && flag=--gcc
	check "build: fdr-cc $flag -O2 ($mode)" "$B/fdr-cc" $flag -O2 -o prog_$mode "$HERE/libcall_prog.c" -lm -lpthread
	compare "fdr-cc $mode build" "$T/prog_$mode"
	grep -q "recording .*prog_$mode's functions and its calls into shared libraries" "$T/f.err" \
		&& ok "fdr-cc $mode build: the summary says library calls are recorded" \
		|| nok "fdr-cc $mode build: the summary says library calls are recorded" "$(cat "$T/f.err")"
	check "fdr-cc $mode build: every exit closes the newest entry (longjmp out of qsort)" nested "$T/f.data"
	got=$(fdr_counts "$T/f.data")
	case " $got " in *" main=2 "*" sorting=1 "*" thread_body=2 "*) ok "fdr-cc $mode build: its own functions still counted" ;;
		*) nok "fdr-cc $mode build: its own functions still counted" "$got" ;; esac
	"$FDR" replay "$T/f.data" 2>/dev/null | grep -A1 '  sorting() {' | grep -q 'qsort() {' \
		&& ok "fdr-cc $mode build: replay names the library call inside the function that made it" \
		|| nok "fdr-cc $mode build: replay names the library call inside the function that made it" \
			"$("$FDR" replay "$T/f.data" 2>&1 | head -40)"
	rm -rf nl.data
	"$FDR" record -o nl.data -t 0 --no-libcall -- "$T/prog_$mode" >/dev/null 2>nl.err
	got=$(fdr_counts nl.data)
	case " $got " in *" main=2 "*" sorting=1 "*) case " $got " in *" printf="*|*" qsort="*) nok "fdr-cc $mode build, --no-libcall: no library calls" "$got" ;;
		*) ok "fdr-cc $mode build, --no-libcall: its functions only" ;; esac ;;
		*) nok "fdr-cc $mode build, --no-libcall: its functions only" "$got" "$(cat nl.err)" ;; esac
done
# A fork while another thread is inside dl_iterate_phdr(): glibc 2.36
# keeps the loader's lock held in the child, so the runtime's fork
# handler, which names the hooked functions in the child's sym-map, must
# not ask the loader (it hung there, on the program's first fork).
check "build: plain clang-19 -O2 of libcall_fork_iterate.c" clang-19 -O2 -pthread \
	-o fork_it_plain "$HERE/libcall_fork_iterate.c"
for mode in xray gcc; do
	flag=; [ $mode = gcc ] && flag=--gcc
	check "build: fdr-cc $flag -O2 of libcall_fork_iterate.c ($mode)" "$B/fdr-cc" $flag -O2 -pthread \
		-o fork_it_$mode "$HERE/libcall_fork_iterate.c"
done
for run in "xray" "gcc" "plain" "plain -P ."; do
	opts=; [ "$run" = "plain -P ." ] && opts="-P ."
	rm -rf fi.data
	timeout -s KILL 60 "$FDR" record -o fi.data -t 0 $opts -- ./fork_it_${run%% *} \
		>fi.out 2>fi.err; rc=$?
	[ $rc = 0 ] && [ "$(tail -1 fi.out)" = "child: 0" ] \
		&& ok "$run build: a fork while a thread holds the loader's lock: the child runs and exits" \
		|| nok "$run build: a fork while a thread holds the loader's lock: the child runs and exits" \
			"rc=$rc" "$(cat fi.out)" "$(head -c 600 fi.err)"
done
# A library constructor that calls dlopen() while another thread waits
# in dlopen(): glibc's own load (iconv's gconv module, under the loader's
# lock) runs the constructor; libfdr-plt.so's dlopen took a lock of its
# own, then the loader's, and both threads waited for ever (fixed: no
# lock across the real dlopen() without -P ...@MODULE, and the real one
# found at load, not by the first dlopen()).
mkdir -p gconv
check "build: a gconv module whose constructor calls dlopen()" \
	clang-19 -O2 -shared -fPIC -o gconv/FDRTEST.so "$HERE/libcall_gconv_ctor.c"
printf 'module FDRTEST// INTERNAL FDRTEST 1\nmodule INTERNAL FDRTEST// FDRTEST 1\n' >gconv/gconv-modules
check "build: libcall_ctor_dlopen.c" clang-19 -O2 -pthread -rdynamic -o ctor_dlopen \
	"$HERE/libcall_ctor_dlopen.c"
for opts in "" "--nest-libcall"; do
	rm -rf cd.data
	GCONV_PATH=$T/gconv timeout -s KILL 60 "$FDR" record -o cd.data $opts -- ./ctor_dlopen \
		>cd.out 2>cd.err; rc=$?
	[ $rc = 0 ] && [ "$(cat cd.out)" = done ] && grep -q 'constructor: dlopen ok' cd.err \
		&& ok "fdr record ${opts:-(library calls)}: a constructor's dlopen() under glibc's own load, another thread in dlopen(): both return" \
		|| nok "fdr record ${opts:-(library calls)}: a constructor's dlopen() under glibc's own load, another thread in dlopen(): both return" \
			"rc=$rc" "$(cat cd.out)" "$(head -c 600 cd.err)"
done
# -F records only the functions it names: a library call is a callee.
rm -rf fo.data
"$FDR" record -o fo.data -t 0 -F sorting -- "$T/prog_xray" >/dev/null 2>fo.err
got=$(fdr_counts fo.data)
[ "$got" = "sorting=1" ] && grep -q -- '-F records only the functions it names: no calls into shared libraries' fo.err \
	&& ok "fdr-cc xray build, -F sorting: sorting's one call, no library call, and it says so" \
	|| nok "fdr-cc xray build, -F sorting: sorting's one call, no library call, and it says so" "$got" "$(cat fo.err)"
"$FDR" record -o fn.data -F sorting --nest-libcall -- "$T/prog_xray" >/dev/null 2>fn.err; rc=$?
[ $rc = 2 ] && [ ! -e fn.data ] && grep -q -- '--nest-libcall: -F records only' fn.err \
	&& ok "-F with --nest-libcall is refused (exit 2, no data directory)" \
	|| nok "-F with --nest-libcall is refused (exit 2, no data directory)" "rc=$rc" "$(cat fn.err)"
for mode in xray gcc; do
	flag=; [ $mode = gcc ] && flag=--gcc
	check "build: fdr-c++ $flag -O2 exceptions ($mode)" "$B/fdr-c++" $flag -O2 -o throw_$mode "$HERE/libcall_throw.cc"
	compare "fdr-c++ $mode build: C++ exceptions thrown through and from library calls" "$T/throw_$mode"
	check "fdr-c++ $mode build, C++ exceptions: every exit closes the newest entry" nested "$T/f.data"
done
check "build: fdr-cc -static (xray)" "$B/fdr-cc" -static -O2 -o prog_static "$HERE/libcall_prog.c" -lm -lpthread
"$FDR" record -o st.data -t 0 -- ./prog_static >/dev/null 2>st.err
grep -q 'statically linked: recording its own functions; it makes no calls into shared libraries' st.err \
	&& ok "static fdr-cc build: the summary says there are no library calls to record" \
	|| nok "static fdr-cc build: the summary says there are no library calls to record" "$(cat st.err)"
FDRCC=

# ---- a Debian binary: gzip ----
{ seq 1 30000; echo hello; } > input
compare "/usr/bin/gzip -9" /usr/bin/gzip -9 input

# ---- an uninstrumented PROG exec'ing an fdr-cc build: its own libfdr records ----
# (libfdr-plt.so, inherited through LD_PRELOAD, stays out of it: plt_detect.c)
cat > execer.c <<'X'
#include <unistd.h>
int main(int argc, char **argv) { (void)argc; execv(argv[1], argv + 1); return 1; }
X
cc -O2 -o execer execer.c
for mode in xray gcc; do
	flag=; [ $mode = gcc ] && flag=--gcc
	"$B/fdr-cc" $flag -O1 -g -o traced_$mode "$HERE/traced.c" -lpthread || { nok "build traced ($mode)"; continue; }
	"$FDR" record -o x_$mode.data -t 0 -- ./execer ./traced_$mode >/dev/null 2>x.err
	c=$(fdr_counts x_$mode.data | tr ' ' '\n' | grep -E '^(execv|main|work|middle|leaf)=' | tr '\n' ' ')
	# traced.c: main 1, work 1, middle 4, leaf 12: 18 Enters, each once,
	# after execer's one library call, execv (whose Exit never comes);
	# traced's own library calls are recorded too (FDR_LIBCALL is inherited)
	[ "$c" = "execv=1 leaf=12 main=1 middle=4 work=1 " ] && ok "exec'ed fdr-cc build ($mode) records through its own libfdr only (execv + 18 calls, once each)" \
		|| nok "exec'ed fdr-cc build ($mode) records through its own libfdr only (execv + 18 calls, once each)" "enters: $c" "$(head -c 1000 x.err)"
done

# ---- -A/-R on library calls: the values the program printed ----
check "build: clang-19 -O2 -fno-builtin, library calls with arguments" \
	clang-19 -O2 -fno-builtin -o largs "$HERE/libcall_args.c"
FDR_TEST_VALUE='one two' "$FDR" record -t 0 -o largs.data -A 'getenv@arg1/s' -R 'getenv@retval/s' \
	-A 'abs@arg1/i32' -R 'abs@retval/i32' -A 'strtod@arg1/s' -R 'strtod@retval/f' -A 'labs@arg1/i64' \
	-- ./largs >largs.out 2>largs.err
rc=$?
"$FDR" replay largs.data 2>&1 | sed -n 's/^.*| \(getenv\|abs\|strtod\|labs\)\((.*\);$/\1\2/p' >largs.calls
[ $rc = 0 ] && [ "$(cat largs.out)" = "$(cat largs.calls)" ] \
	&& ok "-A/-R on library calls (strings, NULL, a negative int, a double, repeated 64-bit calls): replay equals what the program printed" \
	|| nok "-A/-R on library calls (strings, NULL, a negative int, a double, repeated 64-bit calls): replay equals what the program printed" \
		"rc=$rc" "want: $(cat largs.out)" "got:  $(cat largs.calls)" "$(head -c 600 largs.err)"
"$FDR" replay largs.data 2>&1 | grep -q '| printf();$' \
	&& ok "-A/-R on library calls: a call without a spec shows no values" \
	|| nok "-A/-R on library calls: a call without a spec shows no values" "$("$FDR" replay largs.data 2>&1)"
check "-A/-R on library calls: llvm-xray fdr-dump --verify reads the log" \
	"${LLVM_XRAY:-llvm-xray-19}" fdr-dump --verify largs.data/log.xray

# ---- --no-libcall: an uninstrumented program is refused as before ----
"$FDR" record -o e1 --no-libcall -- "$T/prog" >/dev/null 2>e.err; rc=$?
[ $rc = 125 ] && grep -q 'not instrumented' e.err && [ ! -e e1 ] \
	&& ok "--no-libcall: an uninstrumented PROG is refused, no data directory" \
	|| nok "--no-libcall: an uninstrumented PROG is refused, no data directory" "rc=$rc" "$(cat e.err)"

tap_end
