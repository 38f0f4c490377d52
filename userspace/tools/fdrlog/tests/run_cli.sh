#!/bin/sh
# run_cli.sh - TAP tests of fdrlog's command line: help, errors that name
# the file and the cause, no partial output, dump and account text,
# --sym-map names, verify on several files.
# usage: run_cli.sh FDRLOG HEX2BIN WORKDIR
set -u
FDRLOG=$1 HEX2BIN=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK"
. "$HERE/tap_lib.sh"

for c in example:v2_example leftovers:v2_account_leftovers kinds:v2_all_kinds \
	 cut:truncated_function eob:v2_end_of_buffer drops:v2_drop_markers \
	 manydrops:v2_drop_markers_many; do
	"$HEX2BIN" "$HERE/cases/${c#*:}.hex" "$WORK/${c%%:*}.log"
done

"$FDRLOG" --help >"$WORK/out"; [ $? = 0 ] && grep -q "convert" "$WORK/out"
check $? "fdrlog --help lists the commands"
for cmd in dump verify convert account replay flame; do
	"$FDRLOG" $cmd --help >"$WORK/out"
	[ $? = 0 ] && grep -q "^usage: fdr $cmd" "$WORK/out"
	check $? "fdrlog $cmd --help prints its usage"
done
expect 2 "unknown command 'frob'" "unknown command is named" -- "$FDRLOG" frob x
expect 1 "fdr verify: $WORK/missing.log: No such file" \
	"missing file: path and cause" -- "$FDRLOG" verify "$WORK/missing.log"
expect 1 "$WORK holds no log (log.xray: No such file" "a directory without fdr record's log is refused" -- \
	"$FDRLOG" verify "$WORK"
expect 2 "format xml: expected yaml, chrome or perfetto" "bad --format is named" -- \
	"$FDRLOG" convert --format xml "$WORK/example.log"

rm -f "$WORK/out.yaml" "$WORK"/out.yaml.tmp*
expect 1 "offset 104: EndOfBuffer" "convert of an invalid log reports the first error" -- \
	"$FDRLOG" convert --format yaml -o "$WORK/out.yaml" "$WORK/eob.log"
[ ! -e "$WORK/out.yaml" ] && [ -z "$(ls "$WORK" | grep 'out.yaml.tmp')" ]
check $? "failed convert -o leaves no output and no temporary file"
expect 1 "cannot create $WORK/nodir/x.yaml.tmp" "unwritable -o path is named" -- \
	"$FDRLOG" convert --format yaml -o "$WORK/nodir/x.yaml" "$WORK/example.log"
"$FDRLOG" convert --format yaml -o "$WORK/out.yaml" "$WORK/example.log" &&
	"$FDRLOG" convert --format yaml "$WORK/example.log" | cmp -s - "$WORK/out.yaml"
check $? "convert -o writes the same bytes as stdout"

"$FDRLOG" dump "$WORK/example.log" >"$WORK/dump.txt"
[ $? = 0 ] && cmp -s "$WORK/dump.txt" "$HERE/cases/v2_example.dump"
check $? "dump of the format draft's (shared/FORMAT.md §8) example equals cases/v2_example.dump"
expect 1 "offset 88: Function: truncated" "dump stops at a cut record with its offset" -- \
	"$FDRLOG" dump "$WORK/cut.log"
[ "$(wc -l <"$WORK/out")" = 5 ]
check $? "dump printed the header and the 4 whole records before the cut"

"$FDRLOG" account "$WORK/leftovers.log" >"$WORK/account.txt"
[ $? = 0 ] && cmp -s "$WORK/account.txt" "$HERE/cases/v2_account_leftovers.account"
check $? "account counts orphan exits and open calls (cases/v2_account_leftovers.account)"
"$FDRLOG" account --sort count --top 1 "$WORK/leftovers.log" >"$WORK/out"
[ "$(sed -n 2p "$WORK/out" | awk '{print $1, $2}')" = "2 1" ] && [ "$(grep -c '^[0-9]' "$WORK/out")" = 1 ]
check $? "account --sort count --top 1 shows only the least-called function"
"$FDRLOG" account --sort sum --desc "$WORK/leftovers.log" >"$WORK/out"
[ "$(sed -n 2p "$WORK/out" | awk '{print $1}')" = 1 ]
check $? "account --sort sum --desc puts the largest total first"
expect 2 "sort foo: expected func" "bad --sort is named" -- "$FDRLOG" account --sort foo "$WORK/leftovers.log"

# Drop markers (streaming mode): dump says dropped=N on the three markers
# and on none of the look-alikes; account sums them on one last line; a
# log with custom events but no marker has no such line.
"$FDRLOG" dump "$WORK/drops.log" >"$WORK/dump.txt"
[ $? = 0 ] && cmp -s "$WORK/dump.txt" "$HERE/cases/v2_drop_markers.dump" &&
	[ "$(grep -c ' dropped=' "$WORK/dump.txt")" = 3 ]
check $? "dump prints dropped=N after a drop marker's data (cases/v2_drop_markers.dump)"
"$FDRLOG" verify -q "$WORK/drops.log"
check $? "verify: a log with drop markers is valid"
"$FDRLOG" account --no-sched "$WORK/drops.log" >"$WORK/account.txt" 2>/dev/null
[ $? = 0 ] && cmp -s "$WORK/account.txt" "$HERE/cases/v2_drop_markers.account" &&
	[ "$(tail -n 1 "$WORK/account.txt")" = "records dropped by the writers (drop markers): 1012 in 3 places (threads 77, 1234); the table misses their calls" ]
