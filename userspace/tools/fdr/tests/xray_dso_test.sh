#!/bin/bash
# SPDX-License-Identifier: MIT
# xray_dso_test.sh BUILD - functions of shared libraries built by fdr-cc
# (XRay), which clang-19's runtime never patches: fdr's mode patches them
# (userspace/adapters/xray_dso.h).  A program linked against one and
# dlopen()ing/dlclose()ing another; every call counted against what the
# program says it made, named in fdr report and replay (TAP on stdout).
. "$(dirname "$0")/tap_lib.sh" dso "$1"
# "name=calls ..." of every function of `fdr report --json DIR [args]`, by name
profile() {
	"$FDR" report --json "$@" 2>"$T/r.err" | python3 -c 'import json,sys
d=json.load(sys.stdin)
print(" ".join("%s=%d" % (f["name"], f["calls"]) for f in sorted(d["functions"], key=lambda f: f["name"])))' 2>/dev/null
}
expect_profile() { # name want dir [report args]
	local name=$1 want=$2; shift 2
	local got; got=$(profile "$@")
	if [ "$got" = "$want" ]; then ok "$name"; else nok "$name" "want: $want" "got:  $got" "$(cat "$T/r.err")"; fi
}
cd "$T" || exit 1
# Recorded with --no-libcall: the program's library calls (on by default)
# would add printf and dlsym to every count; libcall_test.sh checks them.

check "fdr-cc -shared: the linked library" "$B/fdr-cc" -O1 -fPIC -shared -o libdsolib.so "$HERE/dso_lib.c"
check "fdr-cc -shared: the dlopen()ed library" "$B/fdr-cc" -O1 -fPIC -shared -o libdsoplug.so "$HERE/dso_plug.c"
check "fdr-cc: the program" "$B/fdr-cc" -O1 -o dso_main "$HERE/dso_main.c" -L. -ldsolib -Wl,-rpath,'$ORIGIN'
# the sleds are there, unpatched: what clang-19 leaves to a runtime
objdump -d libdsolib.so | grep -A1 '<dso_lib_leaf>:' | grep -q 'jmp' \
	&& ok "clang-19 -shared: the library holds XRay sleds" \
	|| nok "clang-19 -shared: the library holds XRay sleds" "$(objdump -d libdsolib.so | grep -A2 '<dso_lib_leaf>:')"

# ---- -t 0: every call ----
"$FDR" record --no-libcall -o all -t 0 -- ./dso_main ./libdsoplug.so >want.txt 2>rec.err
want=$(cat want.txt)
[ -n "$want" ] && ok "the program ran and said what it called" || nok "the program ran and said what it called" "$(cat rec.err)"
expect_profile "-t 0: every call of both libraries, counted and named" "$want" all
grep -q "^1	$T/libdsolib.so$" all/fdr-xray-dso.*.map && grep -q "^2	$T/libdsoplug.so$" all/fdr-xray-dso.*.map \
	&& ok "object ids: 1 the linked library, 2 the dlopen()ed one (kept over 3 loads)" \
	|| nok "object ids: 1 the linked library, 2 the dlopen()ed one (kept over 3 loads)" "$(cat all/fdr-xray-dso.*.map)"
grep -q "^$((1 << 24 | 1))	dso_lib_leaf	$T/libdsolib.so	" all/fdr-syms.xray.map \
	&& ok "ids: (object << 24) | n, n in map order as XRay numbers them" \
	|| nok "ids: (object << 24) | n, n in map order as XRay numbers them" "$(cat all/fdr-syms.xray.map)"
"$FDR" replay all >replay.txt 2>&1
grep -q '^ *[0-9.]* [mun]s \[ *[0-9]*\] |     plug_leaf();' replay.txt && grep -q '} /\* plug_run \*/' replay.txt \
	&& ok "replay: plug_leaf() under plug_run(), named" || nok "replay: plug_leaf() under plug_run(), named" "$(head -30 replay.txt)"

