#!/bin/bash
# SPDX-License-Identifier: MIT
# args_test.sh BUILD - fdr record -A/-R on an XRay build: the values fdr
# replay shows equal what the program prints of them itself (negative,
# UINT64_MAX, a string with quotes, newline, tab and UTF-8, a double, a
# char), and so do the Chrome and Perfetto exports' typed "arguments"
# and "retval"; strings cut at 64 bytes, NULL; -R alone; -a's types from DWARF;
# llvm-xray still reads the log; the same for a function of an fdr-cc
# shared library, linked and dlopen()ed; arguments passed on the stack
# (arg7+, fparg9+); a bad spec, an unknown function or -a
# without -g is refused with exit 125 and no DIR.
# TAP on stdout.
. "$(dirname "$0")/tap_lib.sh" args "$1"
XRAY=${LLVM_XRAY:-llvm-xray-19}
same() { # name want got
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "want: $2" "got:  $3"; fi
}
cd "$T" || exit 1

check "fdr-cc: the program" "$B/fdr-cc" -O2 -g -o args_prog "$HERE/args_prog.c"
# --no-libcall: the functions print, and their library calls (on by
# default, libcall_test.sh's) would make them show with bodies in replay
SPECS=(-A 'int_add@arg1/i32,arg2/i32' -R int_add@retval/i32
       -A u64_max@arg1/u64 -R u64_max@retval/u64
       -A 'str_len@arg1/s,arg2/d32' -R str_len@retval/u
       -A 'half@fparg1,arg1/d' -R half@retval/f
       -A next_char@arg1/c -R next_char@retval/c
       -A first_byte@arg1/s -R first_byte@retval/i32)
"$FDR" record --no-libcall -t 0 -o d "${SPECS[@]}" ./args_prog >prog.out 2>rec.err
same "fdr record -A/-R: PROG ran as without" 0 "$?"
"$FDR" replay d >replay.out 2>replay.err
# each printed call as replay shows it: "name(args) = ret;" after "| "
sed -n 's/^.*|   \(int_add\|u64_max\|str_len\|half\|next_char\)\((.*\);$/\1\2/p' \
	replay.out >calls.out
same "replay: every value equals what the program printed" "$(cat prog.out)" "$(cat calls.out)"
grep -q '^ *[0-9.]* us \[ *[0-9]*\] |   plain();$' replay.out \
	&& ok "replay: a function without a spec shows no values" \
	|| nok "replay: a function without a spec shows no values" "$(cat replay.out)"
grep -qF '|   first_byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"...) = 48;' replay.out \
	&& ok "replay: a string is cut at 64 bytes, and says so" \
	|| nok "replay: a string is cut at 64 bytes, and says so" "$(grep first_byte replay.out)"
grep -qF '|   first_byte(NULL) = -1;' replay.out \
	&& ok "replay: a NULL string shows as NULL" \
	|| nok "replay: a NULL string shows as NULL" "$(grep first_byte replay.out)"
grep -q '^args	1@arg1/d32,arg2/d32,retval/d32$' d/info \
	&& ok "DIR/info keeps the types, by function id" \
	|| nok "DIR/info keeps the types, by function id" "$(grep ^args d/info)"

# Chrome JSON: the same values, typed ("arguments" on B, "retval" on E)
"$FDR" convert --format chrome -o d.json d 2>conv_chrome.err
python3 - d.json >chrome_calls.out 2>&1 <<'PY'
import json, sys
shown = ("int_add", "u64_max", "str_len", "half", "next_char", "first_byte")
stacks = {}
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e.get("cat") != "function":
        continue
    st = stacks.setdefault(e["tid"], [])
    if e["ph"] == "B":
        st.append(e)
    elif e["ph"] == "E" and st:
        b = st.pop()
        if b["name"] in shown:
            print("%s%s = %s" % (b["name"], b["args"].get("arguments", "?"),
                                 e["args"].get("retval", "?")))
        elif "arguments" in b["args"] or "retval" in e["args"]:
            print("%s: values without a spec" % b["name"])
PY
# and first_byte's, a string cut at 64 bytes and NULL, as replay shows them
sed -n 's/^.*|   \(first_byte(.*\);$/\1/p' replay.out >first_byte.want
same "convert --format chrome: every call's typed values equal what the program printed" \
	"$(cat prog.out first_byte.want)" "$(cat chrome_calls.out conv_chrome.err)"

