#!/bin/bash
# SPDX-License-Identifier: MIT
# patch_libs_test.sh BUILD - fdr record -P PATTERN@MODULE: the functions
# of shared libraries not built with fdr-cc, patched at start-up and at
# dlopen() (patch_libs.c, patch_dlopen.c): per function, the calls
# recorded equal those the program counts itself (patch_libs.h), names
# from each library's symbol table, the output unchanged; a library a
# constructor's thread runs is left alone; fdr's own libraries are never
# patched; Debian's libz and libbz2 under python3 (TAP on stdout).
. "$(dirname "$0")/tap_lib.sh" patch_libs "$1"
export LC_ALL=C
cd "$T" || exit 1
. "$HERE/log_checks.sh"

# "name=calls" of fdr report --json DIR for NAMES (one argument, spaces)
report_calls() { # DIR NAMES
	"$FDR" report --json "$1" 2>/dev/null | python3 -c '
import json, sys
calls = {f["name"]: f["calls"] for f in json.load(sys.stdin)["functions"]}
print(" ".join("%s=%d" % (k, calls.get(k, 0)) for k in sorted(sys.argv[1].split())))' "$2"
}
# the same from the program's own "count NAME N" lines
own_calls() { # OUT
	awk '$1 == "count" {print $2 "=" $3}' "$1" | sort | paste -sd' '
}
# distinct ids DIR's sym-maps give NAME in the file LIB
ids_of() { # DIR NAME LIB
	cat "$1"/fdr-syms.*.map | awk -F'\t' -v n="$2" -v l="$3" '$2 == n && $3 == l {print $1}' | sort -u | wc -l
}
NAMES='own_leaf own_mid own_rec own_api own_load plug_leaf plug_entry plug_rec deep_leaf deep_entry'

mkdir -p sub
check "build: plain clang-19 -O2 -g, no fdr-cc: a program, its library, two dlopen()ed ones" bash -c "
	clang-19 -O2 -g -fPIC -shared -o libpatchown.so '$HERE/patch_libs_own.c' -Wl,-rpath,'$T/sub' &&
	clang-19 -O2 -g -fPIC -shared -DPLUG -o libpatchplug.so '$HERE/patch_libs_plug.c' &&
	clang-19 -O2 -g -fPIC -shared -o sub/libpatchdeep.so '$HERE/patch_libs_plug.c' &&
	clang-19 -O2 -g -fPIC -shared -o libpatchctor.so '$HERE/patch_libs_ctor.c' -lpthread &&
	clang-19 -O2 -g -rdynamic -o prog '$HERE/patch_libs_prog.c' -L. -lpatchown -ldl -lpthread \
		-Wl,-rpath,'$T'"

# ---- the libraries' functions: calls = the program's own counts ----
./prog > plain.out; rc_plain=$?
"$FDR" record -o l.data -t 0 -P . -P '.@libpatchown' -P '.@libpatchplug.so' -P '^deep_@libpatchdeep' \
	-- ./prog > l.out 2> l.err; rc=$?
[ $rc = $rc_plain ] && [ $rc = 0 ] && cmp -s plain.out l.out \
	&& ok "-P PATTERN@MODULE: output and exit status unchanged (dlopen() by bare names along RUNPATHs)" \
	|| nok "-P PATTERN@MODULE: output and exit status unchanged" "rc $rc_plain/$rc" \
		"$(diff plain.out l.out | head -20)" "$(head -c 1500 l.err)"
p=$(report_calls l.data "$NAMES") o=$(own_calls plain.out)
[ "$p" = "$o" ] \
	&& ok "calls of each library function = the program's own count (linked, dlopen()ed twice, dlopen()ed by a library; a thread running meanwhile)" \
	|| nok "calls of each library function = the program's own count" "fdr:  $p" "prog: $o" \
		"$(grep -- -P: l.err)"
check "every exit closes the newest entry" nested l.data
statics=$(cat l.data/fdr-syms.*.map | awk -F'\t' -v own="$T/libpatchown.so" -v plug="$T/libpatchplug.so" \
	'($2 == "own_rec" && $3 == own) || ($2 == "plug_rec" && $3 == plug) {print $2}' | sort -u | paste -sd' ')
[ "$statics" = "own_rec plug_rec" ] \
	&& ok "names from each library's .symtab (static functions), with the library's path" \
	|| nok "names from each library's .symtab, with the library's path" "got: $statics"
nids=$(ids_of l.data plug_entry "$T/libpatchplug.so"):$(ids_of l.data plug_rec "$T/libpatchplug.so")
nload=$(grep -c -- "-P: $T/libpatchplug.so: 3 of" l.err)
[ "$nids" = 1:1 ] && [ "$nload" = 2 ] \
	&& ok "a library dlopen()ed again is patched again and keeps its functions' ids" \
	|| nok "a library dlopen()ed again is patched again and keeps its ids" "ids: $nids loads: $nload" \
		"$(grep -- -P: l.err)"
