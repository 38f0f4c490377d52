#!/bin/bash
# SPDX-License-Identifier: MIT
# lua_counts_test.sh BUILD: a real program, Lua 5.4 from Debian's source
# package, built by its own Makefile through fdr-cc, run once under
# `fdr record -t 0` and once, the very same binary, under compiler-rt's
# xray-basic mode; the per-function call counts must be equal.  Then the
# same source built by a plain clang-19 (no fdr-cc) and recorded with
# `fdr record -P .`: each patched function's calls equal the XRay
# build's, at least 90 % of the symbol table patched, every refusal
# itemised.  Then the
# same with the GCC hooks: Lua built with fdr-cc --gcc under fdr record,
# against counting hooks (count_hooks.c) linked to the same objects.
# TAP on stdout; Documentation/realprog.md.
set -u
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
B=$BUILD/bin
T=$(mktemp -d /tmp/fdr-realprog.XXXXXX)
trap 'rm -rf "$T"' EXIT
compare() { python3 "$HERE/compare_counts.py" "$@"; }
n=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); echo "not ok $n $1"; shift; for l in "$@"; do printf '%s\n' "$l" | head -c 4000 | sed 's/^/# /'; done; }
# check NAME CMD...: ok when CMD exits 0; its output on failure
check() { local name=$1; shift; if "$@" >"$T/check.out" 2>&1; then ok "$name"; else nok "$name" "$(cat "$T/check.out")"; fi; }
bail() { echo "1..$n"; exit 0; }
# fixed CMD...: CMD and what it execs without address-space randomization,
# so that nothing Lua keys by address (build-lua.sh takes the string
# cache out of it) can make one run's calls differ from another's.
fixed() { setarch "$(uname -m)" -R "$@"; }
t0=$SECONDS

# ---- the source, built by its own build system ----
# scripts/realprog/build-lua.sh: fetch (cached), then Lua's own Makefile
# with CC=fdr-cc and a fixed string-hash seed (the two runs must make the
# same calls).
if LUA=$("$TOP/scripts/realprog/build-lua.sh" "$T/src" "$B/fdr-cc" 2>"$T/build.err"); then
	ok "build: Debian's lua5.4 source, make linux CC=fdr-cc (Lua's own Makefile)"
else
	nok "build: Debian's lua5.4 source, make linux CC=fdr-cc (Lua's own Makefile)" "$(cat "$T/build.err")"; bail
fi
nfuncs=$(llvm-xray-19 extract "$LUA" 2>/dev/null | grep -c 'kind: function-enter')
[ "$nfuncs" -gt 500 ] && ok "build: the binary is XRay-instrumented ($nfuncs functions in its instr map)" \
	|| nok "build: the binary is XRay-instrumented" "$nfuncs functions"
cp "$HERE/workload.lua" "$T/"
cd "$T" || exit 1
unset LUA_INIT LUA_INIT_5_4
want=$("$LUA" workload.lua 2>&1)

# ---- fdr: every call, buffers that do not wrap ----
# (--no-libcall: compiler-rt counts the program's functions only)
fixed "$B/fdr" record --no-libcall -o fdr.data -t 0 -b 1M -n 64 -- "$LUA" workload.lua >fdr.out 2>fdr.err
rc=$?
summary=$(grep '^fdr record: ' fdr.err)
[ $rc = 0 ] && [ "$(cat fdr.out)" = "$want" ] && echo "$summary" | grep -q ' 0 buffers recycled, 0 dropped' \
	&& ok "fdr record -t 0: the workload runs, no buffer recycled, none dropped" \
	|| nok "fdr record -t 0: the workload runs, no buffer recycled, none dropped" "rc=$rc" "$(cat fdr.err)"
check "fdrlog verify accepts fdr's log" "$B/fdrlog" verify fdr.data/log.xray

