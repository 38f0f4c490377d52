#!/bin/bash
# SPDX-License-Identifier: MIT
# many_funcs.sh N: C source of a program with N functions of its own,
# each long enough to patch, none dropped by -O2 (noinline, each
# reached through one table).  main() calls each once and prints the
# sum, so the output shows that every patched function still runs.
set -eu
n=${1:?usage: many_funcs.sh N}
echo '#include <stdio.h>'
echo 'typedef unsigned long (*fn_t)(unsigned long);'
for i in $(seq 0 $((n - 1))); do
	echo "__attribute__((noinline)) unsigned long f$i(unsigned long x) { return (x ^ (x >> 7)) * ${i}u + $((i % 97))u; }"
done
echo 'static fn_t const table[] = {'
for i in $(seq 0 $((n - 1))); do echo "f$i,"; done
echo '};'
cat <<'C'
int main(void)
{
	unsigned long sum = 0;

	for (unsigned long i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		sum += table[i](i);
	printf("%lu\n", sum);
	return 0;
}
C
