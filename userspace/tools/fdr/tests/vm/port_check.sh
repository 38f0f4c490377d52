#!/bin/bash
# SPDX-License-Identifier: MIT
# port_check.sh VMOUT BUILD - the XRay data directory fdr_vm.sh recorded in
# the VM (VMOUT/fdr/xray.data) reports on the host with every name, the
# recorded binary (/bin/fdr-tests/traced_xray of the guest) absent, and
# without a warning.  TAP on stdout.
set -u
D=$1/fdr/xray.data
FDR=$2/bin/fdr
T=$(mktemp -d /tmp/fdr-portvm.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }

if [ ! -d "$D" ]; then
	nok "the VM left $D (fdr_vm.sh's XRay run)" "$(ls -R "$1" 2>&1 | head -20)"
	echo "1..$n"; exit 1
fi
exe=$(grep '^exe	' "$D/info" | cut -f2)
if [ -n "$exe" ] && [ ! -e "$exe" ]; then ok "the recorded binary ($exe) is not on the host"
else nok "the recorded binary ($exe) is not on the host"; fi
"$FDR" report --json "$D" >"$T/r.json" 2>"$T/r.err"
got=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(" ".join("%s=%d" % (f["name"], f["calls"]) for f in sorted(d["functions"], key=lambda f: f["name"])))' "$T/r.json" 2>&1)
want="leaf=12 main=1 middle=4 work=1"
[ "$got" = "$want" ] && ok "host report of the VM's XRay directory: every name" \
	|| nok "host report of the VM's XRay directory: every name" "want: $want" "got:  $got" "$(cat "$T/r.err")"
[ ! -s "$T/r.err" ] && ok "host report of the VM's XRay directory: no warning" \
	|| nok "host report of the VM's XRay directory: no warning" "$(cat "$T/r.err")"
echo "1..$n"
[ "$failed" = 0 ]
