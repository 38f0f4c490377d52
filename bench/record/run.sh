#!/bin/bash
# bench/record/run.sh - build and run the record-path benchmark; Markdown
# on stdout.  BENCH_RECORD_EVENTS / BENCH_RECORD_ROUNDS override the sizes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
make -s -C "$here" >&2
exec "$here/../../build/bench/record/record_bench" \
	"${BENCH_RECORD_EVENTS:-2000000}" "${BENCH_RECORD_ROUNDS:-21}"
