#!/bin/bash
# SPDX-License-Identifier: MIT
# exec_test.sh BUILD - every program by its own names (issue 33 part 4):
# a program that PROG exec()s - plainly, from a thread, with execve() and
# an empty environment, or with posix_spawn() and envp = {NULL} - and the
# programs a shell script given as PROG runs are recorded and named with
# their own functions, in XRay and --gcc builds, from DIR alone (the
# binaries moved away); constructors, C++ static initialisers and
# .preinit_array functions are recorded by name.  The call counts
# fdr report prints are checked against what the programs print.
# TAP on stdout.
. "$(dirname "$0")/tap_lib.sh" exec "$1"

# calls NAME REPORT: the calls of every report row named NAME, summed
calls() { awk -v f="$1" '$NF == f { s += $(NF - 1) } END { print s + 0 }' "$2"; }
# printed NAME OUT: the count the program printed for NAME, summed
printed() { awk -v f="$1" '$1 == f { s += $2 } END { print s + 0 }' "$2"; }

# check NAME DIR OUT FUNCTION...: each function's calls in fdr report DIR
# are what the programs printed, nothing is #id, no warning about names
check() {
	local name=$1 dir=$2 out=$3 bad=""
	shift 3
	"$FDR" report "$dir" >"$dir.report" 2>"$dir.err"
	"$FDR" replay "$dir" >"$dir.replay" 2>>"$dir.err"
	for f in "$@"; do
		local want got
		want=$(printed "$f" "$out")
		got=$(calls "$f" "$dir.report")
		[ "$want" -gt 0 ] && [ "$got" = "$want" ] || bad="$bad $f: printed $want, report $got;"
		grep -q "| *$f();" "$dir.replay" || bad="$bad $f not in replay;"
	done
	grep -q '#[0-9]' "$dir.report" "$dir.replay" && bad="$bad an unnamed #id;"
	grep -q 'not theirs\|#id' "$dir.err" && bad="$bad a warning about names;"
	if [ -z "$bad" ]; then ok "$name"
	else nok "$name" "$bad" "$(cat "$dir.report" "$dir.err")"; fi
}

cd "$T" || exit 1
for mode in xray gcc; do
	flag=; [ $mode = gcc ] && flag=--gcc
	mkdir -p $mode
	for p in exec_parent exec_child exec_init; do
		"$B/fdr-cc" $flag -O2 -g -pthread -o $mode/$p "$HERE/$p.c" \
			|| { echo "Bail out! fdr-cc $flag $p failed"; exit 1; }
	done
	"$B/fdr-c++" $flag -O2 -g -o $mode/exec_init_cxx "$HERE/exec_init.cc" \
		|| { echo "Bail out! fdr-c++ $flag failed"; exit 1; }
done

# PROG exec()s a program of the same kind, four ways
for mode in xray gcc; do
	for how in exec thread env0 spawn; do
		d=$mode-$how
		"$FDR" record -o $d -t 0 -- $mode/exec_parent $how "$T/$mode/exec_child" \
			>$d.out 2>$d.rec || { nok "$mode $how: fdr record" "$(cat $d.rec)"; continue; }
		check "$mode, $how: PROG's and the child's functions, each by its own name" \
			$d $d.out parent_work child_work
	done
done

# from DIR alone: the binaries moved away, the same report
for mode in xray gcc; do
	cp $mode-spawn.report $mode-spawn.before
	mv $mode moved
	"$FDR" report $mode-spawn >$mode-spawn.after 2>$mode-spawn.aerr
	mv moved $mode
	if cmp -s $mode-spawn.before $mode-spawn.after && ! grep -q . $mode-spawn.aerr; then
		ok "$mode, spawn: the same report with the binaries moved away"
	else
		nok "$mode, spawn: the same report with the binaries moved away" \
			"$(diff $mode-spawn.before $mode-spawn.after)" "$(cat $mode-spawn.aerr)"
	fi
done

# a --gcc exec keeps the names of the image before it: one sym-map, both
m=$(ls gcc-exec/fdr-syms.*.map)
if [ "$(echo "$m" | wc -l)" = 1 ] && grep -q "	parent_work	" $m && grep -q "^# exec $T/gcc/exec_child$" $m \
	&& grep -q "	child_work	" $m; then
	ok "gcc, exec: the process's sym-map keeps the first image's names after the exec"
else
	nok "gcc, exec: the process's sym-map keeps the first image's names after the exec" "$(cat $m)"
fi

# a shell script as PROG: an XRay program that execs another, and a --gcc one
cat >script.sh <<EOS
#!/bin/sh
"$T/xray/exec_parent" exec "$T/xray/exec_child"
"$T/gcc/exec_child"
EOS
chmod +x script.sh
if "$FDR" record -o script -t 0 -- ./script.sh >script.out 2>script.rec; then
	check "a script as PROG: the programs it runs, by their own names" \
		script script.out parent_work child_work
else
	nok "a script as PROG: fdr record" "$(cat script.rec)"
fi

# before main: constructors and C++ static initialisers; .preinit_array
# (XRay: fdr-cc's own .preinit_array entry, first, starts the mode)
for mode in xray gcc; do
	"$FDR" record -o $mode-init -t 0 -- $mode/exec_init >$mode-init.out 2>$mode-init.rec
	"$FDR" replay $mode-init >$mode-init.replay 2>&1
	want="preinit_work ctor_work"
	bad=""
	for f in $want; do grep -q "| *$f();" $mode-init.replay || bad="$bad $f"; done
	grep -q "^seen 11$" $mode-init.out || bad="$bad (the program printed $(cat $mode-init.out))"
	if [ -z "$bad" ]; then ok "$mode: $want recorded by name before main"
	else nok "$mode: $want recorded by name before main" "missing:$bad" \
		"$(cat $mode-init.replay $mode-init.rec)"; fi
	"$FDR" record -o $mode-cxx -t 0 -- $mode/exec_init_cxx >$mode-cxx.out 2>$mode-cxx.rec
	"$FDR" replay $mode-cxx >$mode-cxx.replay 2>&1
	if grep -q "^held 42$" $mode-cxx.out && grep -q "| *static_value();" $mode-cxx.replay \
		&& grep -B3 "static_value();" $mode-cxx.replay | grep -q "_GLOBAL__sub_I"; then
		ok "$mode: a C++ static initialiser recorded by name, under _GLOBAL__sub_I"
	else
		nok "$mode: a C++ static initialiser recorded by name, under _GLOBAL__sub_I" \
			"$(cat $mode-cxx.out $mode-cxx.replay $mode-cxx.rec)"
	fi
done

tap_end
