#!/bin/bash
# Install what a task of fdr needs, on Debian/Ubuntu; only what is missing.
# With everything present it takes well under a second.  Elsewhere, prints
# what to install.
#
#   scripts/deps.sh [NEED...]     default: test
#
#   build        the lists of scripts/packages.d/ but bench.txt, the 6.1
#                kernel image and headers (the VM boots it, fdr.ko builds
#                against it), the kselftest headers
#   demo         what `make demo` needs: build
#   test         what `make test` and CI need: build + the kernel matrix
#                the VM suite boots and builds for: the newest 6.12 image
#                and headers, the 6.1 PREEMPT_RT image and headers
#   module-6.12  the 6.12 headers (and kmod.txt) for `make module-6.12`
#   bench        what `make bench` needs: bench.txt (LTTng, uftrace: the
#                peers) + the lists of the benchmarked parts (realprog.txt:
#                bench/app and bench/patch build Lua from Debian's source)
#
# When another apt-get or dpkg holds its lock, waits for it up to
# FDR_APT_LOCK_TIMEOUT seconds (default 300; apt's DPkg::Lock::Timeout),
# says so, and names the holder if it is still there after that.
# FDR_DEPS_PRINT=1 prints the packages the NEEDs select and exits (no apt).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
say() { echo "deps: $*" >&2; }
APT_GET=${FDR_APT_GET:-apt-get}
DPKG_QUERY=${FDR_DPKG_QUERY:-dpkg-query}
LOCK_TIMEOUT=${FDR_APT_LOCK_TIMEOUT:-300}