# library calls on (the default): a call into a library built with fdr-cc
# is recorded once, by its sleds, not a second time by the GOT hook
"$FDR" record -o lc -t 0 -- ./dso_main ./libdsoplug.so >/dev/null 2>lc.err
got=$(profile lc | tr ' ' '\n' | grep -E '^(dso_lib_|plug_|main=)' | tr '\n' ' ')
[ "$got" = "$(echo "$want" | tr ' ' '\n' | grep -E '^(dso_lib_|plug_|main=)' | tr '\n' ' ')" ] \
	&& profile lc | grep -q 'printf=1' \
	&& ok "library calls on: fdr-cc libraries' functions counted once, printf recorded" \
	|| nok "library calls on: fdr-cc libraries' functions counted once, printf recorded" \
		"want: $want" "got:  $(profile lc)" "$(cat lc.err)"

# ---- report -F: a library function and what it calls ----
expect_profile "report -F plug_run: the dlopen()ed function and its callees" \
	"plug_leaf=18 plug_run=3" all -F plug_run

# ---- the default threshold (5 us): the 1 ms calls all, short ones maybe ----
"$FDR" record --no-libcall -o dflt -- ./dso_main ./libdsoplug.so >/dev/null 2>&1
got=$(profile dflt)
python3 - "$got" "$want" <<'P' && ok "default threshold: slow calls all kept, none counted more than made" || nok "default threshold: slow calls all kept, none counted more than made" "got:  $got" "want: $want"
import sys
got = dict(kv.split("=") for kv in sys.argv[1].split())
want = dict(kv.split("=") for kv in sys.argv[2].split())
assert got.get("dso_lib_slow") == "1" and got.get("plug_slow") == "3", got
assert all(k in want and int(v) <= int(want[k]) for k, v in got.items()), got
P

# ---- record -F/-N on library functions (names PROG's map lacks) ----
"$FDR" record --no-libcall -o only -t 0 -F plug_slow -F dso_lib_work -- ./dso_main ./libdsoplug.so >/dev/null 2>only.err
expect_profile "record -F plug_slow -F dso_lib_work: only those library functions" \
	"dso_lib_work=4 plug_slow=3" only
"$FDR" record --no-libcall -o onlymain -t 0 -F main -- ./dso_main ./libdsoplug.so >/dev/null 2>&1
expect_profile "record -F main: no library function" "main=1" onlymain
"$FDR" record --no-libcall -o skip -t 0 -N plug_leaf -N dso_lib_leaf -- ./dso_main ./libdsoplug.so >/dev/null 2>&1
expect_profile "record -N plug_leaf -N dso_lib_leaf: all but those" \
	"dso_lib_slow=1 dso_lib_work=4 main=1 plug_run=3 plug_slow=3" skip
"$FDR" record --no-libcall -o bad -t 0 -F '#99999' -- ./dso_main ./libdsoplug.so >/dev/null 2>bad.err
[ $? = 125 ] && grep -q "no such function" bad.err && [ ! -e bad ] \
	&& ok "record -F #id not in PROG's map: refused, no data directory" \
	|| nok "record -F #id not in PROG's map: refused, no data directory" "$(cat bad.err)"

# a program that links the library but never dlopen()s: names are checked
# against the maps of the libraries the loader resolves for it
cat > linked.c <<'X'
int dso_lib_work(int n);
int main(void) { return dso_lib_work(3) == 6 ? 0 : 1; }
X
check "fdr-cc: a program that links the library, no dlopen()" "$B/fdr-cc" -O1 -o linked linked.c -L. -ldsolib -Wl,-rpath,'$ORIGIN'
"$FDR" record --no-libcall -o lonly -t 0 -F dso_lib_work -- ./linked >/dev/null 2>lonly.err
expect_profile "record -F dso_lib_work: found in the linked library's map" "dso_lib_work=1" lonly
"$FDR" record --no-libcall -o lbad -t 0 -F dso_lib_wrok -- ./linked >/dev/null 2>lbad.err
[ $? = 125 ] && grep -q -- "-F dso_lib_wrok: no such function in the program's XRay instrumentation map nor in its shared libraries'" lbad.err && [ ! -e lbad ] \
	&& ok "record -F typo, no dlopen(): refused before running, no data directory" \
	|| nok "record -F typo, no dlopen(): refused before running, no data directory" "$(cat lbad.err)"
