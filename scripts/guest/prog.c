/* The program the guest test records (built on the host with fdr-cc). */
#include <stdio.h>

__attribute__((noinline)) static long leaf(long x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static long walk(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

int main(void)
{
	printf("guest prog: %ld\n", walk(100));
	return 0;
}
