#!/bin/sh
# Runs inside the VM (bench/sched/run.sh): the three cases, interleaved.
#   baseline   fdr.ko loaded, no INIT yet: its probes are not registered
#   untraced   a region records scheduling; this process does not map it
#   traced     this process maps the region writable: its switches recorded
set -eu
rounds=${ROUNDS:-20000}
reps=${REPS:-7}
pp=/b/pingpong
run() { "$pp" --rounds "$rounds" "$@" | sed -n 's/^ns_per_switch \([0-9.]*\).*/\1/p'; }

i=0
while [ $i -lt "$reps" ]; do echo "baseline $(run)"; i=$((i + 1)); done
fdrctl init >/dev/null
i=0
while [ $i -lt "$reps" ]; do
	echo "untraced $(run)"
	echo "traced $(run --attach)"
	i=$((i + 1))
done
fdrctl status | grep -i sched || true
