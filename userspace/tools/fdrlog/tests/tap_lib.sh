# tap_lib.sh - the TAP helpers of the shell test suites here (sourced):
# ok/not_ok/check print one line and count; same compares bytes and shows
# the diff as # lines.  The caller prints "1..$n" and exits on $failed.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }
# same FILE EXPECTED WHAT: byte-equal, else the diff as # lines
same() {
	if cmp -s "$1" "$2"; then ok "$3"; else not_ok "$3"; diff "$2" "$1" | head -20 | sed 's/^/# /'; fi
}
# expect STATUS PATTERN DESCRIPTION -- command...: exit status and stderr
# text ($WORK/out and $WORK/err keep what it printed)
expect() {
	want_status=$1 pattern=$2 what=$3
	shift 4
	"$@" >"$WORK/out" 2>"$WORK/err"
	status=$?
	if [ $status = "$want_status" ] && grep -q -- "$pattern" "$WORK/err"; then
		ok "$what"
	else
		not_ok "$what (status $status, stderr: $(head -c 200 "$WORK/err"))"
	fi
}
# generate GEN.py DIR: DIR emptied and filled by the generator, else a
# failed plan and exit (nothing can be tested without its logs)
generate() {
	rm -rf "$2" && mkdir -p "$2" && python3 "$HERE/$1" "$2" ||
		{ echo "not ok 1 $1"; echo 1..1; exit 1; }
}