# Perfetto: the same, as debug annotations "arguments" (BEGIN), "retval" (END)
"$FDR" convert --format perfetto -o d.pftrace d 2>conv_pf.err &&
	protoc --proto_path="$HERE/../../fdrlog/tests" --decode=perfetto.protos.Trace \
		perfetto_min.proto <d.pftrace >d.pftxt 2>>conv_pf.err
python3 - d.pftxt >pf_calls.out 2>&1 <<'PY'
import ast, sys
def parse(lines):
    """protoc's text format: nested dicts of lists"""
    root, stack = {}, []
    cur = root
    for line in lines:
        line = line.strip()
        if line.endswith("{"):
            child = {}
            cur.setdefault(line[:-1].strip(), []).append(child)
            stack.append(cur)
            cur = child
        elif line == "}":
            cur = stack.pop()
        elif line:
            k, v = line.split(":", 1)
            cur.setdefault(k, []).append(v.strip())
    return root
def text(v):
    return ast.literal_eval(v).encode("latin-1").decode("utf-8", "backslashreplace")
shown = ("int_add", "u64_max", "str_len", "half", "next_char", "first_byte")
names, notes, stacks = {}, {}, {}
for pkt in parse(open(sys.argv[1])).get("packet", []):
    for i in pkt.get("interned_data", []):
        for e in i.get("event_names", []):
            names[e["iid"][0]] = text(e["name"][0])
        for e in i.get("debug_annotation_names", []):
            notes[e["iid"][0]] = text(e["name"][0])
    for te in pkt.get("track_event", []):
        ann = {notes[a["name_iid"][0]]: text(a["string_value"][0])
               for a in te.get("debug_annotations", []) if "string_value" in a}
        st = stacks.setdefault(te["track_uuid"][0], [])
        if te["type"][0] == "TYPE_SLICE_BEGIN":
            st.append((names[te["name_iid"][0]], ann))
        elif te["type"][0] == "TYPE_SLICE_END" and st:
            name, b = st.pop()
            if name in shown:
                print("%s%s = %s" % (name, b.get("arguments", "?"), ann.get("retval", "?")))
            elif "arguments" in b or "retval" in ann:
                print("%s: values without a spec" % name)
PY
same "convert --format perfetto: every call's typed values equal what the program printed" \
	"$(cat prog.out first_byte.want)" "$(cat pf_calls.out conv_pf.err)"

# -R alone: a plain Enter, the value before the Exit
"$FDR" record --no-libcall -t 0 -o ronly -R plain@retval/d32 ./args_prog >/dev/null 2>ronly.err
"$FDR" replay ronly 2>&1 | grep -q '^ *[0-9.]* us \[ *[0-9]*\] |   plain() = 3;$' \
	&& ok "-R alone: replay shows the return value" \
	|| nok "-R alone: replay shows the return value" "$("$FDR" replay ronly 2>&1 | grep plain)" "$(cat ronly.err)"
"$FDR" dump ronly 2>&1 | grep -q 'Function Enter fid=7 ' \
	&& ok "-R alone: the entry is a plain Enter (no empty EnterArg)" \
	|| nok "-R alone: the entry is a plain Enter (no empty EnterArg)" "$("$FDR" dump ronly 2>&1 | grep 'fid=7')"

