#!/bin/bash
# Tests of scripts/vm/run with one real VM boot each: exit status, output
# order, /out coming back, no stdin, the timeout.  Prints TAP.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
run=$top/scripts/vm/run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; fails=$((fails + 1)); }

echo "1..6"

rc=0
out=$(FDR_VM_TCG= "$run" -v --out "$tmp/out" -- 'echo one; echo two >&2; echo three >/out/f; exit 7' </dev/null 2>"$tmp/err") || rc=$?
if [ "$rc" = 7 ] && [ "$out" = "$(printf 'one\ntwo')" ]; then
	ok "vm/run returns the command's exit status and output, with no stdin"
else
	not_ok "vm/run returns the command's exit status and output, with no stdin" "exit $rc, output '$out'" "$(cat "$tmp/err")"
fi
# Single-threaded TCG unless told (Documentation/vm.md, "Lockups"); a
# mode qemu does not know is refused before booting.
rc2=0
"$run" --tcg bogus -- true </dev/null >/dev/null 2>"$tmp/err2" || rc2=$?
if grep -q '^vm/run: kernel .* (tcg single);' "$tmp/err" && [ "$rc2" = 2 ] &&
	grep -q "wants single or multi, got 'bogus'" "$tmp/err2"; then
	ok "vm/run: single-threaded TCG by default; --tcg bogus refused (exit 2)"
else
	not_ok "vm/run: single-threaded TCG by default; --tcg bogus refused (exit 2)" "$(cat "$tmp/err")" "--tcg bogus: exit $rc2: $(cat "$tmp/err2")"
fi
if [ "$(cat "$tmp/out/f" 2>/dev/null)" = three ]; then
	ok "files written to /out come back to --out"
else
	not_ok "files written to /out come back to --out" "$tmp/out: $(ls -A "$tmp/out" 2>&1)"
fi

rc=0
"$run" --timeout 3 -- 'sleep 60' </dev/null >/dev/null 2>"$tmp/err" || rc=$?
if [ "$rc" = 124 ] && grep -q 'timed out' "$tmp/err"; then
	ok "a hung guest is stopped by --timeout with exit 124"
else
	not_ok "a hung guest is stopped by --timeout with exit 124" "exit $rc" "$(cat "$tmp/err")"
fi

# A throwaway module that WARNs at load: the run must fail even though the
# command succeeds, and name the warning.
kver=$("$top/scripts/default-kver")
mkdir "$tmp/mod"
cat >"$tmp/mod/warner.c" <<'MOD'
#include <linux/module.h>
static int __init warner_init(void)
{
	pr_warn("warner: about to warn\n");
	WARN_ON(1);
	return 0;
}
static void __exit warner_exit(void) { }
module_init(warner_init);
module_exit(warner_exit);
MODULE_LICENSE("GPL");
MOD
echo 'obj-m += warner.o' >"$tmp/mod/Kbuild"
if ! make -C "/lib/modules/$kver/build" M="$tmp/mod" modules >"$tmp/mod/log" 2>&1; then
	not_ok "a kernel WARNING in the guest fails the run" "building the test module failed:" "$(tail -n 5 "$tmp/mod/log")"
	not_ok "an argument vector runs with each argument one word" "not run: no test module"
else
	# (This boot also checks that an argument vector keeps its words.)
	rc=0
	out=$("$run" --ko "$tmp/mod/warner.ko" -- printf '%s|' 'a  b' "it's" </dev/null 2>"$tmp/err") || rc=$?
	if [ "$rc" = 3 ] && grep -q 'WARNING: CPU' "$tmp/err" && grep -q 'level 4: warner: about to warn' "$tmp/err"; then
		ok "a kernel WARNING and a module pr_warn in the guest fail the run (exit 3)"
	else
		not_ok "a kernel WARNING and a module pr_warn in the guest fail the run (exit 3)" "exit $rc" "$(cat "$tmp/err")"
	fi
	if [ "$out" = "a  b|it's|" ]; then
		ok "an argument vector runs with each argument one word"
	else
		not_ok "an argument vector runs with each argument one word" "output '$out'"
	fi
fi

[ "$fails" -eq 0 ]
