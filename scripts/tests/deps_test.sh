#!/bin/bash
# deps_test.sh - scripts/deps.sh installs per need and waits (bounded) for
# a busy apt: which packages each need selects, and what it does with
# apt-get and dpkg-query replaced by fakes (nothing is installed for real).
set -u
DEPS=$(cd "$(dirname "$0")/.." && pwd)/deps.sh
W=$(mktemp -d /tmp/deps-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }

sel() { FDR_DEPS_PRINT=1 "$DEPS" "$@"; }
peers='^(lttng-tools|liblttng-ust-dev|uftrace)$'
check "demo and test select no benchmark peer (LTTng, uftrace)" \
	bash -c "! { FDR_DEPS_PRINT=1 '$DEPS' demo; FDR_DEPS_PRINT=1 '$DEPS' test; } | grep -Eq '$peers'"
check "bench selects LTTng and uftrace" [ "$(sel bench | grep -Ec "$peers")" = 3 ]
check "the 6.12 headers for test and module-6.12 only" \
	[ "$(sel test | grep -c '^linux-headers-6.12')" = 1 -a "$(sel module-6.12 | grep -c '^linux-headers-6.12')" = 1 \
	  -a "$(sel demo bench build | grep -c '6.12')" = 0 ]
check "no argument means test" [ "$(sel)" = "$(sel test)" ]
check "the 6.1 image for the VM with build, demo and test, not for bench" \
	[ "$(sel demo | grep -c '^linux-image-amd64$')" = 1 -a "$(sel bench | grep -c linux-image)" = 0 ]
"$DEPS" frob >/dev/null 2>"$W/err"; rc=$?
check "an unknown need is refused (exit 2) and the needs are listed" \
	[ $rc = 2 ] && grep -q "unknown need 'frob'; expected build, demo, test, module-6.12 or bench" "$W/err"

if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
	echo "ok $((n + 1)) - fake apt runs # SKIP not root and no sudo"
	echo "1..$((n + 1))"
	exit 0
fi
# Fakes: dpkg-query says nothing is installed until apt-get installed it;
# apt-get logs its arguments and, with LOCKED=1, fails as apt does when
# another apt holds the lock past DPkg::Lock::Timeout.
cat >"$W/dpkg-query" <<'FAKE'
#!/bin/bash
p=${!#}
grep -qx -- "$p" "$FAKE_DIR/installed" 2>/dev/null && printf installed || printf not-installed
FAKE
cat >"$W/apt-get" <<'FAKE'
#!/bin/bash
echo "$*" >>"$FAKE_DIR/apt.log"
if [ "${LOCKED:-0}" = 1 ]; then
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
	exit 100
fi
[ "$2" = "${2#DPkg}" ] || shift 2
if [ "$1" = install ]; then for p in "$@"; do echo "$p" >>"$FAKE_DIR/installed"; done; fi
exit 0
FAKE
chmod +x "$W/dpkg-query" "$W/apt-get"
export FAKE_DIR=$W FDR_APT_GET=$W/apt-get FDR_DPKG_QUERY=$W/dpkg-query FDR_APT_LOCK_TIMEOUT=7

LOCKED=1 "$DEPS" bench >/dev/null 2>"$W/err"; rc=$?
check "a lock held past the bound: exit 1" [ $rc = 1 ]
check "... said beforehand that it waits, and for how long" grep -q "waits up to 7 s if another apt or dpkg holds the lock" "$W/err"
check "... and afterwards who held it and what to do" \
	grep -q "still held the lock after 7 s" "$W/err" && grep -q "It is held by process 4242 (apt-get)" "$W/err" &&
	grep -q "FDR_APT_LOCK_TIMEOUT" "$W/err"
check "apt-get was asked to wait: -o DPkg::Lock::Timeout=7" grep -q '^-o DPkg::Lock::Timeout=7 update' "$W/apt.log"
: >"$W/apt.log"
"$DEPS" bench >/dev/null 2>"$W/err"; rc=$?
check "bench with a free lock: installs the missing packages and exits 0" \
	[ $rc = 0 ] && grep -q "all dependencies of bench present" "$W/err"
check "... one apt-get install with the peers, --no-install-recommends and the lock timeout" \
	[ "$(grep -c ' install ' "$W/apt.log")" = 1 ] &&
	grep -q '^-o DPkg::Lock::Timeout=7 install -y -qq --no-install-recommends .*lttng-tools.*uftrace' "$W/apt.log"
: >"$W/apt.log"
"$DEPS" bench >/dev/null 2>&1
check "with everything present: no apt-get at all" [ ! -s "$W/apt.log" ]

echo "1..$n"
[ $failed = 0 ]
