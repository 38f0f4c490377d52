#!/bin/bash
# Count TAP/KTAP results over every *.tap file of a results directory and
# print one summary line per file (a "source"), the failing lines, and as
# the very last line "N passed, N failed".
# Exits 0 only if nothing failed and something passed.
#
# usage: scripts/tap-summary.sh RESULTS_DIR
#
# Counting rules (Documentation/testing.md):
#  - a result is a line "ok ..." or "not ok ...", possibly indented;
#  - KTAP nesting: a result line that closes a block of more-indented
#    results is that block's summary and is not counted, so only the
#    innermost test cases count;
#  - "# SKIP" (any case) makes a result skipped, whether ok or not ok;
#    "# TODO" on a "not ok" is counted as skipped as well;
#  - "#" comment lines, "1..N" plans and everything else are ignored.
set -eu

[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $0 RESULTS_DIR" >&2; exit 2; }
dir=$1

shopt -s nullglob
files=("$dir"/*.tap)
if [ ${#files[@]} -eq 0 ]; then
	echo "tap-summary: no results in $dir" >&2
	echo "0 passed, 0 failed"
	exit 1
fi

awk '
function flush_file() {
	if (name == "") return
	printf "  %-44s %4d passed, %d failed, %d skipped\n", name, p, f, s
	P += p; F += f; S += s
}
FNR == 1 {
	flush_file()
	name = FILENAME; sub(/.*\//, "", name); sub(/\.tap$/, "", name)
	p = f = s = 0
	delete child
}
{
	line = $0
	sub(/\r$/, "", line)
	if (!match(line, /^[ \t]*(not ok|ok)([ \t]|$)/)) next
	indent = line; sub(/[^ \t].*/, "", indent); gsub(/\t/, "        ", indent)
	d = length(indent)
	body = substr(line, d + 1)
	is_summary = (d in child) && child[d]
	child[d] = 0
	for (k = 0; k < d; k++) child[k] = 1
	if (is_summary) next
	ok = (body !~ /^not ok/)
	if (toupper(body) ~ /#[ \t]*SKIP/ || (!ok && toupper(body) ~ /#[ \t]*TODO/)) s++
	else if (ok) p++
	else { f++; fails[++nf] = name ": " body }
}
END {
	flush_file()
	if (nf > 0) {
		print "failures:"
		for (i = 1; i <= nf; i++) print "  " fails[i]
	}
	if (S > 0) printf "%d skipped\n", S
	printf "%d passed, %d failed\n", P, F
	exit (F > 0 || P == 0) ? 1 : 0
}' "${files[@]}"