# ---- -a: every function's spec from DWARF ----
"$FDR" record --no-libcall -t 0 -o auto -a ./args_prog >auto.out 2>auto.err
same "fdr record -a: PROG ran as without" "$(cat prog.out)" "$(cat auto.out)"
"$FDR" replay auto 2>&1 | sed -n 's/^.*|   \(int_add\|u64_max\|str_len\|half\|next_char\)\((.*\);$/\1\2/p' >auto_calls.out
same "-a: replay's values equal what the program printed" "$(cat prog.out)" "$(cat auto_calls.out)"
same "-a: every parameter and return value typed from DWARF" \
"args	1@arg1/d32,arg2/d32,retval/d32
args	2@arg1/u64,retval/u64
args	3@arg1/s,arg2/d32,retval/u64
args	4@fparg1/f64,arg1/d64,retval/f64
args	5@arg1/c,retval/c
args	6@arg1/s,retval/d32
args	7@arg1/d32,retval/d32
args	8@arg1/d32,arg2/p,retval/d32" "$(grep '^args	' auto/info)"
"$FDR" info auto >auto.info 2>&1
same "fdr info: the specs by function name, as uftrace info's argspec" \
"# arguments           : 8 function(s) with a spec (fdr replay shows the values)
#                     : int_add@arg1/d32,arg2/d32,retval/d32
#                     : u64_max@arg1/u64,retval/u64" "$(grep -A2 '^# arguments' auto.info)"
# -a on many functions writes an args line each: fdr info still shows
# every other fact of DIR/info (it kept 64 lines before)
python3 -c 'import sys
for i in range(100): print("__attribute__((noinline)) int f%d(int x) { return x + %d; }" % (i, i))
print("int main(void) { int s = 0;")
for i in range(100): print("s += f%d(s);" % i)
print("return s == 0 ? 1 : 0; }")' >many.c
"$B/fdr-cc" -O2 -g -o many many.c 2>/dev/null
"$FDR" record --no-libcall -t 0 -o many_auto -a ./many >/dev/null 2>&1
"$FDR" info many_auto >many.info 2>&1
if grep -q "^# arguments  *: 101 function(s)" many.info && grep -q "and 93 more" many.info &&
	grep -q "^# exit status  *: exited with code: 0" many.info && grep -q "^# max rss  *: [0-9]" many.info; then
	ok "fdr info after -a on 101 functions: the specs counted, every other fact still shown"
else nok "fdr info after -a on 101 functions: the specs counted, every other fact still shown" "$(cat many.info)"; fi

# ---- llvm-xray reads the log: CallArguments, custom events ----
check "llvm-xray fdr-dump --verify: a log with arguments verifies" "$XRAY" fdr-dump --verify d/log.xray
"$XRAY" convert --symbolize --output-format=yaml --instr_map=args_prog d/log.xray >conv.yaml 2>conv.err
grep -q 'function: int_add, args: \[ 4294967295, 2 \].*kind: function-enter-arg' conv.yaml \
	&& ok "llvm-xray convert: int_add's arguments as CallArguments" \
	|| nok "llvm-xray convert: int_add's arguments as CallArguments" "$(grep -m3 int_add conv.yaml) $(cat conv.err)"

# ---- shared libraries built by fdr-cc: linked and dlopen()ed ----
"$B/fdr-cc" -O2 -g -fPIC -shared -o libargslib.so "$HERE/args_lib.c" &&
	"$B/fdr-cc" -O2 -g -fPIC -shared -DARGS_FN=plug_mix -o libargsplug.so "$HERE/args_lib.c" &&
	"$B/fdr-cc" -O2 -g -o args_dso "$HERE/args_dso.c" -L. -largslib -Wl,-rpath,'$ORIGIN' -ldl
same "fdr-cc: two libraries and the program that links one and dlopen()s the other" 0 "$?"
"$FDR" record -t 0 -o dso -A 'lib_mix@arg1/i32,arg2/s,fparg1' -R lib_mix@retval/f \
	-A 'plug_mix@arg1/i32,arg2/s,fparg1' -R plug_mix@retval/f \
	./args_dso ./libargsplug.so >dso.out 2>dso.err
same "-A/-R on library functions: PROG ran as without" 0 "$?"
"$FDR" replay dso 2>&1 | sed -n 's/^.*|   \(lib_mix\|plug_mix\)\((.*\);$/\1\2/p' >dso_calls.out
same "-A/-R on library functions (linked, dlopen()ed): replay's values equal what they printed" \
	"$(cat dso.out)" "$(cat dso_calls.out)"
same "DIR/info: the library functions' types, by the ids they got in the run" \
"args	$((1 << 24 | 1))@arg1/d32,arg2/s,fparg1/f64,retval/f64
args	$((2 << 24 | 1))@arg1/d32,arg2/s,fparg1/f64,retval/f64" "$(grep '^args	' dso/info)"
check "llvm-xray fdr-dump --verify: a log with library functions' arguments verifies" \
	"$XRAY" fdr-dump --verify dso/log.xray
