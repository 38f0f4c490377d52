# SPDX-License-Identifier: MIT
# maps_but_arenas.awk - a /proc/PID/maps listing without glibc's malloc
# arenas, for the attach tests' "a detach leaves the process as it was":
#
#   awk -v skip=REGEX -f maps_but_arenas.awk /proc/PID/maps
#
# An attach's code allocates on whichever of the program's threads the
# recorder makes call it, and a thread's first malloc takes an arena that
# glibc keeps for the process's life (seen in CI, 2026-12-06): not
# something the detach left.  An arena is a 64 MiB-aligned anonymous rw-p
# mapping, then its reserved rest (---p), 64 MiB in all; the split moves
# as it grows, and a full one is a single rw-p mapping.
#
# Prints "RANGE PERMS" for an anonymous mapping and "RANGE PERMS PATH"
# otherwise (the first word of the path), leaving out the mappings whose
# path matches skip (the program's own text, which its caller compares
# with the file instead).  Plain POSIX awk: the VM has busybox, no python.
# Shared by userspace/tools/fdr/tests/attach_test.sh and
# userspace/fdrd/tests/{attach_test.sh,vm/attach_vm.sh}.

# Addresses are below 2^53: a double holds them exactly.
function hex(s,   i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

{
	split($1, a, "-")
	lo[NR] = hex(a[1]); hi[NR] = hex(a[2])
	perm[NR] = $2; anon[NR] = NF < 6; path[NR] = $6
	line[NR] = $1 " " $2 (NF < 6 ? "" : " " $6)
}

END {
	H = 67108864
	for (i = 1; i <= NR; i++) {
		if (anon[i] && perm[i] == "rw-p" && lo[i] % H == 0) {
			if (hi[i] == lo[i] + H)
				continue
			if (i < NR && anon[i + 1] && perm[i + 1] == "---p" &&
			    lo[i + 1] == hi[i] && hi[i + 1] == lo[i] + H) {
				i++
				continue
			}
		}
		if (anon[i] || skip == "" || path[i] !~ skip)
			print line[i]
	}
}
