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
	(cd "$T/a" && LIBCALL_AUDIT_OUT=$T/counts LD_AUDIT=$T/audit.so "$exe" "$@" >"$T/a.out"); rc_a=$?
	rm -rf "$T/f.data"
	(cd "$T/f" && "$FDR" record -o "$T/f.data" -t 0 -- "$exe" "$@" >"$T/f.out" 2>"$T/f.err"); rc_f=$?
	[ $rc_a = $rc_f ] && cmp -s "$T/a.out" "$T/f.out" && diff -r "$T/a" "$T/f" >/dev/null \
		&& ok "$name: output, files and exit status ($rc_f) unchanged" \
		|| nok "$name: output, files and exit status unchanged" "status $rc_a / $rc_f" \
			"$(diff "$T/a.out" "$T/f.out" | head -20)" "$(head -c 1000 "$T/f.err")"
	not_compared "$exe" > "$T/skip"
	a=$(audit_counts "$T/counts" | drop "$T/skip")
	f=$(fdr_counts "$T/f.data" | drop "$T/skip")
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
	c=$("$FDR" convert --format yaml --no-sort x_$mode.data 2>/dev/null | grep -c 'kind: function-enter')
	# traced.c: main 1, work 1, middle 4, leaf 12: 18 Enters, each once,
	# after execer's one library call, execv (whose Exit never comes)
	[ "$c" = 19 ] && ok "exec'ed fdr-cc build ($mode) records through its own libfdr only (execv + 18 calls, once each)" \
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