# lists_of NEED: the package lists (file names in packages.d/) it needs.
lists_of() {
	case $1 in
	build | demo | test)
		(cd "$here/packages.d" && ls ./*.txt | sed 's|^\./||' | grep -vx bench.txt) ;;
	module-6.12) echo kmod.txt ;;
	bench) echo base.txt bench.txt lib.txt adapters.txt fdrd.txt reader.txt realprog.txt ;;
	*) return 1 ;;
	esac
}

needs=${*:-test}
lists= kernel61=0 headers612_wanted=0 matrix=0 kselftest=0
for need in $needs; do
	l=$(lists_of "$need") || {
		say "unknown need '$need'; expected build, demo, test, module-6.12 or bench"
		exit 2
	}
	lists="$lists $l"
	case $need in build | demo | test) kernel61=1 kselftest=1 ;; esac
	case $need in test | module-6.12) headers612_wanted=1 ;; esac
	case $need in test) matrix=1 ;; esac
done

# Package names from the selected lists (comments and blanks skipped).
wanted=$(for l in $(printf '%s\n' $lists | sort -u); do cat "$here/packages.d/$l"; done |
	sed 's/#.*//' | tr -s ' \t' '\n\n' | grep -v '^$' || true)
# Bookworm's default kernel (6.1) for the VM, and its headers for the build.
[ $kernel61 = 0 ] || wanted="$wanted
linux-image-amd64
linux-headers-amd64"
# The other kernels of make test's VM matrix (testing.md); the 6.12 image
# comes with its headers in add_headers612.
[ $matrix = 0 ] || wanted="$wanted
linux-image-rt-amd64
linux-headers-rt-amd64"
wanted=$(printf '%s\n' "$wanted" | LC_ALL=C sort -u)

if [ "${FDR_DEPS_PRINT:-0}" = 1 ]; then
	printf '%s\n' $wanted
	[ $headers612_wanted = 0 ] || echo 'linux-headers-6.12.*+deb12-amd64'
	[ $matrix = 0 ] || echo 'linux-image-6.12.*+deb12-amd64'
	exit 0
fi

if [ ! -f /etc/debian_version ] || ! command -v "$APT_GET" >/dev/null || ! command -v "$DPKG_QUERY" >/dev/null; then
	say "this is not a Debian-like system; install the equivalents of these Debian packages:"
	printf '  %s\n' $wanted >&2
	[ $headers612_wanted = 0 ] || printf '  %s\n' 'linux-headers-6.12.*+deb12-amd64 (the newest)' >&2
	say "(a kernel image under /boot with its /lib/modules, matching kernel headers,"
	say " qemu-system-x86_64 with virtfs, a statically linked busybox at /bin/busybox,"
	say " cpio, kmod, liburing, libelf, libdw, clang/llvm 19)"
	exit 1
fi

# missing_of PKG...: print the ones that are not installed.
missing_of() {
	local p
	for p in "$@"; do
		case "$("$DPKG_QUERY" -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" in
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

# apt WHAT ARGS...: apt-get, waiting (bounded) for a lock another apt or
# dpkg holds instead of failing at once.
apt() {
	local what=$1 err rc=0
	shift
	err=$(mktemp)
	say "$what (waits up to $LOCK_TIMEOUT s if another apt or dpkg holds the lock)"
	run_root env DEBIAN_FRONTEND=noninteractive "$APT_GET" -o DPkg::Lock::Timeout="$LOCK_TIMEOUT" \
		"$@" 2>"$err" >&2 || rc=$?
	cat "$err" >&2
	if [ $rc != 0 ] && grep -q 'Could not get lock\|Unable to acquire\|is another process using it' "$err"; then
		say "another apt or dpkg still held the lock after $LOCK_TIMEOUT s:"
		grep -o 'It is held by process [0-9]* ([^)]*)' "$err" | tail -n 1 | sed 's/^/deps:   /' >&2 || true
		say "let it finish and run this again (or set FDR_APT_LOCK_TIMEOUT=seconds)"
	fi
	rm -f "$err"
	return $rc
}

updated=0
apt_update() {
	[ "$updated" = 1 ] && return 0
	apt "apt-get update" update -qq || { say "apt-get update failed"; exit 1; }
	updated=1
}

# has_candidate PKG: apt can install PKG (a name only other packages
# mention, like a signed image the archive has not published yet, cannot).
has_candidate() {
	apt-cache policy "$1" 2>/dev/null | grep -q '^  Candidate: [^(]'
}

# find612: the newest 6.12 headers apt can install together with their
# image: the archive may publish a version's headers (and its -unsigned
# image) before its signed image, which the guest image also fetches.
find612() {
	local h
	for h in $(apt-cache search --names-only '^linux-headers-6\.12\..*\+deb12-amd64$' 2>/dev/null |
		awk '{ print $1 }' | sort -rV); do
		if has_candidate "$h" && has_candidate "${h/headers/image}"; then
			echo "$h"
			return 0
		fi
	done
}

# The 6.12 headers Debian ships for bookworm (build check only): any
# installed one is enough, else the newest one apt knows.
add_headers612() {
	local h
	h=$("$DPKG_QUERY" -W -f='${db:Status-Status} ${Package}\n' 'linux-headers-6.12.*+deb12-amd64' 2>/dev/null \
		| awk '$1 == "installed" { print $2 }' | sort -V | tail -n 1)
	if [ -n "$h" ]; then
		# the matrix boots the kernel whose headers the module is built with
		[ $matrix = 0 ] || wanted="$wanted
${h/headers/image}"
		return 0
	fi
	h=$(find612)
	if [ -z "$h" ]; then
		apt_update
		h=$(find612)
	fi
	if [ -z "$h" ]; then
		say "no linux-headers-6.12.*+deb12-amd64 with its image in the apt sources (bookworm-updates/security);"
		say "the 6.12 build check (make module-6.12) will report this"
	else
		wanted="$wanted
$h"
		[ $matrix = 0 ] || wanted="$wanted
${h/headers/image}"
	fi
}
[ $headers612_wanted = 0 ] || add_headers612

missing=$(missing_of $wanted)
if [ -n "$missing" ]; then
	say "installing for ${needs// /, }: $(echo $missing)"
	apt_update
	# shellcheck disable=SC2086
	apt "apt-get install" install -y -qq --no-install-recommends $missing \
		|| { say "apt-get install failed for: $(echo $missing)"; exit 1; }
	still=$(missing_of $missing)
	[ -z "$still" ] || { say "still missing after install: $(echo $still)"; exit 1; }
fi

# The kselftest harness headers the selftests compile against.
if [ $kselftest = 1 ]; then
	"$here/get-kselftest.sh" >&2 || { apt_update; "$here/get-kselftest.sh" >&2; }
fi
say "all dependencies of ${needs// /, } present"
