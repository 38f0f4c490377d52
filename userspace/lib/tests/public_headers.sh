#!/bin/sh
# public_headers.sh - <fdr.h> and <fdr_inline.h> are what users compile
# against: each must build on its own, warning-free, as C with gcc and
# clang and as C++ with g++ and clang++, and the inline calls must reach
# the writer through its versioned symbol.
# usage: public_headers.sh TOP   (TAP on stdout)
set -u
top=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
inc="-I$top/uapi -I$top/userspace/include"
cat >"$tmp/use.c" <<'SRC'
#include <fdr_inline.h>
int traced(int x);
int traced(int x)
{
	fdr_inline_enter(1);
	x *= 3;
	fdr_inline_tail_exit(1);
	fdr_inline_exit(2);
	return x;
}
SRC
cp "$tmp/use.c" "$tmp/use.cc"
echo "1..5"
n=0
try() {	# description, compiler and flags...
	desc=$1; shift
	n=$((n + 1))
	if ! command -v "$1" >/dev/null; then
		echo "ok $n - $desc # SKIP $1 not installed"
		return
	fi
	if "$@" $inc -Wall -Wextra -Werror -c -o "$tmp/o$n.o" 2>"$tmp/err"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/#   /' "$tmp/err"
		rc=1
	fi
}
rc=0
try "<fdr_inline.h> as C11 with clang" clang -std=gnu11 "$tmp/use.c"
try "<fdr_inline.h> as C11 with gcc" gcc -std=gnu11 "$tmp/use.c"
try "<fdr_inline.h> as C++17 with clang++" clang++ -std=c++17 "$tmp/use.cc"
try "<fdr_inline.h> as C++17 with g++" g++ -std=c++17 "$tmp/use.cc"
n=$((n + 1))
sym=$(sed -n 's/^#define FDR__THREAD_SYMBOL[[:space:]]*"\(.*\)"$/\1/p' \
	"$top/userspace/include/fdr_inline.h")
if [ -n "$sym" ] && [ -f "$tmp/o1.o" ] && nm "$tmp/o1.o" | grep -q " U $sym\$"; then
	echo "ok $n - inline calls use the versioned writer symbol"
else
	echo "not ok $n - inline calls use the versioned writer symbol"
	rc=1
fi
exit $rc
