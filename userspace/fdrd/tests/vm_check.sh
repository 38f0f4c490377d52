#!/bin/bash
# SPDX-License-Identifier: MIT
# vm_check.sh - host-side checks of the logs fdrd wrote in the VM
# ($VMOUT/fdrd, listed in $VMOUT/fdrd/expect by tests/vm/fdrd_vm.sh):
# llvm-xray-19 fdr-dump --verify, convert -f yaml with the expected
# numbers of enters and exits, the same YAML from our reader (fdrlog),
# and the finalize reason in the .threads side table.  TAP on stdout.
#
#   vm_check.sh VMOUT BUILD_DIR
set -u
VMOUT=${1:?usage: vm_check.sh VMOUT BUILD_DIR}
BUILD=${2:?usage: vm_check.sh VMOUT BUILD_DIR}
XRAY=${LLVM_XRAY:-llvm-xray-19}
FDRLOG=$BUILD/bin/fdrlog
DIR=$VMOUT/fdrd
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# count_ok WANT GOT: WANT is a number, N+ (at least N), N..M or any
count_ok() {
	case $1 in
	any) [ "$2" -gt 0 ] ;;
	*+) [ "$2" -ge "${1%+}" ] ;;
	*..*) [ "$2" -ge "${1%..*}" ] && [ "$2" -le "${1#*..}" ] ;;
	*) [ "$2" = "$1" ] ;;
	esac
}

if [ ! -f "$DIR/expect" ]; then
	echo "ok 1 - fdrd VM logs # SKIP no $DIR/expect (the VM test did not run)"
	echo "1..1"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while read -r rel enters exits reason; do
	log=$DIR/$rel
	if [ ! -f "$log" ]; then
		not_ok "$rel: missing"
		continue
	fi
	if "$XRAY" fdr-dump --verify "$log" >/dev/null 2>"$tmp/err"; then
		ok "$rel: llvm-xray fdr-dump --verify"
	else
		not_ok "$rel: llvm-xray fdr-dump --verify: $(head -n 1 "$tmp/err")"
	fi
	"$XRAY" convert -f yaml "$log" >"$tmp/llvm.yaml" 2>"$tmp/err"
	e=$(grep -c 'kind: function-enter' "$tmp/llvm.yaml")
	x=$(grep -c 'kind: function-exit' "$tmp/llvm.yaml")
	if count_ok "$enters" "$e" && count_ok "$exits" "$x"; then
		ok "$rel: convert -f yaml: $e enters, $x exits (expected $enters, $exits)"
	else
		not_ok "$rel: convert -f yaml: $e enters, $x exits (expected $enters, $exits)"
	fi
	if [ -x "$FDRLOG" ]; then
		"$FDRLOG" convert --format yaml "$log" >"$tmp/ours.yaml" 2>/dev/null
		if cmp -s "$tmp/llvm.yaml" "$tmp/ours.yaml"; then
			ok "$rel: fdrlog convert gives the same YAML as llvm-xray"
		else
			not_ok "$rel: fdrlog convert differs from llvm-xray"
		fi
	fi
	if grep -q "^finalize	$reason	" "$log.threads" 2>/dev/null; then
		ok "$rel: .threads names the finalize reason ($reason)"
	else
		not_ok "$rel: .threads does not name the finalize reason $reason"
	fi
done <"$DIR/expect"
echo "1..$n"
[ "$failed" = 0 ]