deep=$(grep -c -- "-P: $T/sub/libpatchdeep.so: 2 of [0-9]* functions patched (2 selected, from .symtab)" l.err)
[ "$deep" = 2 ] \
	&& ok "'^deep_@libpatchdeep' selects those functions of that library only, at each load" \
	|| nok "'^deep_@libpatchdeep' selects those functions of that library only" "$(grep -- -P: l.err)"

# ---- a stripped library whose debug info is apart (.gnu_debuglink):
# its static functions from DWARF (fdr record reads it for a library a
# PATTERN@MODULE names and the program links) ----
mkdir -p sl
check "build: libpatchown.so stripped, its debug info beside it (.gnu_debuglink)" bash -c "
	objcopy --only-keep-debug libpatchown.so sl/libpatchown.debug && strip -o sl/libpatchown.so libpatchown.so &&
	objcopy --add-gnu-debuglink=sl/libpatchown.debug sl/libpatchown.so"
unset DEBUGINFOD_URLS
LD_LIBRARY_PATH=$T/sl "$FDR" record -o sl.data -t 0 -P '.@libpatchown' -- ./prog > sl.out 2> sl.err; rc=$?
own=$(report_calls sl.data 'own_leaf own_mid own_rec own_api own_load')
want=$(own_calls plain.out | tr ' ' '\n' | grep '^own_' | paste -sd' ')
named=$(cat sl.data/fdr-syms.*.map | awk -F'\t' -v l="$T/sl/libpatchown.so" '$2 == "own_rec" && $3 == l' | wc -l)
[ $rc = 0 ] && cmp -s plain.out sl.out && [ "$own" = "$want" ] && [ "$named" -ge 1 ] \
	&& grep -q -- "-P: $T/sl/libpatchown.so: .*from .dynsym + [0-9]* of the DWARF of $T/sl/libpatchown.debug)" sl.err \
	&& ok "a stripped library: its static function own_rec patched from DWARF and named, calls = the program's count" \
	|| nok "a stripped library: static functions from DWARF, calls = the program's count" "rc=$rc named=$named" \
		"fdr:  $own" "prog: $want" "$(grep -- -P: sl.err)"

# ---- 20 more runs: dlopen() patching while the worker thread runs ----
bad=0
for i in $(seq 20); do
	"$FDR" record -o s.data -t 0 -P '.@libpatchown' -P '.@libpatchplug' -- ./prog > s.out 2> s.err \
		&& cmp -s plain.out s.out || bad=$((bad + 1))
	rm -rf s.data
done
[ $bad = 0 ] && ok "20 runs patching at dlopen() while a thread runs the other library: the same output each time" \
	|| nok "20 runs patching at dlopen() while a thread runs: the same output each time" "$bad bad" \
		"$(head -c 800 s.err)"

# ---- without @MODULE, as uftrace: the executable's functions only ----
"$FDR" record -o x.data -t 0 -P . -- ./prog > x.out 2> x.err
x=$(report_calls x.data 'own_mid own_rec plug_leaf plug_rec main')
[ "$x" = "main=1 own_mid=0 own_rec=0 plug_leaf=0 plug_rec=0" ] && cmp -s plain.out x.out \
	&& ! grep -q -- "-P: $T/lib" x.err \
	&& ok "-P . patches the executable only; libraries need PATTERN@MODULE" \
	|| nok "-P . patches the executable only" "got: $x" "$(grep -- -P: x.err)"

# ---- library calls only (no -P): dlopen() still finds what it finds ----
# (the runtime's hook made glibc look a bare name up as libfdr-plt.so's)
"$FDR" record -o n.data -t 0 -- ./prog > n.out 2> n.err; rc=$?
[ $rc = 0 ] && cmp -s plain.out n.out \
	&& ok "no -P: a bare-name dlopen() along the program's and a library's RUNPATH still loads" \
	|| nok "no -P: a bare-name dlopen() along the RUNPATHs still loads" "rc=$rc" "$(head -c 800 n.err)"

# ---- a dlopen() whose constructor starts a thread: nothing patched ----
./prog ctor > c_plain.out
"$FDR" record -o c.data -t 0 -P '.@libpatchctor' -- ./prog ctor > c.out 2> c.err; rc=$?
cov=$(grep -- "-P: $T/libpatchctor.so" c.err)
[ $rc = 0 ] && cmp -s c_plain.out c.out && [[ $cov = *"0 of "*"other threads running"* ]] \
	&& [[ $cov = *"dlopen() started a thread"* ]] && [ "$(report_calls c.data ctor_work)" = ctor_work=0 ] \
	&& ok "dlopen() of a library whose constructor starts a thread: nothing patched, said why, output unchanged" \
	|| nok "dlopen() of a library whose constructor starts a thread: nothing patched" "rc=$rc" \
		"$cov" "$(diff c_plain.out c.out)"