"$FDR" record -t 0 -o dso_auto -a ./args_dso ./libargsplug.so >/dev/null 2>&1
"$FDR" replay dso_auto 2>&1 | sed -n 's/^.*|   \(lib_mix\|plug_mix\)\((.*\);$/\1\2/p' >dso_auto.out
same "-a: the linked library's function typed from its DWARF (the dlopen()ed one: none)" \
	"$(head -1 dso.out)
plug_mix()" "$(cat dso_auto.out)"

# ---- arguments on the stack: argN 7+, fpargN 9+ (uftrace's numbering) ----
check "fdr-cc: functions of 9, 10 and 17 arguments" "$B/fdr-cc" -O2 -g -o args_stack "$HERE/args_stack.c"
"$FDR" record -t 0 --no-libcall -o stk -A 'nine@arg2/d32,arg3,arg4,arg5,arg6,arg7,arg8,arg9/d' -R nine@retval/d \
	-A 'tenf@fparg1,fparg9,fparg10' -R tenf@retval/f \
	-A 'mixed@arg1/d32,arg7/d32,fparg10,arg9/d32' -R mixed@retval/d32 \
	./args_stack >stk.out 2>stk.err
same "-A on stack-passed arguments: PROG ran as without" 0 "$?"
"$FDR" replay stk 2>&1 | sed -n 's/^.*|   \(nine\|tenf\|mixed\)\((.*\);$/\1\2/p' >stk_calls.out
same "-A arg7-arg9, fparg9-10 (stack slots, ints and doubles interleaved): replay equals what was printed" \
	"$(cat stk.out)" "$(cat stk_calls.out)"
"$FDR" record -t 0 --no-libcall -o stk_auto -a ./args_stack >/dev/null 2>&1
"$FDR" replay stk_auto 2>&1 | sed -n 's/^.*|   \(nine\|tenf\)\((.*\);$/\1\2/p' >stk_auto.out
# the values main passes (args_stack.c), the first 8 of each
same "-a: the 7th and 8th integer arguments from the stack, typed from DWARF" \
"nine(1, -2, 3, -4, 5, -6, -7, 8) = -9000000002
tenf(0.5, 1, 2, 3, 4, 5, 6, 7) = 1e+10" "$(cat stk_auto.out)"
grep -q '^args	1@arg1/d64,arg2/d64,arg3/d64,arg4/d64,arg5/d64,arg6/d64,arg7/d64,arg8/d64,retval/d64$' stk_auto/info \
	&& ok "-a: DIR/info names the stack slots arg7, arg8" \
	|| nok "-a: DIR/info names the stack slots arg7, arg8" "$(grep '^args' stk_auto/info)"

# ---- refused before PROG runs: exit 125, a message, no DIR ----
refused() { # name pattern args...
	local name=$1 pat=$2; shift 2
	"$FDR" record -o bad "$@" ./args_prog >/dev/null 2>bad.err
	local rc=$?
	if [ $rc -eq 125 ] && grep -q -- "$pat" bad.err && [ ! -e bad ]; then ok "$name"
	else nok "$name" "exit $rc" "$(cat bad.err)" "$(ls -d bad 2>&1)"; fi
}
refused "-A on an unknown function: named, with the close ones" "no such function.*int_add" -A 'int_ad@arg1'
refused "-A with a bad item: named" "'arg17' is not an argument spec" -A 'int_add@arg1,arg17'
refused "-A with a bad format: named" "'arg1/q' is not an argument spec" -A 'int_add@arg1/q'
refused "-A without @" "expected FUNC@SPEC" -A int_add
refused "-R with an argument" "-R takes retval" -R 'int_add@arg1'
"$B/fdr-cc" -O2 -o args_nog "$HERE/args_prog.c" 2>/dev/null
"$FDR" record -o bad -a ./args_nog >/dev/null 2>bad.err
rc=$?
if [ $rc -eq 125 ] && grep -q "has no DWARF for its functions: rebuild it with -g" bad.err && [ ! -e bad ]; then
	ok "-a on a build without -g: refused, saying why"
else nok "-a on a build without -g: refused, saying why" "exit $rc" "$(cat bad.err)"; fi
tap_end
