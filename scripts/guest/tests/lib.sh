# shellcheck shell=bash
# Sourced by the guest test phases (scripts/guest/tests/*): TAP on stdout,
# diagnostics on stderr and as "# " lines.  Each phase runs as root in the
# guest from /fdr/tests; /fdr/out is the host's; users act through as_user.
set -eu
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export DEBIAN_FRONTEND=noninteractive
n_test=0
failed=0
trap 'echo "1..$n_test"' EXIT
kver=$(uname -r)
# The user in group fdr, and the one outside it (scripts/guest/tests/install makes them).
member=alice
outsider=bob

pass() { n_test=$((n_test + 1)); echo "ok $n_test - $*"; }
fail() { n_test=$((n_test + 1)); failed=$((failed + 1)); echo "not ok $n_test - $*"; }
diag() { sed 's/^/# /'; }
# check DESC CMD...: one result for a command's exit status; its output as
# diagnostics when it fails.
check() {
	local desc=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	if [ $rc = 0 ]; then pass "$desc"; else fail "$desc (exit $rc)"; printf '%s\n' "$out" | tail -n 30 | diag; fi
}
# expect DESC WANT GOT: GOT must be WANT, byte for byte.
expect() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1"; printf 'want: %s\ngot:  %s\n' "$2" "$3" | diag; fi
}
# contains DESC NEEDLE TEXT: TEXT must contain the fixed string NEEDLE.
contains() {
	if printf '%s' "$3" | grep -qF -- "$2"; then pass "$1"; else fail "$1"; printf 'no "%s" in:\n%s\n' "$2" "$3" | diag; fi
}
# as_user USER CMD...: run CMD as USER (its groups, its home as cwd).
as_user() {
	local u=$1
	shift
	runuser -u "$u" -- sh -c 'cd "$HOME" && exec "$@"' sh "$@"
}
# wait_for SEC CMD...: until CMD succeeds, at most SEC seconds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $end ] || return 1
		sleep 1
	done
}
unit_active() { [ "$(systemctl is-active "$1")" = active ]; }
module_loaded() { grep -q '^fdr ' /proc/modules; }
# dkms_state: what `dkms status` says of fdr on this kernel, e.g. "installed".
dkms_state() { dkms status -m fdr -k "$kver" 2>/dev/null | sed -n 's/^fdr[/,].*: //p' | head -n 1; }

# check_reload: `systemctl reload fdrd` re-reads /etc/fdr/fdrd.conf; a bad
# file is refused and the service keeps running.
reloaded_as() { journalctl -u fdrd --no-pager -o cat | grep -qF "reloaded /etc/fdr/fdrd.conf: logs into /var/log/fdr as $1"; }
check_reload() {
	printf -- '--pattern reload-<seq>.xray\n' >/etc/fdr/fdrd.conf
	check "systemctl reload fdrd exits 0" systemctl reload fdrd
	check "fdrd says it reloaded /etc/fdr/fdrd.conf with the new pattern" wait_for 10 reloaded_as 'reload-<seq>.xray'
	printf -- '--grace-ms soon\n' >/etc/fdr/fdrd.conf
	systemctl reload fdrd
	check "a bad options file: fdrd says it keeps its options" \
		wait_for 10 sh -c "journalctl -u fdrd --no-pager -o cat | grep -q 'keeping the ones in use'"
	check "fdrd.service still active after the refused reload" unit_active fdrd.service
	printf '# fdrd options (emptied by the guest test)\n' >/etc/fdr/fdrd.conf
	systemctl reload fdrd
}

# check_running: the module, the device and the service, as a user finds them.
check_running() {
	local gid
	expect "dkms status: fdr installed for $kver" installed "$(dkms_state)"
	local ko
	ko=$(modinfo -n fdr 2>/dev/null || true)
	case $ko in
	/lib/modules/$kver/updates/dkms/fdr.ko*) pass "fdr.ko for $kver is DKMS's ($ko)" ;;
	*) fail "fdr.ko for $kver is DKMS's (modinfo -n fdr: '$ko')" ;;
	esac
	check "fdr.ko is loaded" wait_for 30 module_loaded
	check "fdrd.service is active" wait_for 60 unit_active fdrd.service
	expect "/dev/fdr is root:fdr mode 0660" "crw-rw---- root fdr" "$(stat -c '%A %U %G' /dev/fdr 2>&1)"
	gid=$(getent group fdr | cut -d: -f3)
	expect "the module admits group fdr (dev_gid)" "$gid" "$(cat /sys/module/fdr/parameters/dev_gid 2>&1)"
	journalctl -b -u fdrd.service --no-pager 2>&1 | tail -n 20 | sed 's/^/fdrd journal: /' >&2
}

