#!/bin/bash
# SPDX-License-Identifier: MIT
# portable_test.sh BUILD - a data directory names its functions by itself
# (issue 37 part 3): fdr record keeps the XRay function map in
# DIR/fdr-syms.xray.map, so report/replay/flame/convert print the same
# bytes with the binary moved away or rebuilt; a directory without the
# map (an older fdr's) is named from the binary only when it is there
# with the recorded build-id.  TAP on stdout.
. "$(dirname "$0")/tap_lib.sh" port "$1"

# views DIR OUTDIR: every reading command's output and stderr
views() {
	mkdir -p "$2"
	"$FDR" report "$1" >"$2/report" 2>"$2/report.err"
	"$FDR" replay "$1" >"$2/replay" 2>"$2/replay.err"
	"$FDR" flame -o "$2/flame.svg" "$1" 2>"$2/flame.err"
	"$FDR" convert --format yaml -o "$2/yaml" "$1" 2>"$2/yaml.err"
	"$FDR" convert --format chrome -o "$2/chrome.json" "$1" 2>"$2/chrome.err"
}
same_views() { # name want got
	local diffs
	diffs=$(for f in report replay flame.svg yaml chrome.json; do
		cmp -s "$T/$2/$f" "$T/$3/$f" || echo "$f differs"; done)
	[ -z "$diffs" ] && ok "$1" || nok "$1" "$diffs" "$(cat "$3"/*.err)"
}
no_noise() { # name dir: no warning about names on stderr
	if ! cat "$2"/*.err | grep -q "instrumentation map\|not the binary\|#id"; then ok "$1"
	else nok "$1" "$(cat "$2"/*.err)"; fi
}
all_names() { # name dir: report names every function, no #id
	if grep -q "  leaf$" "$2/report" && grep -q "  middle$" "$2/report" \
		&& ! grep -q "#[0-9]" "$2/report" "$2/replay"; then ok "$1"
	else nok "$1" "$(cat "$2/report" "$2"/*.err)"; fi
}

cd "$T" || exit 1
cp "$HERE/traced.c" .
mkdir prog
"$B/fdr-cc" -O2 -g -o prog/traced traced.c || { echo "Bail out! fdr-cc failed"; exit 1; }
# a different build at the same path: one more instrumented function,
# first in the file, so every id names another function
{ echo '__attribute__((noinline)) int port_extra(int x) { return x * 3; }'; cat traced.c; } >other.c
"$B/fdr-cc" -O2 -g -o other other.c || { echo "Bail out! fdr-cc failed"; exit 1; }
# --no-libcall: library calls (on by default) write a sym-map of their
# own, and this "old directory" has none
"$FDR" record --no-libcall -o d -t 0 -- prog/traced calls 2>rec.err \
	|| { echo "Bail out! fdr record failed: $(cat rec.err)"; exit 1; }

id=$(grep '^build-id' d/info | cut -f2)
if grep -q "^5	leaf	$T/prog/traced	0x" d/fdr-syms.xray.map \
	&& grep -q "^# build-id	$T/prog/traced	$id\$" d/fdr-syms.xray.map; then
	ok "record: DIR/fdr-syms.xray.map names PROG's functions, with its build-id"
else
	nok "record: DIR/fdr-syms.xray.map names PROG's functions, with its build-id" \
		"info build-id: $id" "$(cat d/fdr-syms.xray.map 2>&1)"
fi

views d here
all_names "read with the binary there: every name" here
no_noise "read with the binary there: no warning" here

mv prog/traced traced.away
views d away
same_views "binary moved away: report, replay, flame, convert print the same bytes" here away
no_noise "binary moved away: no warning, no 'cannot open instrumentation map'" away

cp other prog/traced
views d rebuilt
same_views "another build at the recorded path: the same bytes (DIR's names, not the binary's)" here rebuilt
no_noise "another build at the recorded path: DIR's names need no warning" rebuilt

# an older fdr's directory: no map, names from the binary
# (in place: flame's title names the directory)
mv d/fdr-syms.xray.map map.saved
cp traced.away prog/traced
views d old_there
same_views "old directory, recorded binary there: named from it, the same bytes" here old_there
cp other prog/traced
"$FDR" report d >mis.out 2>mis.err
if grep -q "not the binary that was recorded (build-id $id)" mis.err \
	&& grep -q "#5" mis.out && ! grep -q "port_extra\|  leaf$" mis.out; then
	ok "old directory, another build: a warning, and the binary is not used (#id)"
else
	nok "old directory, another build: a warning, and the binary is not used (#id)" \
		"$(cat mis.out mis.err)"
fi
rm prog/traced
"$FDR" report d >gone.out 2>gone.err
if grep -q "has no function names .* is not here" gone.err && grep -q "#5" gone.out \
	&& ! grep -q "cannot open instrumentation map" gone.err; then
	ok "old directory, binary absent: one warning naming the cause and the fix"
else
	nok "old directory, binary absent: one warning naming the cause and the fix" \
		"$(cat gone.out gone.err)"
fi

tap_end
