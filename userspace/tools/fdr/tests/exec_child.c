// SPDX-License-Identifier: MIT
/*
 * exec_child.c - the program exec_parent runs (exec_test.sh): calls its
 * function a number of times of its own, different from the parent's,
 * and prints it.
 */
#include <stdio.h>

__attribute__((noinline)) int child_work(int x)
{
	return x + 1;
}

int main(void)
{
	int n = 0;

	for (int i = 0; i < 5; i++)
		n = child_work(n);
	printf("child_work %d\n", n);
	return 0;
}