# record_as_member TAG: the group member records the test program through
# /dev/fdr with fdr record; the log must pass fdrlog verify and is copied
# to /fdr/out/logs/TAG.xray for llvm-xray on the host.
record_as_member() {
	local tag=$1 out rc=0 home
	home=$(getent passwd "$member" | cut -d: -f6)
	out=$(as_user "$member" fdr record --threshold 0 -o fdr.data -- /fdr/prog/xprog 2>&1) || rc=$?
	printf '%s\n' "$out" | sed "s/^/fdr record ($member): /" >&2
	expect "$member (group fdr) records with fdr record: exit 0" 0 "$rc"
	contains "fdr record recorded through /dev/fdr, in a session of its own (its summary)" "(/dev/fdr:record." "$out"
	contains "the data directory says backend /dev/fdr:record.PID.RANDOM" "$(printf 'backend\t/dev/fdr:record.')" "$(cat "$home/fdr.data/info" 2>&1)"
	contains "the run's session is gone with it (fdrctl list as $member)" "no sessions" "$(as_user "$member" fdrctl list 2>&1)"
	check "fdrlog verify accepts the log" as_user "$member" fdrlog verify fdr.data/log.xray
	mkdir -p /fdr/out/logs
	cp "$home/fdr.data/log.xray" "/fdr/out/logs/$tag.xray" 2>/dev/null || true
	cp /fdr/prog/xprog /fdr/out/logs/xprog 2>/dev/null || true
}

# check_refused: the user outside group fdr is refused the device, and told why.
check_refused() {
	local out rc=0
	out=$(as_user "$outsider" fdrctl status 2>&1) || rc=$?
	printf '%s\n' "$out" | sed "s/^/fdrctl status ($outsider): /" >&2
	if [ $rc != 0 ]; then pass "$outsider (not in group fdr) is refused: fdrctl status exits $rc"; else fail "$outsider (not in group fdr) is refused: fdrctl status exited 0"; fi
	contains "the refusal names the group to join" "run as root or as a member of group fdr" "$out"
	contains "the refusal says permission denied" "/dev/fdr: permission denied" "$out"
	out=$(as_user "$outsider" fdr record --threshold 0 -o fdr.data -- /fdr/prog/xprog 2>&1) || true
	contains "fdr record tells $outsider /dev/fdr is refused and falls back" \
		"/dev/fdr: Permission denied; recording into a private embedded region" "$out"
}

# install_kept DIR: apt install (offline) the .debs the image keeps in
# /var/cache/fdr-guest/DIR (scripts/guest/image/customize); one result.
install_kept() {
	local dir=/var/cache/fdr-guest/$1 rc=0 t0=$SECONDS
	ls "$dir"/*.deb >/dev/null 2>&1 || { fail "the image keeps .debs in $dir"; return 1; }
	# streamed to stderr (the .err), so that a phase killed by its timeout shows where
	apt-get install -y -q "$dir"/*.deb > >(sed -u "s/^/apt install $1: /" >&2) 2>&1 || rc=$?
	expect "apt install $(echo $(ls "$dir" | cut -d_ -f1)) (offline) exits 0 ($((SECONDS - t0)) s)" 0 "$rc"
}
# export_boot KVER: the kernel and initrd to /fdr/out/boot/, which the host boots next.
export_boot() {
	mkdir -p /fdr/out/boot
	check "$1's kernel and initrd are exported to the host" cp "/boot/vmlinuz-$1" "/boot/initrd.img-$1" /fdr/out/boot/
}
kept_kernel() { ls /var/cache/fdr-guest/kernel-6.12/linux-image-6.12*.deb | sed 's|.*/linux-image-||; s|_.*||'; }
