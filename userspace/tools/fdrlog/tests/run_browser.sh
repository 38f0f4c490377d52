#!/bin/sh
# run_browser.sh - the flame graph in a real browser: the SVG `fdrlog
# flame` draws for gen_views.py's log, driven in headless Chromium by
# browser_flame.py (zoom, reset, search, hover, a screenshot kept in
# WORKDIR/flame-browser.png).  Chromium and chromedriver come from Debian
# (scripts/packages.d/browser.txt; scripts/deps.sh installs them).
# usage: run_browser.sh FDRLOG WORKDIR
set -u
FDRLOG=$1 WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tap_lib.sh"	# generate

for tool in chromium chromedriver; do
	command -v $tool >/dev/null || {
		echo "not ok 1 $tool is not installed: scripts/deps.sh test installs it (Debian's chromium, chromium-driver)"
		echo 1..1
		exit 1
	}
done
generate gen_views.py "$WORK"
"$FDRLOG" flame --sym-map "$WORK/views.symmap" -o "$WORK/flame.svg" "$WORK/views.xray" &&
	python3 "$HERE/check_flame.py" "$WORK/flame.svg" || {
	echo "not ok 1 flame: a well-formed, self-contained SVG to load"
	echo 1..1
	exit 1
}
exec python3 "$HERE/browser_flame.py" "$WORK/flame.svg" "$WORK"