# ---- compiler-rt: xray-basic on the same binary (dynamically linked) ----
# threshold 0 and a stack deep enough for everything; basic mode never
# wraps: it writes its buffer out whenever it fills.
fixed env XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic xray_logfile_base=$T/basic." \
	XRAY_BASIC_OPTIONS="func_duration_threshold_us=0 max_stack_depth=65536" \
	"$LUA" workload.lua >basic.out 2>basic.err
rc=$?
basic=
for f in "$T"/basic.lua.*; do [ -f "$f" ] && basic=$f; done
[ $rc = 0 ] && [ "$(cat basic.out)" = "$want" ] && [ -s "$basic" ] \
	&& ok "compiler-rt xray-basic: the same binary writes its log" \
	|| { nok "compiler-rt xray-basic: the same binary writes its log" "rc=$rc" "$(cat basic.err)"; bail; }

# ---- the counts ----
"$B/fdr" convert --format yaml fdr.data 2>conv.err | compare enters - >fdr.enters
llvm-xray-19 convert -symbolize -instr_map="$LUA" -output-format=yaml "$basic" 2>>conv.err |
	compare enters - >basic.enters
calls=$(awk -F'\t' '{s += $2} END {print s + 0}' basic.enters)
[ "$calls" -ge 900000 ] && ok "the workload makes enough calls ($calls in compiler-rt's log)" \
	|| nok "the workload makes enough calls" "$calls calls" "$(cat conv.err)"
check "calls (Enter records) per function: fdr's log = compiler-rt's" compare equal fdr.enters basic.enters
# Lua's error() and coroutine.yield() longjmp over instrumented frames,
# whose exits XRay never sees.  fdr-cc's longjmp hooks close them in fdr's
# log, so llvm-xray takes it without -d; compiler-rt's log keeps them
# open, and llvm-xray takes it only with -d (which the count comparison
# below uses on both).
check "llvm-xray-19 account without -d accepts fdr's log (every frame a longjmp skipped is closed)" \
	llvm-xray-19 account -instr_map="$LUA" fdr.data/log.xray
if llvm-xray-19 account -instr_map="$LUA" "$basic" >/dev/null 2>&1; then
	nok "compiler-rt's log of the same run needs -d (its skipped frames stay open): accepted without"
else
	ok "compiler-rt's log of the same run needs -d (its skipped frames stay open)"
fi
llvm-xray-19 account -d -instr_map="$LUA" -format=csv "$basic" >basic.csv 2>acct.err
llvm-xray-19 account -d -instr_map="$LUA" -format=csv fdr.data/log.xray >fdr.csv 2>>acct.err \
	&& ok "llvm-xray-19 account -d accepts fdr's log" || nok "llvm-xray-19 account -d accepts fdr's log" "$(cat acct.err)"
check "llvm-xray-19 account -d: fdr's log = compiler-rt's, every function" compare equal fdr.csv basic.csv
"$B/fdr" report --json fdr.data >report.json 2>report.err
check "fdr report --json = compiler-rt's account -d, but for frames unwound by longjmp" \
	compare unwound report.json basic.csv
check "fdr report: no frame left open or closed by a deeper exit (frames_unwound 0, open_calls 0)" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["frames_unwound"] or d["open_calls"])' report.json

# ---- the same through compiler-rt's trampolines, and with -F ----
FDR_XRAY_SLEDS=xray fixed "$B/fdr" record --no-libcall -o tramp.data -t 0 -b 1M -n 64 -- "$LUA" workload.lua >/dev/null 2>tramp.err
"$B/fdr" convert --format yaml tramp.data 2>>conv.err | compare enters - >tramp.enters
check "FDR_XRAY_SLEDS=xray (compiler-rt's trampolines): the same calls per function" compare equal tramp.enters basic.enters
fixed "$B/fdr" record -o only.data -t 0 -F luaH_getshortstr -F luaV_concat -- "$LUA" workload.lua >/dev/null 2>only.err
"$B/fdr" report --json only.data >only.json 2>>only.err
grep -E '^(luaH_getshortstr|luaV_concat)	' basic.enters >only.want
check "record -F two functions: exactly their calls, as compiler-rt counts them" compare equal only.json only.want

