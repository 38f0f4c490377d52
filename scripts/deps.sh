#!/bin/bash
# Install what building and testing fdr needs, on Debian/Ubuntu: the union
# of scripts/packages.d/*.txt plus the kernel image and headers the VM bench
# boots and builds against.  Installs only what is missing; with everything
# present it takes well under a second.  Elsewhere, prints what to install.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
say() { echo "deps: $*" >&2; }

# Package names from the per-part lists (comments and blanks skipped).
wanted=$(cat "$here"/packages.d/*.txt | sed 's/#.*//' | tr -s ' \t' '\n\n' | grep -v '^$' || true)
# Bookworm's default kernel (6.1) for the VM, and its headers for the build.
wanted="$wanted
linux-image-amd64
linux-headers-amd64"
wanted=$(printf '%s\n' "$wanted" | LC_ALL=C sort -u)

if [ ! -f /etc/debian_version ] || ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
	say "this is not a Debian-like system; install the equivalents of these Debian packages:"
	printf '  %s\n' $wanted 'linux-headers-6.12.*+deb12-amd64 (the newest)' >&2
	say "(a kernel image under /boot with its /lib/modules, matching kernel headers,"
	say " qemu-system-x86_64 with virtfs, a statically linked busybox at /bin/busybox,"
	say " cpio, kmod, liburing, libelf, libdw, clang/llvm 19)"
	exit 1
fi

# missing_of PKG...: print the ones that are not installed.
missing_of() {
	local p
	for p in "$@"; do
		case "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" in
		installed) ;;
		*) echo "$p" ;;
		esac
	done
}

run_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		say "not root and no sudo; run as root: $*"
		exit 1
	fi
}

updated=0
apt_update() {
	[ "$updated" = 1 ] && return 0
	say "apt-get update"
	run_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || { say "apt-get update failed"; exit 1; }
	updated=1
}

# The 6.12 headers Debian ships for bookworm (build check only): any
# installed one is enough, else the newest one apt knows.
headers612=$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' 'linux-headers-6.12.*+deb12-amd64' 2>/dev/null \
	| awk '$1 == "installed" { print $2 }' | sort -V | tail -n 1)
if [ -z "$headers612" ]; then
	find612() { apt-cache search --names-only '^linux-headers-6\.12\..*\+deb12-amd64$' 2>/dev/null | awk '{ print $1 }' | sort -V | tail -n 1; }
	headers612=$(find612)
	if [ -z "$headers612" ]; then
		apt_update
		headers612=$(find612)
	fi
	if [ -z "$headers612" ]; then
		say "no linux-headers-6.12.*+deb12-amd64 in the apt sources (bookworm-updates/security);"
		say "the 6.12 build check (make module-6.12) will report this"
	else
		wanted="$wanted
$headers612"
	fi
fi

missing=$(missing_of $wanted)
if [ -n "$missing" ]; then
	say "installing: $(echo $missing)"
	apt_update
	# shellcheck disable=SC2086
	run_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 \
		|| { say "apt-get install failed for: $(echo $missing)"; exit 1; }
	still=$(missing_of $missing)
	[ -z "$still" ] || { say "still missing after install: $(echo $still)"; exit 1; }
fi

# The kselftest harness headers the selftests compile against.
"$here/get-kselftest.sh" >&2 || { apt_update; "$here/get-kselftest.sh" >&2; }
say "all dependencies present"