"$FDR" record --no-libcall -o dnote -t 0 -F plug_slow -F not_anywhere -- ./dso_main ./libdsoplug.so >/dev/null 2>dnote.err
grep -q "note: -F not_anywhere: not in the program's XRay map nor in its libraries'; kept for the libraries it dlopen()s" dnote.err \
	&& ok "record -F, a program that dlopen()s: a name no map has yet is a note, not an error" \
	|| nok "record -F, a program that dlopen()s: a name no map has yet is a note, not an error" "$(cat dnote.err)"
expect_profile "record -F plug_slow -F not_anywhere: plug_slow recorded" "plug_slow=3" dnote

# C++: the report's names are demangled; the mode matches a library's
# symbol-table name, which fdr record looks up for a linked library
cat > cxxlib.cc <<'X'
namespace shapes {
struct Sq { int s; __attribute__((noinline)) int area() const { return s * s; } };
__attribute__((noinline)) int total(int n) { int t = 0; for (int i = 0; i < n; i++) t += Sq{i}.area(); return t; }
}
X
cat > cxxmain.cc <<'X'
namespace shapes { int total(int); }
int main() { return shapes::total(4) == 14 ? 0 : 1; }
X
check "fdr-c++ -shared: a C++ library" "$B/fdr-c++" -O1 -fPIC -shared -o libcxxl.so cxxlib.cc
check "fdr-c++: a program linking it" "$B/fdr-c++" -O1 -o cxxmain cxxmain.cc -L. -lcxxl -Wl,-rpath,'$ORIGIN'
"$FDR" record --no-libcall -o cxx -t 0 -- ./cxxmain >/dev/null 2>&1
expect_profile "C++ library: names demangled" "main=1 shapes::Sq::area() const=4 shapes::total(int)=1" cxx
"$FDR" record --no-libcall -o cxxf -t 0 -F 'shapes::total(int)' -- ./cxxmain >/dev/null 2>&1
expect_profile "record -F 'shapes::total(int)': a C++ library function by its report name" \
	"shapes::total(int)=1" cxxf
"$FDR" record --no-libcall -o cxxn -t 0 -N 'shapes::Sq::area() const' -- ./cxxmain >/dev/null 2>&1
expect_profile "record -N 'shapes::Sq::area() const': all but that one" "main=1 shapes::total(int)=1" cxxn

# a C++ exception thrown in a library, through a library frame, caught
# in main: the unwinder closes the library's frames too (xray_dso.h)
cat > thr.cc <<'X'
#include <stdexcept>
__attribute__((noinline)) void lib_thrower(int x) { if (x >= 0) throw std::runtime_error("x"); }
__attribute__((noinline)) int lib_middle(int x) { lib_thrower(x); return x + 1; }
X
cat > thrmain.cc <<'X'
int lib_middle(int);
__attribute__((noinline)) int after(int x) { return x * 2; }
int main() { int s = 0; for (int i = 0; i < 3; i++) { try { s += lib_middle(i); } catch (...) { s += after(i); } } return s == 6 ? 0 : 1; }
X
check "fdr-c++ -shared: a library that throws" "$B/fdr-c++" -O1 -fPIC -shared -o libthr.so thr.cc
check "fdr-c++: a program catching its throws" "$B/fdr-c++" -O1 -o thrmain thrmain.cc -L. -lthr -Wl,-rpath,'$ORIGIN'
"$FDR" record --no-libcall -o thr -t 0 -- ./thrmain >/dev/null 2>&1
"$FDR" replay thr >thr.txt 2>&1
[ "$(grep -c '\] |   after();$' thr.txt)" = 3 ] && [ "$(grep -c '\] |   } /\* lib_middle \*/$' thr.txt)" = 3 ] \
	&& ok "a throw through library frames closes them: after() at main's level, 3 times" \
	|| nok "a throw through library frames closes them: after() at main's level, 3 times" "$(cat thr.txt)"

tap_end
