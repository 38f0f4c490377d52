#!/bin/sh
# noinstr.sh - libfdr is called from -finstrument-functions hooks and XRay
# handlers, so none of its code may be instrumented: build every source of
# every room with -finstrument-functions and check that no function calls
# the hooks.
# usage: noinstr.sh CC CFLAGS...   (TAP on stdout)
set -u
cc=$1; shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..1"
bad=
for f in record/*.c control/*.c embedded/*.c; do
	"$cc" "$@" -finstrument-functions -c -o "$tmp/o.o" "$f" 2>"$tmp/err" ||
		{ echo "# $f does not build:"; sed 's/^/#   /' "$tmp/err"; bad="$bad $f"; continue; }
	if nm "$tmp/o.o" | grep -q __cyg_profile_func; then
		echo "# $f: instrumented functions:"
		objdump -dr "$tmp/o.o" | awk '/>:$/{fn=$2} /__cyg_profile_func_enter/{print "#   " fn}' | sort -u
		bad="$bad $f"
	fi
done
if [ -z "$bad" ]; then
	echo "ok 1 no libfdr function is instrumented by -finstrument-functions"
else
	echo "not ok 1 no libfdr function is instrumented by -finstrument-functions:$bad"
	exit 1
fi
