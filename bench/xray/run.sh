#!/bin/bash
# run.sh OUT BINDIR - run bench/xray's modes in interleaved rounds and
# write results.md next to this script.  Each round runs every mode once,
# as its own process, in an order that rotates every round; the figures
# are medians over the rounds, and the ratios compare medians of the
# same run.  ROUNDS and CALLS come from the environment (Makefile).
set -euo pipefail

out=${1:?usage: run.sh OUT BINDIR}
bindir=${2:?usage: run.sh OUT BINDIR}
here=$(cd "$(dirname "$0")" && pwd)
calls_bin=$out/calls
fdrctl=$bindir/fdrctl
rounds=${ROUNDS:-21}
calls=${CALLS:-2000000}
modes=(unpatched trampoline empty direct fdr fdr-arg1 fdr-arg1-ret fdr-xray-tramp xray-fdr xray-fdr-tsc cyg)
region=bench-xray-$$
tmp=$(mktemp -d /tmp/bench-xray.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"; "$fdrctl" --embedded "$region" destroy >/dev/null 2>&1 || true' EXIT

for f in "$calls_bin" "$fdrctl"; do
	[ -x "$f" ] || { echo "run.sh: $f is missing (make build)" >&2; exit 1; }
done

# A fresh embedded region for each run of our mode: 8 x 64 KiB per CPU.
fresh_region() {
	"$fdrctl" --embedded "$region" destroy >/dev/null 2>&1 || true
	"$fdrctl" init --embedded "$region" --buffer-size 64K --buffers-per-cpu 8 >/dev/null
}

# compiler-rt uses rdtscp only when sysfs gives it the TSC frequency
# (cpu0/tsc_freq_khz or cpufreq); many VMs have neither, and it falls back
# to clock_gettime.  xray-fdr-tsc runs it in a private mount namespace
# where cpu0/ holds a tsc_freq_khz with the frequency libfdr uses, so it
# can be compared on its fast clock too.  Needs root (unshare -m).
tsc_khz() {
	fresh_region
	"$fdrctl" --embedded "$region" status | awk '$1 == "tsc:" { printf "%d", $2 / 1000 }'
}

run_xray_fdr_tsc() {
	mkdir -p "$tmp/cpu0"
	[ -s "$tmp/cpu0/tsc_freq_khz" ] || tsc_khz > "$tmp/cpu0/tsc_freq_khz"
	rm -f "$tmp"/xray-log.*
	XRAY_OPTIONS="xray_logfile_base=$tmp/xray-log." unshare -m --propagation private \
		sh -c 'mount --bind "$1" /sys/devices/system/cpu/cpu0 && exec "$2" xray-fdr "$3"' \
		sh "$tmp/cpu0" "$calls_bin" "$calls" 2>> "$tmp/xray-fdr.stderr" |
		sed 's/^xray-fdr /xray-fdr-tsc /'
	od -An -t u8 -j 8 -N 8 "$tmp"/xray-log.* 2>/dev/null | tr -d ' ' > "$tmp/freq-tsc"
}

run_mode() {
	local mode=$1
	case $mode in
	cyg)
		fresh_region
		FDR_TARGET="embedded:$region" FDR_OPTIONS=func_duration_threshold_us=0 \
		FDR_SYMDIR="$tmp" "$out/cyg_calls" "$calls"
		;;
	fdr | direct)
		fresh_region
		XRAY_OPTIONS="patch_premain=true xray_mode=fdr" \
		FDR_TARGET="embedded:$region" FDR_OPTIONS=func_duration_threshold_us=0 \
			"$calls_bin" "$mode" "$calls"
		;;
	fdr-arg1 | fdr-arg1-ret)	# fdr record -A leaf@arg1 (-R leaf@retval): leaf is id 1
		fresh_region
		FDR_XRAY_ARGS="1:i1:$([ "$mode" = fdr-arg1-ret ] && echo i)" \
		XRAY_OPTIONS="patch_premain=true xray_mode=fdr" \
		FDR_TARGET="embedded:$region" FDR_OPTIONS=func_duration_threshold_us=0 \
			"$calls_bin" fdr "$calls" | sed "s/^fdr /$mode /"
		;;
	xray-fdr-tsc)
		run_xray_fdr_tsc || true
		;;
	fdr-xray-tramp)	# our mode, sleds left on compiler-rt's trampolines
		fresh_region
		XRAY_OPTIONS="patch_premain=true xray_mode=fdr" FDR_XRAY_SLEDS=xray \
		FDR_TARGET="embedded:$region" FDR_OPTIONS=func_duration_threshold_us=0 \
			"$calls_bin" fdr "$calls" | sed 's/^fdr /fdr-xray-tramp /'
		;;
	xray-fdr)
		rm -f "$tmp"/xray-log.*
		# its runtime's notes ("Unable to determine CPU frequency") to a file
		XRAY_OPTIONS="xray_logfile_base=$tmp/xray-log." \
			"$calls_bin" xray-fdr "$calls" 2>> "$tmp/xray-fdr.stderr"
		# CycleFrequency (header bytes 8..15) of the log it just wrote
		od -An -t u8 -j 8 -N 8 "$tmp"/xray-log.* | tr -d ' ' > "$tmp/freq"
		;;
	*)
		XRAY_OPTIONS="" "$calls_bin" "$mode" "$calls"
		;;
	esac
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
: > "$tmp/samples"
for ((r = 0; r < rounds; r++)); do
	n=${#modes[@]}
	for ((k = 0; k < n; k++)); do
		mode=${modes[$(((k + r) % n))]}
		run_mode "$mode" | sed "s/\$/ $r/" >> "$tmp/samples"
	done
done

median() {	# median ns per call of one mode
	awk -v m="$1" '$1 == m { print $3 / $2 }' "$tmp/samples" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
spread() {
	awk -v m="$1" '$1 == m { print $3 / $2 }' "$tmp/samples" | sort -g |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f–%.2f", lo, hi }'
}

# fdr ÷ xray-fdr within each round (the two ran seconds apart, under the
# same load), then the median of those ratios
round_ratio() {
	awk '$1 == "fdr" { f[$4] = $3 / $2 } $1 == "xray-fdr" { x[$4] = $3 / $2 }
	     END { for (r in f) if (r in x) print f[r] / x[r] }' "$tmp/samples" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

declare -A med
for m in "${modes[@]}"; do med[$m]=$(median "$m"); done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }

freq=$(cat "$tmp/freq" 2>/dev/null || echo 0)
note=
if [ "$freq" = 1000000000 ]; then
	clock="clock_gettime fallback (header CycleFrequency = 1e9: no TSC frequency found)"
	note="Note: with the fallback compiler-rt reads clock_gettime for every event where fdr reads rdtsc; the xray-fdr-tsc row gives it the TSC frequency (as a machine with tsc_freq_khz in sysfs would) so that it uses rdtscp."
elif [ "$freq" = 0 ]; then
	clock="TSC with unknown frequency (header CycleFrequency = 0)"
else
	clock="TSC (header CycleFrequency = $freq Hz)"
fi

total_ratio=$(ratio "${med[fdr]}" "${med[xray-fdr]}")
tsc_freq=$(cat "$tmp/freq-tsc" 2>/dev/null || echo 0)
if [ -n "${med[xray-fdr-tsc]}" ] && [ "$tsc_freq" != 0 ] && [ "$tsc_freq" != 1000000000 ]; then
	tsc_ratio=$(ratio "${med[fdr]}" "${med[xray-fdr-tsc]}")
	tsc_verdict=$(awk -v r="$tsc_ratio" 'BEGIN { print (r <= 0.35) ? "met" : "MISSED" }')
else
	tsc_ratio="n/a (needs root for unshare -m)"
	tsc_verdict="not measured"
fi
net_fdr=$(minus "${med[fdr]}" "${med[unpatched]}")
net_llvm=$(minus "${med[xray-fdr]}" "${med[unpatched]}")
net_ratio=$(ratio "$net_fdr" "$net_llvm")
verdict=$(awk -v r="$total_ratio" 'BEGIN { print (r <= 0.35) ? "met" : "MISSED" }')

{
	echo "# bench/xray: our \"fdr\" XRay mode vs compiler-rt's xray-fdr"
	echo
	echo "Generated by \`make -C bench/xray\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'). Do not edit by hand."
	echo
	echo "One clang-19 \`-fxray-instrument\` binary (\`calls.c\`: a leaf function called $calls times in a loop), one process per mode, $rounds interleaved rounds with the order rotating every round; medians of ns per call (one call = an entry and an exit event), timed with the thread's CPU clock so that time spent preempted by other load is not counted. Both modes keep every call (\`func_duration_threshold_us=0\`)."
	echo
	echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; compiler-rt's clock: $clock."
	echo
	echo "Load average before the first round: $load."
	echo
	if [ -n "$note" ]; then echo "$note"; echo; fi
	echo "| mode | what runs per call | ns per call (median) | spread (min–max) |"
	echo "|---|---|---:|---:|"
	echo "| unpatched | nop sleds | ${med[unpatched]} | $(spread unpatched) |"
	echo "| trampoline | XRay's trampoline, no handler | ${med[trampoline]} | $(spread trampoline) |"
	echo "| empty | trampoline + an empty handler | ${med[empty]} | $(spread empty) |"
	echo "| direct | no XRay: fdr_enter + fdr_exit called in the source | ${med[direct]} | $(spread direct) |"
	echo "| **fdr** | our mode: its own trampolines + libfdr's record path (embedded region) | **${med[fdr]}** | $(spread fdr) |"
	echo "| fdr-arg1 | our mode, leaf's one integer argument logged (fdr record -A leaf@arg1) | ${med[fdr-arg1]} | $(spread fdr-arg1) |"
	echo "| fdr-arg1-ret | the same and its return value (-R leaf@retval) | ${med[fdr-arg1-ret]} | $(spread fdr-arg1-ret) |"
	echo "| fdr-xray-tramp | our mode through compiler-rt's trampolines (\$FDR_XRAY_SLEDS=xray) | ${med[fdr-xray-tramp]} | $(spread fdr-xray-tramp) |"
	echo "| xray-fdr | trampoline + compiler-rt's FDR mode, its clock as found here | ${med[xray-fdr]} | $(spread xray-fdr) |"
	echo "| xray-fdr-tsc | the same, given a TSC frequency (rdtscp; header CycleFrequency = $tsc_freq) | ${med[xray-fdr-tsc]:-n/a} | $(spread xray-fdr-tsc) |"
	echo "| cyg | gcc -finstrument-functions hooks (address → id lookup + libfdr) | ${med[cyg]} | $(spread cyg) |"
	echo
	echo "| ratio | value | target |"
	echo "|---|---:|---|"
	echo "| fdr ÷ xray-fdr, per call | **$total_ratio** | ≤ 0.35: $verdict |"
	echo "| fdr ÷ xray-fdr-tsc, per call | **$tsc_ratio** | ≤ 0.35: $tsc_verdict |"
	echo "| median of the per-round ratios | $(round_ratio) | |"
	echo "| same, minus the unpatched baseline | $net_ratio | |"
	echo "| fdr-xray-tramp ÷ xray-fdr (same trampolines for both) | $(ratio "${med[fdr-xray-tramp]}" "${med[xray-fdr]}") | |"
	echo "| fdr-xray-tramp's cost beyond an empty handler | $(minus "${med[fdr-xray-tramp]}" "${med[empty]}") ns | |"
	echo "| libfdr's own record cost (direct − unpatched) | $(minus "${med[direct]}" "${med[unpatched]}") ns | |"
	echo "| xray-fdr's cost beyond an empty handler | $(minus "${med[xray-fdr]}" "${med[empty]}") ns | |"
	echo "| cyg hooks ÷ direct calls | $(ratio "${med[cyg]}" "${med[direct]}") | |"
	echo "| fdr-arg1 ÷ fdr, per call (one integer argument) | **$(ratio "${med[fdr-arg1]}" "${med[fdr]}")** | ≤ 1.5: $(awk -v r="$(ratio "${med[fdr-arg1]}" "${med[fdr]}")" 'BEGIN { print (r <= 1.5) ? "met" : "MISSED" }') |"
	echo "| fdr-arg1-ret ÷ fdr, per call (and the return value) | $(ratio "${med[fdr-arg1-ret]}" "${med[fdr]}") | |"
} > "$here/results.md"
cat "$here/results.md"
