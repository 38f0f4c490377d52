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

# the audit counter's files OUT.<pid>, added up
audit_counts() {
	cat "$1".* | awk '{c[$1] += $2} END {for (k in c) print k "=" c[k]}' | sort | tr '\n' ' '
}
# Names the comparison leaves out, one per line: what the audit cannot
# see (functions the executable reaches only through a GLOB_DAT GOT entry,
# __cxa_finalize from crtstuff) and what fdr never hooks by design
# (returns twice: plt_skip.c).
not_compared() { # EXE
	readelf -rW "$1" | awk '$3 ~ /GLOB_DAT/ {g[$5]=1} $3 ~ /JUMP_SLO/ {j[$5]=1}
		END {for (s in g) if (!(s in j)) print s}' | sed 's/@.*//'
	printf '%s\n' setjmp _setjmp __sigsetjmp sigsetjmp vfork __vfork getcontext swapcontext \
		_Unwind_Resume __cxa_rethrow
	# an fdr-cc build: __register_atfork, which libc_nonshared's
	# pthread_atfork (a function of the executable, called by fdr's
	# runtime) calls
	[ -n "${FDRCC:-}" ] && echo __register_atfork
}
# fdr_counts of the library calls only: functions the sym-maps place in
# another module than EXE (an fdr-cc build's own are in the log too)
fdr_lib_counts() { # DIR EXE
	"$FDR" convert --format yaml --no-sort "$1" | python3 -c '
import collections, glob, os, re, sys
names, exe = {}, os.path.realpath(sys.argv[2])
for f in glob.glob(sys.argv[1] + "/fdr-syms.*.map"):
    for line in open(f):
        p = line.split("\t")
        if not line.startswith("#") and len(p) > 2 and os.path.realpath(p[2]) != exe:
            names[p[0]] = p[1]
c = collections.Counter(names[m.group(1)] for m in
        (re.search(r"func-id: (\d+),.*kind: function-enter", l) for l in sys.stdin)
        if m and m.group(1) in names)
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' "$1" "$2"
}
# In an fdr-cc build fdr's runtime and XRay's call through the program's
# PLT too: "LO-HI,..." of their code (fdr_text: plt_self.c) for the audit
# to leave out ($LIBCALL_AUDIT_SKIP), as fdr does.
runtime_ranges() { # EXE
	nm -S --defined-only "$1" | python3 -c '
import re, sys
r, se = [], {}
for s in (l.split() for l in sys.stdin):
    if len(s) == 3 and s[2] in ("__start_fdr_text", "__stop_fdr_text"):
        se[s[2]] = s[0]
    if len(s) == 4 and s[2] in "Tt" and re.match(r"(_ZN\d+)?__(xray|sanitizer|interception)", s[3]):
        r.append("%s-%x" % (s[0], int(s[0], 16) + int(s[1], 16)))
if len(se) == 2:
    r.append("%s-%s" % (se["__start_fdr_text"], se["__stop_fdr_text"]))
print(",".join(r))'
}
drop() { # LIST-FILE, COUNTS on stdin: COUNTS without the names in LIST-FILE
	tr ' ' '\n' | awk -F= 'NR == FNR {skip[$0] = 1; next} $1 != "" && !($1 in skip)' "$1" - |
		tr '\n' ' '
}
cc -O2 -Wall -shared -fPIC -o audit.so "$HERE/libcall_audit.c" || exit 1

# compare NAME EXE ARGS...: counts under the audit vs under fdr record
# (each in its own directory, the same input), the output and status too
compare() {
	local name=$1 exe=$2; shift 2
	local a f rc_a rc_f
	mkdir -p "$T/a" "$T/f"
	rm -f "$T/a/"* "$T/f/"*
	cp "$T"/input* "$T/a/" 2>/dev/null; cp "$T"/input* "$T/f/" 2>/dev/null
	local skip=; [ -n "${FDRCC:-}" ] && skip=$(runtime_ranges "$exe")
	(cd "$T/a" && LIBCALL_AUDIT_SKIP=$skip LIBCALL_AUDIT_OUT=$T/counts LD_AUDIT=$T/audit.so \
		"$exe" "$@" >"$T/a.out" 2>/dev/null); rc_a=$?
	rm -rf "$T/f.data"
	(cd "$T/f" && "$FDR" record -o "$T/f.data" -t 0 -- "$exe" "$@" >"$T/f.out" 2>"$T/f.err"); rc_f=$?
	[ $rc_a = $rc_f ] && cmp -s "$T/a.out" "$T/f.out" && diff -r "$T/a" "$T/f" >/dev/null \
		&& ok "$name: output, files and exit status ($rc_f) unchanged" \
		|| nok "$name: output, files and exit status unchanged" "status $rc_a / $rc_f" \
			"$(diff "$T/a.out" "$T/f.out" | head -20)" "$(head -c 1000 "$T/f.err")"
	not_compared "$exe" > "$T/skip"
	a=$(audit_counts "$T/counts" | drop "$T/skip")
	f=$(fdr_lib_counts "$T/f.data" "$exe" | drop "$T/skip")
	rm -f "$T"/counts.*
	[ -n "$a" ] && [ "$a" = "$f" ] && ok "$name: library calls per function = the audit's" \
		|| nok "$name: library calls per function = the audit's" "audit: $a" "fdr:   $f" \
			"$(head -c 1000 "$T/f.err")"
}

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
	-A 'abs@arg1/i32' -R 'abs@retval/i32' -A 'strtod@arg1/s' -R 'strtod@retval/f' \
	-- ./largs >largs.out 2>largs.err
rc=$?
"$FDR" replay largs.data 2>&1 | sed -n 's/^.*| \(getenv\|abs\|strtod\)\((.*\);$/\1\2/p' >largs.calls
[ $rc = 0 ] && [ "$(cat largs.out)" = "$(cat largs.calls)" ] \
	&& ok "-A/-R on library calls (strings, NULL, a negative int, a double): replay equals what the program printed" \
	|| nok "-A/-R on library calls (strings, NULL, a negative int, a double): replay equals what the program printed" \
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
