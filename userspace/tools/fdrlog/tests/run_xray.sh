#!/bin/sh
# run_xray.sh - TAP tests on a real FDR log (version 5) from today's
# compiler-rt: xray_program.c is built with clang-19 -fxray-instrument and
# run; then fdrlog must agree with llvm-xray-19 byte for byte (plain and
# symbolized YAML, sorted and unsorted), --instr-map must name functions as
# llvm-xray does, and account must count the calls the program makes.
# usage: run_xray.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
CLANG=${CLANG:-$(command -v clang-19 || true)}
LLVM_XRAY=${LLVM_XRAY:-$(command -v llvm-xray-19 || true)}
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }

if [ -z "$CLANG" ] || [ -z "$LLVM_XRAY" ]; then
	echo "ok 1 real XRay log # SKIP clang-19 or llvm-xray-19 not installed"
	echo "1..1"
	exit 0
fi
rm -rf "$WORK"
mkdir -p "$WORK"
BIN=$WORK/xray_program
# -rdynamic: the stripped copy below still names functions from .dynsym.
if ! "$CLANG" -O2 -g -rdynamic -fxray-instrument -fxray-instruction-threshold=1 \
	-fxray-modes=xray-fdr -o "$BIN" "$HERE/xray_program.c" -lpthread 2>"$WORK/cc.err"; then
	echo "not ok 1 build xray_program.c with clang-19 -fxray-instrument"
	sed 's/^/# /' "$WORK/cc.err"
	echo "1..1"
	exit 1
fi
XRAY_OPTIONS="xray_logfile_base=$WORK/ verbosity=1" "$BIN" 2>"$WORK/run.err"
check $? "xray_program runs, finalizes and flushes"
LOG=$(ls "$WORK"/xray_program.* 2>/dev/null | head -1)
[ -n "$LOG" ] && [ "$(od -An -tu2 -N2 "$LOG" | tr -d ' ')" = 5 ]
check $? "compiler-rt wrote a version 5 FDR log"

"$FDRLOG" verify -q "$LOG"
check $? "fdrlog verify accepts it"
"$FDRLOG" dump "$LOG" >"$WORK/dump.txt" && grep -q "Pid pid=" "$WORK/dump.txt" &&
	grep -q "CustomEvent size=11 delta=" "$WORK/dump.txt"
check $? "dump shows Pid records and v5 delta custom events"

"$FDRLOG" convert --format yaml "$LOG" >"$WORK/ours.yaml"
"$LLVM_XRAY" convert -f yaml "$LOG" >"$WORK/llvm.yaml"
cmp -s "$WORK/ours.yaml" "$WORK/llvm.yaml"
check $? "yaml equals llvm-xray-19 convert -f yaml"
"$FDRLOG" convert --format yaml --no-sort "$LOG" >"$WORK/ours-unsorted.yaml"
"$LLVM_XRAY" convert -f yaml --sort=false "$LOG" >"$WORK/llvm-unsorted.yaml"
cmp -s "$WORK/ours-unsorted.yaml" "$WORK/llvm-unsorted.yaml"
check $? "--no-sort yaml equals llvm-xray-19 --sort=false"
"$FDRLOG" convert --format yaml --instr-map "$BIN" "$LOG" >"$WORK/ours-sym.yaml"
"$LLVM_XRAY" convert -m "$BIN" -y -f yaml "$LOG" >"$WORK/llvm-sym.yaml"
cmp -s "$WORK/ours-sym.yaml" "$WORK/llvm-sym.yaml"
check $? "--instr-map yaml equals llvm-xray-19 convert -m BINARY -y"
strip -o "$BIN.stripped" "$BIN" &&
	"$FDRLOG" convert --format yaml --instr-map "$BIN.stripped" "$LOG" >"$WORK/ours-stripped.yaml" &&
	"$LLVM_XRAY" convert -m "$BIN.stripped" -y -f yaml "$LOG" | cmp -s - "$WORK/ours-stripped.yaml" &&
	grep -q "function: leaf," "$WORK/ours-stripped.yaml"
check $? "--instr-map of a stripped binary: names from .dynsym, equal to llvm-xray-19"
for f in leaf middle tail_caller with_arg worker; do
	grep -q "function: $f," "$WORK/ours-sym.yaml" || break
done
check $? "symbolized yaml names leaf, middle, tail_caller, with_arg, worker"
grep -q "function: with_arg, args: \[ 100 \], .*kind: function-enter-arg" "$WORK/ours-sym.yaml"
check $? "logged argument 100 of with_arg is an enter-arg record"
grep -q "kind: custom-event, .*data: 'quote '' and \"' }" "$WORK/ours.yaml"
check $? "custom event payload with quotes is escaped as llvm-xray does"

# llvm-xray's account names functions from the same map; ours must agree.
"$LLVM_XRAY" account -k -instr_map "$BIN" "$LOG" 2>/dev/null |
	awk 'NR > 2 { print $1, $NF }' | sort >"$WORK/llvm-names"
"$FDRLOG" account --instr-map "$BIN" "$LOG" >"$WORK/account.txt"
awk '/^[0-9]/ { print $1, $NF }' "$WORK/account.txt" | sort >"$WORK/our-names"
[ -s "$WORK/llvm-names" ] && [ -z "$(comm -23 "$WORK/llvm-names" "$WORK/our-names")" ]
check $? "account --instr-map names ids as llvm-xray account -instr_map"
# Calls the program makes: main 4 x tail_caller(i) -> middle(i+1) -> leaf x (i+1),
# 4 x with_arg -> leaf; worker 3 x (middle(2) -> 2 leaf, with_arg -> leaf).
counts=$(awk '/^[0-9]/ { print $NF "=" $2 }' "$WORK/account.txt" | sort | tr '\n' ' ')
[ "$counts" = "leaf=23 middle=7 tail_caller=4 with_arg=7 worker=1 " ]
check $? "account counts every call of both threads ($counts)"

"$FDRLOG" convert --format chrome "$LOG" >"$WORK/trace.json" &&
	python3 "$HERE/check_chrome.py" "$WORK/trace.json" "$WORK/ours.yaml"
check $? "chrome JSON parses and matches the records"

# C++: mangled names come out demangled, as llvm-xray's symbolizer prints them.
CXX=${CXX:-$(command -v clang++-19 || true)}
mkdir -p "$WORK/cpp"
if [ -n "$CXX" ] && "$CXX" -O1 -fxray-instrument -fxray-instruction-threshold=1 -fxray-modes=xray-fdr \
	-o "$WORK/cpp/prog" "$HERE/xray_program_cpp.cc" 2>"$WORK/cpp/cc.err" &&
	XRAY_OPTIONS="xray_logfile_base=$WORK/cpp/ verbosity=0" "$WORK/cpp/prog" 2>/dev/null; then
	CLOG=$(ls "$WORK"/cpp/prog.* | head -1)
	"$FDRLOG" convert --format yaml --instr-map "$WORK/cpp/prog" "$CLOG" >"$WORK/cpp/ours.yaml"
	"$LLVM_XRAY" convert -m "$WORK/cpp/prog" -y -f yaml "$CLOG" >"$WORK/cpp/llvm.yaml"
	cmp -s "$WORK/cpp/ours.yaml" "$WORK/cpp/llvm.yaml" &&
		grep -q "function: 'shapes::Box<int>::get(int) const'" "$WORK/cpp/ours.yaml"
	check $? "C++: --instr-map demangles as llvm-xray-19 -m -y does"
else
	not_ok "C++: build and run xray_program_cpp.cc with clang++-19"
fi

echo "1..$n"
[ $failed = 0 ]
