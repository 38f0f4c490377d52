#!/bin/bash
# SPDX-License-Identifier: MIT
# vm-check.sh - host-side checks of the logs the VM's reliability tests
# kept under /out/reliability: llvm-xray-19 fdr-dump --verify and
# convert -f yaml (the external oracle the VM does not have), and our
# logcheck with the writers' tally where there is one.  TAP on stdout.
#
#   vm-check.sh LOGCHECK DIR
set -u
LOGCHECK=${1:?usage: vm-check.sh LOGCHECK DIR}
DIR=${2:?usage: vm-check.sh LOGCHECK DIR}
XRAY=${LLVM_XRAY:-llvm-xray-19}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

logs=$(find "$DIR" -name '*.xray' 2>/dev/null | sort)
if [ -z "$logs" ]; then
	echo "ok 1 - reliability vm-check # SKIP no logs under $DIR (did the VM run the reliability tests?)"
	echo "1..1"
	exit 0
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for log in $logs; do
	name=${log#"$DIR"/}
	if "$XRAY" fdr-dump --verify "$log" >/dev/null 2>"$err" &&
	   "$XRAY" convert -f yaml "$log" >/dev/null 2>>"$err"; then
		ok "vm log $name passes llvm-xray fdr-dump --verify and convert"
	else
		not_ok "vm log $name passes llvm-xray fdr-dump --verify and convert"
		sed 's/^/# /' "$err" | head -5
	fi
	tally=
	[ -f "$log.tally" ] && tally=$log.tally
	# only stress logs carry the writers' pattern
	case "$name" in
	*stress*)
		if "$LOGCHECK" "$log" $tally 2>"$err"; then
			ok "vm log $name: pattern${tally:+ and tally} hold on the host too"
		else
			not_ok "vm log $name: pattern${tally:+ and tally} hold on the host too"
			sed 's/^/# /' "$err" | head -5
		fi ;;
	esac
done
echo "1..$n"
[ "$failed" = 0 ]