# ---- -P: the same source built without fdr-cc, its entries patched ----
# Lua's own Makefile with a plain clang-19 -O2 -g, recorded with -P .;
# the oracle is the XRay build above (fdr-cc: threshold 1, a sled in
# every function; XRay changes no inlining, so the same calls happen).
# Both run as ./lua from directories of one name length (argv[0] is in
# Lua's heap).  Every patched function is compared, called or not.
if LUAP=$("$TOP/scripts/realprog/build-lua.sh" "$T/plain" clang-19 2>"$T/build.err"); then
	ok "build -P: make linux CC=clang-19 (Lua's own Makefile, no fdr-cc)"
else
	nok "build -P: make linux CC=clang-19 (Lua's own Makefile, no fdr-cc)" "$(cat "$T/build.err")"; bail
fi
mkdir p-none p-xray
cp "$LUAP" p-none/lua
cp "$LUA" p-xray/lua
(cd p-none && fixed "$B/fdr" record -o ../pp.data -t 0 -b 1M -n 64 -P . -- ./lua ../workload.lua) >pp.out 2>pp.err
rc=$?
(cd p-xray && fixed "$B/fdr" record -o ../px.data -t 0 -b 1M -n 64 -- ./lua ../workload.lua) >/dev/null 2>px.err
[ $rc = 0 ] && [ "$(cat pp.out)" = "$want" ] && grep -q ' 0 buffers recycled, 0 dropped' pp.err \
	&& ok "-P .: the plain build's output unchanged, no buffer recycled, none dropped" \
	|| nok "-P .: the plain build's output unchanged, no buffer recycled, none dropped" "rc=$rc" "$(cat pp.err)"
cat pp.data/fdr-syms.*.map | awk -F'\t' -v exe="$T/p-none/lua" '$3 == exe {print $2}' | sort -u >pp.patched
nm --defined-only p-none/lua | awk '$2 ~ /^[tT]$/ {print $3}' | sort -u >pp.symtab
read -r nsym npat <<<"$(awk -F'\t' '$1 == "functions" {f = $2} $1 == "patched" {p = $2} END {print f + 0, p + 0}' pp.data/fdr-patch.*.txt)"
[ "$npat" = "$(wc -l <pp.patched)" ] && [ $((npat * 100)) -ge $((nsym * 90)) ] \
	&& ok "-P .: $npat of the symbol table's $nsym functions patched ($((npat * 100 / nsym)) %, at least 90 %)" \
	|| nok "-P .: at least 90 % of the symbol table's functions patched" "$npat of $nsym" \
		"$(wc -l <pp.patched) named in the sym-map" "$(grep -- '-P:' pp.err)"
# The refusals, itemised: the counts by reason, then each function's.
awk -F'\t' '$1 == "refused" {print $3}' pp.data/fdr-patch.*.txt | sort >pp.refused
comm -23 pp.symtab pp.patched >pp.unpatched
[ -s pp.unpatched ] && cmp -s pp.unpatched pp.refused \
	&& ok "-P .: every function of the symbol table not patched is itemised with its reason" \
	|| nok "-P .: every function of the symbol table not patched is itemised with its reason" \
		"not patched, not itemised: $(comm -23 pp.unpatched pp.refused | tr '\n' ' ')" \
		"itemised, yet patched or unknown: $(comm -13 pp.unpatched pp.refused | tr '\n' ' ')"
