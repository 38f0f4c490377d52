#!/bin/sh
# run_cases.sh - TAP tests of fdrlog on the hand-built logs in cases/.
#
# For every cases/NAME.hex (turned into a log by hex2bin):
#   - `fdrlog verify` says exactly what NAME.expect says (ok, or the first
#     error: offset, record kind, expected vs found) with exit status 0/1;
#   - llvm-xray-19 accepts or rejects the log as NAME.expect records (our
#     stricter checks are documented in Documentation/reader.md);
#   - for valid logs: `convert --format yaml` equals NAME.yaml and equals
#     what llvm-xray-19 prints, sorted and unsorted; the Chrome JSON parses
#     and matches the YAML record for record.
# usage: run_cases.sh FDRLOG HEX2BIN WORKDIR
set -u
FDRLOG=$1 HEX2BIN=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
LLVM_XRAY=${LLVM_XRAY:-$(command -v llvm-xray-19 || true)}
mkdir -p "$WORK"
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }

for hex in "$HERE"/cases/*.hex; do
	name=$(basename "$hex" .hex)
	log=$WORK/$name.log
	if ! "$HEX2BIN" "$hex" "$log"; then
		not_ok "$name: byte table converts"
		continue
	fi
	want=$(sed -n 's/^verify: //p' "$HERE/cases/$name.expect")
	llvm_want=$(sed -n 's/^llvm: //p' "$HERE/cases/$name.expect")

	got=$("$FDRLOG" verify -q "$log" 2>&1); status=$?
	got=${got#"fdr verify: $log: "}
	[ -z "$got" ] && got=ok
	want_status=1
	[ "$want" = ok ] && want_status=0
	if [ "$got" = "$want" ] && [ $status = $want_status ]; then
		ok "$name: verify says '$want'"
	else
		not_ok "$name: verify says '$got' (status $status), expected '$want'"
	fi

	if [ -n "$LLVM_XRAY" ]; then
		"$LLVM_XRAY" convert -f yaml "$log" >"$WORK/$name.llvm.yaml" 2>/dev/null \
			&& llvm=accepts || llvm=rejects
		[ "$llvm" = "$llvm_want" ]; check $? "$name: llvm-xray-19 $llvm_want it"
	else
		skip "$name: llvm-xray-19 $llvm_want it" "llvm-xray-19 not installed"
	fi
	[ "$want" = ok ] || continue

	"$FDRLOG" convert --format yaml "$log" >"$WORK/$name.yaml" 2>"$WORK/$name.err"
	cmp -s "$WORK/$name.yaml" "$HERE/cases/$name.yaml"; check $? "$name: yaml equals cases/$name.yaml"
	if [ -n "$LLVM_XRAY" ]; then
		cmp -s "$WORK/$name.yaml" "$WORK/$name.llvm.yaml"
		check $? "$name: yaml equals llvm-xray-19 convert -f yaml"
		"$LLVM_XRAY" convert -f yaml --sort=false "$log" >"$WORK/$name.llvm-unsorted.yaml" 2>/dev/null
		"$FDRLOG" convert --format yaml --no-sort "$log" >"$WORK/$name.unsorted.yaml"
		cmp -s "$WORK/$name.unsorted.yaml" "$WORK/$name.llvm-unsorted.yaml"
		check $? "$name: --no-sort equals llvm-xray-19 --sort=false"
	else
		skip "$name: yaml equals llvm-xray-19" "llvm-xray-19 not installed"
	fi
	"$FDRLOG" convert --format chrome "$log" >"$WORK/$name.json" &&
		python3 "$HERE/check_chrome.py" "$WORK/$name.json" "$WORK/$name.yaml"
	check $? "$name: chrome JSON parses and matches the records"
done

echo "1..$n"
[ $failed = 0 ]