check $? "account sums the drop markers: records, places, threads (cases/v2_drop_markers.account)"
"$FDRLOG" dump "$WORK/kinds.log" >"$WORK/dump.txt" &&
	"$FDRLOG" account --no-sched "$WORK/kinds.log" >"$WORK/account.txt" 2>/dev/null &&
	grep -q CustomEvent "$WORK/dump.txt" && ! grep -q "dropped" "$WORK/dump.txt" "$WORK/account.txt"
check $? "no drop marker, no dropped= and no drop line (a log with a custom event)"
"$FDRLOG" account --no-sched "$WORK/manydrops.log" 2>/dev/null | tail -n 1 >"$WORK/out"
[ "$(cat "$WORK/out")" = "records dropped by the writers (drop markers): 18446744073709551615 in 20 places (threads 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 and 4 more); the table misses their calls" ]
check $? "account: the drop sum saturates at 2^64 - 1, 16 threads then 'and N more'"

"$FDRLOG" convert --format yaml --sym-map "$HERE/cases/v2_all_kinds.symmap" "$WORK/kinds.log" >"$WORK/sym.yaml"
grep -q "func-id: 1, function: main, " "$WORK/sym.yaml" &&
	grep -q "func-id: 2, function: parse_args, " "$WORK/sym.yaml" &&
	grep -q "func-id: 3, function: '@(libx.so.1+0x2f0)', " "$WORK/sym.yaml" &&
	grep -q "func-id: 4, function: 'null', " "$WORK/sym.yaml" &&
	grep -q "func-id: 5, function: worker thread, " "$WORK/sym.yaml" &&
	grep -q "func-id: 6, function: '#6', " "$WORK/sym.yaml"
check $? "--sym-map names functions (unknown '?' as @(module+offset), missing as #id)"
printf '1\tmain\n' >"$WORK/bad.symmap"
expect 1 "bad.symmap:1: expected 4 tab-separated fields" "malformed sym map: file and line" -- \
	"$FDRLOG" convert --format yaml --sym-map "$WORK/bad.symmap" "$WORK/kinds.log"
printf '1\tmain\tm\t10\n1\tother\tm\t20\n' >"$WORK/dup.symmap"
expect 1 "function id 1 is listed twice" "duplicate id in sym map is refused" -- \
	"$FDRLOG" account --sym-map "$WORK/dup.symmap" "$WORK/kinds.log"
printf '# fdr sym-map 1\n1\tmain\t/usr/bin/demo\t0x1130\n6\tchild_only\t/usr/bin/demo\t0x1300\n' >"$WORK/child.symmap"
"$FDRLOG" convert --format yaml --sym-map "$HERE/cases/v2_all_kinds.symmap" \
	--sym-map "$WORK/child.symmap" "$WORK/kinds.log" >"$WORK/sym2.yaml"
grep -q "func-id: 1, function: main, " "$WORK/sym2.yaml" &&
	grep -q "func-id: 6, function: child_only, " "$WORK/sym2.yaml"
check $? "two --sym-map files merge (a repeated identical line is fine)"
expect 1 "cannot open instrumentation map $WORK/none: No such file" "missing --instr-map is named" -- \
	"$FDRLOG" convert --format yaml --instr-map "$WORK/none" "$WORK/kinds.log"
expect 1 "no xray_instr_map section" "--instr-map of a plain binary is refused" -- \
	"$FDRLOG" convert --format yaml --instr-map "$FDRLOG" "$WORK/kinds.log"

"$FDRLOG" verify "$WORK/example.log" "$WORK/eob.log" "$WORK/kinds.log" >"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] && [ "$(grep -c ': ok' "$WORK/out")" = 2 ] && grep -q "eob.log: offset 104" "$WORK/err"
check $? "verify of several files: each reported, status 1 if any is invalid"

# Big enough for several formatting chunks: threads must not change a byte.
GEN=$WORK/gen_big_log
if ${CC:-cc} -O2 -std=gnu11 -I"$HERE/../../../../uapi" -o "$GEN" "$HERE/../../../../bench/reader/gen_big_log.c" &&
	"$GEN" "$WORK/big.log" 4 5; then
	FDRLOG_THREADS=1 "$FDRLOG" convert --format yaml "$WORK/big.log" >"$WORK/big1.yaml"
	FDRLOG_THREADS=4 "$FDRLOG" convert --format yaml "$WORK/big.log" >"$WORK/big4.yaml"
	[ "$(wc -l <"$WORK/big1.yaml")" -gt 100000 ] && cmp -s "$WORK/big1.yaml" "$WORK/big4.yaml"
	check $? "4 MB log: yaml formatted on 4 threads equals 1 thread"
	if command -v llvm-xray-19 >/dev/null; then
		llvm-xray-19 convert -f yaml "$WORK/big.log" | cmp -s - "$WORK/big4.yaml"
		check $? "4 MB log (v5, custom events, wraps): yaml equals llvm-xray-19"
	fi
	FDRLOG_THREADS=1 "$FDRLOG" convert --format chrome "$WORK/big.log" >"$WORK/big1.json"
	FDRLOG_THREADS=4 "$FDRLOG" convert --format chrome "$WORK/big.log" >"$WORK/big4.json"
	cmp -s "$WORK/big1.json" "$WORK/big4.json" &&
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/big4.json"
	check $? "4 MB log: chrome JSON on 4 threads equals 1 thread and parses"
else
	not_ok "build bench/reader/gen_big_log.c and generate a 4 MB log"
fi

echo "1..$n"
[ $failed = 0 ]
