#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh OUT BINDIR: interleaved rounds of the set-ups, medians of
# ns/call into results.md (Makefile).  Per-call cost of a recorder = its
# median minus the untraced median of the same binary.  uftrace (if
# installed: scripts/deps.sh bench) records the plain build's library
# calls (--force: no -pg in it, PLT hooks only) into its own directory.
set -eu
OUT=$1 B=$2
ROUNDS=${ROUNDS:-11} CALLS=${CALLS:-1000000}
T=$(mktemp -d /tmp/bench-libcall.XXXXXX)
trap 'rm -rf "$T"' EXIT
for r in $(seq "$ROUNDS"); do
	"$OUT/lib_calls" "$CALLS" >>"$T/lib_plain"
	"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/lib_calls" "$CALLS" 2>/dev/null >>"$T/lib_fdr"
	"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/xray_calls" "$CALLS" 2>/dev/null >>"$T/xray_fdr"
	"$OUT/xray_calls" "$CALLS" >>"$T/xray_plain"
	"$OUT/xray_lib_calls" "$CALLS" >>"$T/xlib_plain"
	"$B/fdr" record -o "$T/d" -t 0 -- "$OUT/xray_lib_calls" "$CALLS" 2>/dev/null >>"$T/xlib_fdr"
	# one integer argument (-A bench_nop@arg1), issue 33's second target
	"$B/fdr" record -o "$T/d" -t 0 -A bench_nop@arg1 -- "$OUT/xray_calls" "$CALLS" 2>/dev/null >>"$T/xray_fdr_arg"
	"$B/fdr" record -o "$T/d" -t 0 -A bench_nop@arg1 -- "$OUT/lib_calls" "$CALLS" 2>/dev/null >>"$T/lib_fdr_arg"
	if command -v uftrace >/dev/null; then
		rm -rf "$T/u"
		uftrace record --force -d "$T/u" "$OUT/lib_calls" "$CALLS" 2>/dev/null >>"$T/lib_uftrace"
		rm -rf "$T/u"
		uftrace record --force -d "$T/u" -A bench_nop@arg1 "$OUT/lib_calls" "$CALLS" 2>/dev/null >>"$T/lib_uftrace_arg"
		(cd "$T" && "$OUT/pg_calls" "$CALLS") >>"$T/pg_plain"	# its gmon.out there
		rm -rf "$T/u"
		uftrace record -d "$T/u" "$OUT/pg_calls" "$CALLS" 2>/dev/null >>"$T/pg_uftrace"
		rm -rf "$T/u"
		uftrace record -d "$T/u" -A bench_nop@arg1 "$OUT/pg_calls" "$CALLS" 2>/dev/null >>"$T/pg_uftrace_arg"
	fi
done
med() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
lp=$(med "$T/lib_plain") lf=$(med "$T/lib_fdr") xp=$(med "$T/xray_plain") xf=$(med "$T/xray_fdr")
yp=$(med "$T/xlib_plain") yf=$(med "$T/xlib_fdr")
xa=$(med "$T/xray_fdr_arg") la=$(med "$T/lib_fdr_arg")
uf= ua= gp= gu= ga=
if [ -s "$T/lib_uftrace" ]; then
	uf=$(med "$T/lib_uftrace") ua=$(med "$T/lib_uftrace_arg")
	gp=$(med "$T/pg_plain") gu=$(med "$T/pg_uftrace") ga=$(med "$T/pg_uftrace_arg")
fi
cost() { echo "$1 - $2" | bc -l | xargs printf %.2f; }
ratio() { echo "($1 - $2) / ($3 - $4)" | bc -l | xargs printf %.2f; }
{
	echo "# bench/libcall: library-call tracing against fdr's XRay mode"
	echo
	echo "$ROUNDS interleaved rounds of $CALLS calls of \`bench_nop\` (\`return x + 1\`),"
	echo "thread CPU time, medians, ns per call; recorded with \`fdr record -t 0\`"
	echo "(every call kept) on the embedded backend. $(date -u +%F), $(nproc) CPUs,"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
	echo
	echo "| set-up | untraced | recorded | recorder's cost per call |"
	echo "|---|---|---|---|"
	echo "| library call (plain build, libfdr-plt.so) | $lp | $lf | $(cost "$lf" "$lp") |"
	echo "| library call (fdr-cc XRay build, its own runtime) | $yp | $yf | $(cost "$yf" "$yp") |"
	echo "| XRay function (fdr-cc build, fdr mode) | $xp | $xf | $(cost "$xf" "$xp") |"
	[ -n "$uf" ] && echo "| library call (plain build, uftrace record --force) | $lp | $uf | $(cost "$uf" "$lp") |"
	echo
	echo "Ratios per call: library call / XRay function: $(ratio "$lf" "$lp" "$xf" "$xp") (plain build),"
	echo "$(ratio "$yf" "$yp" "$xf" "$xp") (fdr-cc build); target: at most 2."
	[ -n "$uf" ] && echo "uftrace / fdr per library call: $(ratio "$uf" "$lp" "$lf" "$lp") (plain build)," \
		"$(ratio "$uf" "$lp" "$yf" "$yp") (against the fdr-cc build's)."
	[ -z "$uf" ] && echo "uftrace is not installed (scripts/deps.sh bench): no uftrace row."
	echo
	echo "## One integer argument: \`-A bench_nop@arg1\`"
	echo
	echo "The same calls, each logging its first argument (fdr: a CallArgument"
	echo "record after the Enter, Documentation/format.md); uftrace's own -A"
	echo "on the same plain build's library call, and on a \`gcc -pg\` build"
	echo "of the same function in the program (uftrace's usual way)."
	echo
	echo "| set-up | untraced | no argument | with \`-A bench_nop@arg1\` | cost per call with it | ÷ without |"
	echo "|---|---|---|---|---|---|"
	echo "| XRay function (fdr-cc build, fdr mode) | $xp | $xf | $xa | $(cost "$xa" "$xp") | $(ratio "$xa" "$xp" "$xf" "$xp") |"
	echo "| library call (plain build, libfdr-plt.so) | $lp | $lf | $la | $(cost "$la" "$lp") | $(ratio "$la" "$lp" "$lf" "$lp") |"
	if [ -n "$uf" ]; then
		echo "| library call (plain build, uftrace record --force) | $lp | $uf | $ua | $(cost "$ua" "$lp") | $(ratio "$ua" "$lp" "$uf" "$lp") |"
		echo "| function in the program (gcc -pg build, uftrace record) | $gp | $gu | $ga | $(cost "$ga" "$gp") | $(ratio "$ga" "$gp" "$gu" "$gp") |"
	fi
	echo
	echo "Target: fdr with one integer argument at most 1.5× fdr without, per call:"
	echo "$(ratio "$xa" "$xp" "$xf" "$xp") (XRay function), $(ratio "$la" "$lp" "$lf" "$lp") (library call)."
	[ -n "$uf" ] && echo "uftrace / fdr per call with the argument: $(ratio "$ua" "$lp" "$la" "$lp") (library call," \
		"same binary), $(ratio "$ga" "$gp" "$xa" "$xp") (uftrace's -pg build against fdr's XRay build)."
} > results.md
cat results.md
