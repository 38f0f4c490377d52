#!/bin/bash
# SPDX-License-Identifier: MIT
# files_test.sh - fdrd's files as a hostile local user would attack them
# (issue 15, point 1), end to end on the embedded backend: a symlink or a
# hard link planted at the temporary name, a symlink at the final name,
# the output directory swapped for a symlink or opened up to everyone while
# fdrd runs, a directory everyone may write to.  fdrd must never write through what was planted
# nor replace it, and still write its log where it can.  TAP on stdout.
#
#   files_test.sh BUILD_DIR
set -u
BUILD=$(cd "${1:?usage: files_test.sh BUILD_DIR}" && pwd)
FDRD=${FDRD:-$BUILD/bin/fdrd}
FDRCTL=$BUILD/bin/fdrctl
FDRLOG=$BUILD/bin/fdrlog
FILL=$BUILD/fdrd/tests/fill_region

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi; }
diag() { sed 's/^/# /'; }

WORK=$(mktemp -d /tmp/fdrd-files-test.XXXXXX)
NAME=fdrdfiles$$
TARGET=embedded:$NAME
DPID=
cleanup() {
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	"$FDRCTL" --target "$TARGET" destroy >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT

ctl() { "$FDRCTL" --target "$TARGET" "$@"; }
# A finalized region with 2 buffers of 10 pairs each: 40 records.
finalized_region() {
	ctl destroy >/dev/null 2>&1
	ctl init --buffer-size 4096 --buffers-per-cpu 2 >/dev/null
	"$FILL" "$NAME" 2 10 >/dev/null
	ctl finalize >/dev/null
}
once() { # OUTDIR [OPTIONS...]: fdrd --once; its status
	local out=$1; shift
	"$FDRD" --foreground --once --grace-ms 0 -t "$TARGET" -o "$out" "$@" 2>"$WORK/fdrd.err"
}
victim() { # PATH: a file fdrd must never touch
	printf 'precious\n' >"$1"
}
intact() { [ "$(cat "$1")" = precious ] && [ "$(stat -c %h "$1")" = "$2" ]; }
# A log fdrd wrote itself: a regular file with one link, 40 records.
good_log() {
	[ -f "$1" ] && [ ! -L "$1" ] && [ "$(stat -c %h "$1")" = 1 ] &&
		"$FDRLOG" verify "$1" >/dev/null 2>&1 &&
		[ "$("$FDRLOG" dump "$1" | grep -c 'Function')" -ge 40 ]
}
no_temp_files() { ! ls -A "$1" | grep -v '^\.c\.xray\.tmp$' | grep -q '^\..*\.tmp$'; }

# 1. a symlink at the temporary name the old code opened with O_TRUNC
test_symlink_tmp() {
	local out=$WORK/symtmp; mkdir -p "$out"
	victim "$WORK/victim1"
	ln -s "$WORK/victim1" "$out/.c.xray.tmp"
	finalized_region
	once "$out" -p c.xray
	check "symlink at the temporary name: flush succeeds" [ $? = 0 ] || diag <"$WORK/fdrd.err"
	check "symlink at the temporary name: its target is untouched" intact "$WORK/victim1" 1
	check "symlink at the temporary name: the symlink is left as it was" \
		[ -L "$out/.c.xray.tmp" -a "$(readlink "$out/.c.xray.tmp")" = "$WORK/victim1" ]
	check "symlink at the temporary name: c.xray is fdrd's own complete log" good_log "$out/c.xray"
	check "symlink at the temporary name: c.xray.threads is a regular file" \
		[ -f "$out/c.xray.threads" -a ! -L "$out/c.xray.threads" ]
}

# 2. a hard link to a victim at the temporary names (log and side table)
test_hardlink_tmp() {
	local out=$WORK/hardtmp; mkdir -p "$out"
	victim "$WORK/victim2"
	ln "$WORK/victim2" "$out/.c.xray.tmp"
	ln "$WORK/victim2" "$out/.c.xray.threads.tmp"
	finalized_region
	once "$out" -p c.xray
	check "hard links at the temporary names: flush succeeds" [ $? = 0 ] || diag <"$WORK/fdrd.err"
	check "hard links at the temporary names: the linked file is untouched" intact "$WORK/victim2" 3
	check "hard links at the temporary names: c.xray is fdrd's own complete log" good_log "$out/c.xray"
}

# 3. symlinks at the final names: never followed, never replaced
test_symlink_final() {
	local out=$WORK/symfinal; mkdir -p "$out"
	victim "$WORK/victim3"
	ln -s "$WORK/victim3" "$out/c.0.xray"		# to a file
	ln -s "$WORK/made-by-fdrd" "$out/c.1.xray"	# dangling: the old check missed it
	ln -s "$WORK/made-by-fdrd.threads" "$out/c.2.xray.threads"
	finalized_region
	once "$out" -p 'c.<seq>.xray'
	check "symlinks at the final names: flush succeeds" [ $? = 0 ] || diag <"$WORK/fdrd.err"
	check "symlinks at the final names: their targets are untouched or not created" \
		eval 'intact "$WORK/victim3" 1 && [ ! -e "$WORK/made-by-fdrd" -a ! -e "$WORK/made-by-fdrd.threads" ]'
	check "symlinks at the final names: still the planted symlinks" \
		[ -L "$out/c.0.xray" -a -L "$out/c.1.xray" -a -L "$out/c.2.xray.threads" ]
	check "symlinks at the final names: the log went to the first free name, c.3.xray" \
		good_log "$out/c.3.xray"
	no_temp_files "$out"
	check "symlinks at the final names: no temporary file left" [ $? = 0 ]
}

# 4. the output directory is replaced by a symlink while fdrd runs
test_dir_swapped() {
	local out=$WORK/swapped elsewhere=$WORK/elsewhere; mkdir -p "$out" "$elsewhere"
	ctl destroy >/dev/null 2>&1
	ctl init --buffer-size 4096 --buffers-per-cpu 2 >/dev/null
	"$FDRD" --foreground -t "$TARGET" -o "$out" --grace-ms 0 --retry-ms 200 2>"$WORK/fdrd.err" &
	DPID=$!
	local i
	for ((i = 0; i < 1500; i++)); do	# up to 30 s: a loaded host
		grep -q "flushing .* into" "$WORK/fdrd.err" && break
		sleep 0.02
	done
	mv "$out" "$out.real"
	ln -s "$elsewhere" "$out"
	"$FILL" "$NAME" 2 10 >/dev/null
	ctl finalize >/dev/null
	for ((i = 0; i < 600; i++)); do	# up to 30 s: a loaded host
		grep -q "symbolic link" "$WORK/fdrd.err" && break
		sleep 0.05
	done
	check "output directory swapped for a symlink: refused, with the reason" \
		grep -q "cannot open output directory $out: it is a symbolic link" "$WORK/fdrd.err" ||
		diag <"$WORK/fdrd.err"
	check "output directory swapped for a symlink: nothing written through it" \
		[ -z "$(ls -A "$elsewhere")" -a -z "$(ls -A "$out.real")" ]
	rm "$out"; mv "$out.real" "$out"
	for ((i = 0; i < 600; i++)); do	# up to 30 s: a loaded host
		ls "$out"/*.xray >/dev/null 2>&1 && break
		sleep 0.05
	done
	check "the directory back: the retry writes the log there" good_log "$(ls "$out"/*.xray 2>/dev/null | head -1)"
	kill -TERM "$DPID"; wait "$DPID"; DPID=
}

# 5. the directory is made writable by everyone while fdrd runs
test_dir_opened_up() {
	local out=$WORK/openedup; mkdir -p "$out"; chmod 0755 "$out"
	ctl destroy >/dev/null 2>&1
	ctl init --buffer-size 4096 --buffers-per-cpu 2 >/dev/null
	"$FDRD" --foreground -t "$TARGET" -o "$out" --grace-ms 0 --retry-ms 200 2>"$WORK/fdrd.err" &
	DPID=$!
	local i
	for ((i = 0; i < 1500; i++)); do	# up to 30 s: a loaded host
		grep -q "flushing .* into" "$WORK/fdrd.err" && break
		sleep 0.02
	done
	chmod 0777 "$out"
	"$FILL" "$NAME" 2 10 >/dev/null
	ctl finalize >/dev/null
	for ((i = 0; i < 600; i++)); do	# up to 30 s: a loaded host
		grep -q "writable by every user" "$WORK/fdrd.err" && break
		sleep 0.05
	done
	check "directory made world-writable while fdrd runs: the flush is refused, with the reason" \
		grep -q "error: output directory $out is writable by every user and not sticky" "$WORK/fdrd.err" ||
		diag <"$WORK/fdrd.err"
	check "directory made world-writable: nothing written" [ -z "$(ls -A "$out")" ]
	chmod 0755 "$out"
	for ((i = 0; i < 600; i++)); do	# up to 30 s: a loaded host
		ls "$out"/*.xray >/dev/null 2>&1 && break
		sleep 0.05
	done
	check "directory private again: the retry writes the log" good_log "$(ls "$out"/*.xray 2>/dev/null | head -1)"
	kill -TERM "$DPID"; wait "$DPID"; DPID=
}

# 6. a directory every user may write to: refused unless sticky or told
test_world_writable() {
	local out=$WORK/open; mkdir -p "$out"; chmod 0777 "$out"
	finalized_region
	once "$out"
	check "world-writable directory without the sticky bit: exit 2" [ $? = 2 ]
	check "world-writable directory: the message names it, the cause and the fixes" \
		grep -q "output directory $out is writable by every user and not sticky (mode 0777).*chmod o-w.*chmod +t.*--allow-insecure-dir" \
		"$WORK/fdrd.err" || diag <"$WORK/fdrd.err"
	check "world-writable directory: nothing written" [ -z "$(ls -A "$out")" ]
	once "$out" --allow-insecure-dir
	check "world-writable directory with --allow-insecure-dir: exit 0, the log is written" \
		eval '[ $? = 0 ] && good_log "$(ls "$out"/*.xray 2>/dev/null | head -1)"' ||
		diag <"$WORK/fdrd.err"
	local sticky=$WORK/sticky; mkdir -p "$sticky"; chmod 1777 "$sticky"
	finalized_region
	once "$sticky"
	check "sticky world-writable directory (like /tmp): accepted, log written" \
		good_log "$(ls "$sticky"/*.xray 2>/dev/null | head -1)" || diag <"$WORK/fdrd.err"
}

for t in ${FILES_TESTS:-test_symlink_tmp test_hardlink_tmp test_symlink_final \
	test_dir_swapped test_dir_opened_up test_world_writable}; do
	"$t"
done
echo "1..$n"
[ $failed = 0 ]