echo "# $(grep -- '-P:' pp.err)" >&2
echo "# refused: $(awk -F'\t' '$1 == "refused" {printf "%s (%s) ", $3, $2}' pp.data/fdr-patch.*.txt)" >&2
"$B/fdr" convert --format yaml pp.data 2>>conv.err | compare enters - >pp.enters
"$B/fdr" convert --format yaml px.data 2>>conv.err | compare enters - >px.enters
# name<TAB>calls of every patched function, 0 when never called
patched_calls() { awk -F'\t' 'NR == FNR {n[$1] = $2; next} {print $1 "\t" (n[$1] + 0)}' "$1" pp.patched; }
patched_calls pp.enters >pp.counts
patched_calls px.enters >px.counts
called=$(awk -F'\t' '$2 > 0' px.counts | wc -l)
[ "$called" -ge 250 ] && cmp -s pp.counts px.counts \
	&& ok "-P .: calls of each of the $npat patched functions = the XRay build's ($called of them called)" \
	|| nok "-P .: calls of each patched function = the XRay build's" "$called called" \
		"$(diff pp.counts px.counts | head -40)"
FDR=$B/fdr
. "$TOP/userspace/tools/fdr/tests/log_checks.sh"
check "-P .: every exit closes the newest entry (Lua's error() and coroutines longjmp)" nested pp.data

# ---- the GCC hooks: fdr-cc --gcc against counting hooks, same objects ----
# No runtime of compiler-rt's to run the same binary under: the oracle is
# count_hooks.c linked to the very objects fdr-cc --gcc compiled (Lua's
# Makefile relinks only the interpreter).
if LUAG=$("$TOP/scripts/realprog/build-lua.sh" "$T/gcc" "$B/fdr-cc --gcc" 2>"$T/build.err"); then
	ok "build --gcc: make linux CC='fdr-cc --gcc' (Lua's own Makefile)"
else
	nok "build --gcc: make linux CC='fdr-cc --gcc' (Lua's own Makefile)" "$(cat "$T/build.err")"; bail
fi
# Both run as ./lua ../workload.lua: argv[0] is a string in Lua's heap, and
# a different length would shift its garbage collector, hence its calls.
mkdir gcc-fdr gcc-hooks
cp "$LUAG" gcc-fdr/lua
rm -f "$LUAG"
gcc -O2 -c -o count_hooks.o "$HERE/count_hooks.c" &&
	make -s -C "$(dirname "$LUAG")" lua CC="gcc -std=gnu99 -finstrument-functions" \
		SYSLIBS="-Wl,-E -ldl" MYLIBS="$T/count_hooks.o" >relink.log 2>&1 &&
	cp "$LUAG" gcc-hooks/lua &&
	(cd gcc-hooks && COUNT_HOOKS_OUT=$T/hooks.out fixed ./lua ../workload.lua) >hooks.stdout 2>&1
[ "$(cat hooks.stdout)" = "$want" ] && [ -s hooks.out ] \
	&& ok "--gcc: the same objects relinked with counting hooks run the workload" \
	|| nok "--gcc: the same objects relinked with counting hooks run the workload" "$(cat relink.log hooks.stdout)"
compare hooks hooks.out "$LUAG" >hooks.enters
(cd gcc-fdr && fixed "$B/fdr" record --no-libcall -o ../gcc.data -t 0 -b 1M -n 64 -- ./lua ../workload.lua) >gcc.out 2>gcc.err
[ "$(cat gcc.out)" = "$want" ] && grep -q ' 0 buffers recycled, 0 dropped' gcc.err \
	&& ok "--gcc: fdr record -t 0 runs it, no buffer recycled, none dropped" \
	|| nok "--gcc: fdr record -t 0 runs it, no buffer recycled, none dropped" "$(cat gcc.err)"
"$B/fdr" convert --format yaml gcc.data 2>>conv.err | compare enters - >gcc.enters
check "--gcc: calls per function (names from the sym-map) = the counting hooks'" compare equal gcc.enters hooks.enters
echo "# --gcc: $(wc -l <gcc.enters) functions, $(awk -F'\t' '{s += $2} END {print s + 0}' gcc.enters) calls" >&2
echo "# $(wc -l <basic.enters) functions, $calls calls; $((SECONDS - t0)) s" >&2
echo "1..$n"