# ---- fdr's own libraries: never patched, counted ----
"$FDR" record -o r.data -t 0 -P '.@libc' -P '.@libcapstone' -- ./prog > r.out 2> r.err; rc=$?
libc=$(grep -- '-P: .*/libc.so.6:' r.err)
caps=$(grep -- '-P: .*/libcapstone.so' r.err)
[ $rc = 0 ] && cmp -s plain.out r.out && [[ $libc = *": 0 of "*"used by fdr's runtime"* ]] \
	&& [[ $caps = *": 0 of "*"used by fdr's runtime"* ]] \
	&& ok "libc and capstone (fdr's runtime runs on them): never patched, each selected function counted" \
	|| nok "libc and capstone: never patched, counted" "rc=$rc" "$libc" "$caps" "$(head -c 800 r.err)"

# ---- a program defining malloc and free, which the runtime calls ----
check "build: a program defining malloc and free" clang-19 -O2 -g -o interpose "$HERE/patch_interpose.c"
./interpose > i_plain.out
"$FDR" record -o i.data -t 0 -P . -- ./interpose > i.out 2> i.err; rc=$?
items=$(awk -F'\t' '$1 == "refused" && $2 == "used by fdr'"'"'s runtime" {print $3}' i.data/fdr-patch.*.txt | sort | paste -sd,)
[ $rc = 0 ] && cmp -s i_plain.out i.out && [ "$items" = free,malloc ] \
	&& [ "$(report_calls i.data work)" = work=1000 ] \
	&& ok "malloc and free of the program (the runtime calls them): refused, the rest patched, output unchanged" \
	|| nok "malloc and free of the program: refused, the rest patched" "rc=$rc" "refused: $items" \
		"$(report_calls i.data work)" "$(head -c 800 i.err)"

# ---- libstdc++ patched, C++ exceptions thrown through it and the program ----
if clang++-19 -O2 -g -o throw "$HERE/patch_throw.cc" 2>/dev/null; then
	./throw > th_plain.out
	"$FDR" record -o th.data -t 0 -P . -P '.@libstdc++' -- ./throw > th.out 2> th.err; rc=$?
	nstd=$(grep -- '-P: .*/libstdc++.so' th.err | sed -n 's/.*: \([0-9]*\) of .*/\1/p')
	thrown=$(report_calls th.data __cxa_throw)
	[ $rc = 0 ] && cmp -s th_plain.out th.out && [ "${nstd:-0}" -ge 1000 ] && [ "$thrown" != __cxa_throw=0 ] \
		&& ok "libstdc++ patched ($nstd functions), exceptions thrown through it: output unchanged, $thrown" \
		|| nok "libstdc++ patched, exceptions thrown through it: output unchanged" "rc=$rc" \
			"patched: $nstd, $thrown" "$(head -c 1000 th.err)"
	check "libstdc++ patched: every exit closes the newest entry" nested th.data
else
	ok "libstdc++ patched # SKIP no clang++-19"
	ok "libstdc++ patched: nested # SKIP no clang++-19"
fi

# ---- usage ----
"$FDR" record -o e1 -P 'foo@' -- ./prog >/dev/null 2>e.err; rc=$?
[ $rc = 2 ] && grep -q '@LIBRARY' e.err && [ ! -e e1 ] \
	&& ok "-P 'foo@': a usage error naming the form" \
	|| nok "-P 'foo@': a usage error naming the form" "rc=$rc" "$(cat e.err)"

# ---- Debian's libraries: libz (loaded at start-up), libbz2 (at dlopen) ----
PY=$(readlink -f /usr/bin/python3)
if [ -x "$PY" ] && "$PY" -c 'import bz2, zlib' 2>/dev/null; then
	script='import zlib, bz2; d = b"fdr " * 5000
print(zlib.crc32(d), len(zlib.compress(d)), zlib.decompress(zlib.compress(d)) == d, len(bz2.compress(d)))'
	"$PY" -c "$script" > py_plain.out
	"$FDR" record -o py.data -t 0 -P '.@libz' -P '^BZ2_@libbz2' -- "$PY" -c "$script" > py.out 2> py.err; rc=$?
	z=$(grep -- '-P: .*/libz.so' py.err)
	bz=$(grep -- '-P: .*/libbz2.so' py.err)
	c=$(report_calls py.data 'crc32 BZ2_bzCompress')
	[ $rc = 0 ] && cmp -s py_plain.out py.out && [[ $z = *functions\ patched* ]] \
		&& [[ $bz = *functions\ patched* ]] && [[ $c != *=0* ]] \
		&& ok "Debian's libz (start-up) and libbz2 (dlopen()ed by python3's _bz2): patched, output unchanged ($c)" \
		|| nok "Debian's libz and libbz2: patched, output unchanged" "rc=$rc" "$z" "$bz" "$c" \
			"$(cat py_plain.out py.out)" "$(head -c 1000 py.err)"
else
	ok "Debian's libz and libbz2 under python3 # SKIP python3 with zlib and bz2 not installed"
fi

tap_end
