#!/bin/bash
# SPDX-License-Identifier: MIT
# unwind_test.sh BUILD - a longjmp() or a C++ exception over instrumented
# frames leaves the log with an Exit for each frame it skipped, in order
# (userspace/adapters/unwind_frames.h); llvm-xray-19 account then takes
# the log without -d.  Every program is built by fdr-cc/fdr-c++ and
# recorded by `fdr record` on the embedded backend (TAP on stdout).
set -u
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
B=$BUILD/bin
T=$(mktemp -d /tmp/fdr-unwind.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }

# The records of a log as "+name" (Enter) and "-name" (Exit, tail exit),
# in log order, C++ parameter lists dropped; only the test programs' own
# functions (the GCC hooks also see libstdc++'s inline templates).
calls_of() { # DIR
	"$B/fdr" convert --format yaml --no-sort "$1" | python3 -c '
import re, sys
OURS = "main one two three leaf after on_signal from_library rethrow_it outer inner Guard::~Guard".split()
out = []
for line in sys.stdin:
    m = re.search(r"function: (\x27[^\x27]*\x27|[^,]*),.*kind: function-(enter|exit|tail-exit)", line)
    if m:
        name = re.sub(r"\(.*", "", m.group(1).strip("\x27"))
        if name not in OURS:
            continue
        out.append(("+" if m.group(2) == "enter" else "-") + name)
print(" ".join(out))'
}

# expect NAME PROG WANT [ARGS...]: record PROG, compare the sequence
expect() {
	local name=$1 prog=$2 want=$3; shift 3
	local dir=$T/$prog${1:+-$1}.data got
	"$B/fdr" record -o "$dir" -t 0 -- "$T/$prog" "$@" >/dev/null 2>"$dir.err"
	got=$(calls_of "$dir" 2>>"$dir.err")
	if [ "$got" = "$want" ]; then ok "$name"; else nok "$name" "want: $want" "got:  $got" "$(head -c 1000 "$dir.err")"; fi
}

# account NAME PROG [ARGS...]: llvm-xray-19 account, no -d, on the log of
# the last expect of PROG
account() {
	local name=$1 prog=$2; shift 2
	local dir=$T/$prog${1:+-$1}.data
	if llvm-xray-19 account -instr_map="$T/$prog" "$dir/log.xray" >"$T/acct.out" 2>&1; then
		ok "$name"
	else
		nok "$name" "$(head -c 1000 "$T/acct.out")"
	fi
}

build() { # NAME COMPILER ARGS...: build, one test
	local name=$1; shift
	if "$@" >"$T/build.out" 2>&1; then ok "build: $name"; else nok "build: $name" "$(head -c 2000 "$T/build.out")"; fi
}

cd "$T" || exit 1
build "fdr-cc longjmp program (XRay)" "$B/fdr-cc" -O2 -o jump "$HERE/unwind_jump.c"
build "fdr-cc -static (XRay)" "$B/fdr-cc" -O2 -static -o jump_static "$HERE/unwind_jump.c"
build "fdr-cc -D_FORTIFY_SOURCE=2 (__longjmp_chk)" "$B/fdr-cc" -O2 -D_FORTIFY_SOURCE=2 -o jump_fortify "$HERE/unwind_jump.c"
build "fdr-cc --gcc (hooks)" "$B/fdr-cc" --gcc -O2 -o jump_gcc "$HERE/unwind_jump.c"
build "fdr-c++ throwing program (XRay)" "$B/fdr-c++" -O2 -o throw "$HERE/unwind_throw.cc"
build "fdr-c++ -static (XRay)" "$B/fdr-c++" -O2 -static -o throw_static "$HERE/unwind_throw.cc"
build "fdr-c++ --gcc (hooks)" "$B/fdr-c++" --gcc -O2 -o throw_gcc "$HERE/unwind_throw.cc"
# The same link without fdr-cc's hooks: what the log looked like before.
build "clang-19 -fxray-instrument + libfdr-xray.a, no hooks" clang-19 -O2 \
	-fxray-instrument -fxray-instruction-threshold=1 -o jump_nohooks "$HERE/unwind_jump.c" \
	"$BUILD/adapters/libfdr-xray.a" "$BUILD/lib/libfdr.a" -lpthread

jumped="+main +one +two +three +leaf -leaf -three -two -one +after -after -main"
signalled="+main +one +two +three +leaf +on_signal -on_signal -leaf -three -two -one +after -after -main"
for p in jump jump_static jump_fortify jump_gcc; do
	expect "$p: longjmp over three frames closes leaf, three, two, one" $p "$jumped"
	expect "$p: siglongjmp out of a signal handler closes the handler too" $p "$signalled" signal
done
account "jump: llvm-xray-19 account without -d takes the log" jump
account "jump signal: llvm-xray-19 account without -d" jump signal
account "jump_static: llvm-xray-19 account without -d" jump_static
account "jump_fortify: llvm-xray-19 account without -d" jump_fortify

thrown="+main +one +two +three +leaf -leaf -three -two -one +after -after"
thrown="$thrown +from_library -from_library +after -after"
thrown="$thrown +rethrow_it +one +two +three +leaf -leaf -three -two -one -rethrow_it +after -after -main"
for p in throw throw_static throw_gcc; do
	expect "$p: throws (own, libstdc++'s, a rethrow) close every unwound frame" $p "$thrown"
done
# A frame's destructors run during the unwind, in that frame: after the
# frames below it were left, before it is.
dtors="+main +outer +inner +Guard::~Guard -Guard::~Guard -inner +Guard::~Guard -Guard::~Guard -outer"
dtors="$dtors +after -after -main"
for p in throw throw_static throw_gcc; do
	expect "$p: destructors run during the unwind show in their own frame" $p "$dtors" dtor
done
account "throw: llvm-xray-19 account without -d takes the log" throw
account "throw_static: llvm-xray-19 account without -d" throw_static

# Not recorded (no fdr record): the hooks stay out of the way.
for p in throw throw_static jump_static; do
	out=$("$T/$p" signal 2>&1); rc=$?
	want=after; [ "${p#throw}" != "$p" ] && want=$(printf 'after\nafter\nafter')
	[ $rc = 0 ] && [ "$out" = "$want" ] && ok "$p runs as before without fdr record" ||
		nok "$p runs as before without fdr record" "rc=$rc" "$out"
done

# The control: without the hooks the frames stay open and llvm-xray's
# accounting fails, so the checks above can fail.
expect "control: without the hooks longjmp leaves four frames open" jump_nohooks \
	"+main +one +two +three +leaf +after -after -main"
if llvm-xray-19 account -instr_map="$T/jump_nohooks" "$T/jump_nohooks.data/log.xray" >/dev/null 2>&1; then
	nok "control: llvm-xray-19 account rejects the log without the hooks"
else
	ok "control: llvm-xray-19 account rejects the log without the hooks"
fi

echo "1..$n"
[ "$failed" = 0 ]
