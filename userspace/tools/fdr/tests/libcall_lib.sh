# SPDX-License-Identifier: MIT
# libcall_lib.sh - sourced by libcall_test.sh and libcall_nest_test.sh
# (after tap_lib.sh, in $T): the audit counter (libcall_audit.c) built,
# and compare NAME EXE ARGS...: the library calls per function that
# fdr record -t 0 logs equal the audit's on a run with the same input,
# and the output, files and exit status do not change.  $NEST set: with
# --nest-libcall, the audit counting the libraries' calls too, and the
# GLOB_DAT-only functions of the libraries in $NEST_LIBS left out.
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
	# --nest-libcall: the same of each library whose calls count ($NEST_LIBS)
	for l in ${NEST_LIBS:-}; do
		readelf -rW "$l" | awk '$3 ~ /GLOB_DAT/ {g[$5]=1} $3 ~ /JUMP_SLO/ {j[$5]=1}
			END {for (s in g) if (!(s in j)) print s}' | sed 's/@.*//'
	done
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
	# -p: gzip writes the input's mtime into its output
	cp -p "$T"/input* "$T/a/" 2>/dev/null; cp -p "$T"/input* "$T/f/" 2>/dev/null
	local skip=; [ -n "${FDRCC:-}" ] && skip=$(runtime_ranges "$exe")
	(cd "$T/a" && LIBCALL_AUDIT_SKIP=$skip LIBCALL_AUDIT_OUT=$T/counts LD_AUDIT=$T/audit.so \
		LIBCALL_AUDIT_NEST=${NEST:+1} "$exe" "$@" >"$T/a.out" 2>/dev/null); rc_a=$?
	rm -rf "$T/f.data"
	(cd "$T/f" && "$FDR" record -o "$T/f.data" -t 0 ${NEST:+--nest-libcall} -- "$exe" "$@" \
		>"$T/f.out" 2>"$T/f.err"); rc_f=$?
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

