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
	if command -v uftrace >/dev/null; then
		rm -rf "$T/u"
		uftrace record --force -d "$T/u" "$OUT/lib_calls" "$CALLS" 2>/dev/null >>"$T/lib_uftrace"
	fi
done
med() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
lp=$(med "$T/lib_plain") lf=$(med "$T/lib_fdr") xp=$(med "$T/xray_plain") xf=$(med "$T/xray_fdr")
yp=$(med "$T/xlib_plain") yf=$(med "$T/xlib_fdr")
uf=; [ -s "$T/lib_uftrace" ] && uf=$(med "$T/lib_uftrace")
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
} > results.md
cat results.md
