// SPDX-License-Identifier: MIT
/*
 * cyg_traced.c - an ordinary program built with gcc -finstrument-functions
 * and linked with libfdr-cyg.a + libfdr.a; no tracing code of its own.
 * `cyg_traced fork` also forks a child that calls a function the parent
 * never calls; `cyg_traced crash` calls middle() once and dies in
 * crash_here() from SIGABRT.  cyg_record_test.c expects exactly these
 * calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef WITH_LIB
int lib_func(int x);	/* from libcygtraced.so, also instrumented */
#else	/* static builds: an instrumented stand-in of the same name */
__attribute__((noinline)) static int lib_func(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 100;
}
#endif

__attribute__((noinline)) int leaf_add(int a, int b)
{
	__asm__ volatile("" : "+r"(a));
	return a + b;
}

/* Not exported: only the file's .symtab can name it. */
__attribute__((noinline)) static int local_helper(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 7;
}

__attribute__((noinline)) int middle(int x)
{
	int a = leaf_add(x, 1);
	int b = local_helper(x);

	return a * b;
}

__attribute__((noinline)) int child_only(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x - 1;
}

__attribute__((noinline)) void crash_here(int x)
{
	if (x > 0)
		abort();
}

static int fork_child(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(child_only(middle(9)) > 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(int argc, char **argv)
{
	int sum = 0;

	if (argc > 1 && strcmp(argv[1], "crash") == 0) {
		crash_here(middle(1));
		return 0;
	}
	for (int i = 0; i < 3; i++)
		sum += middle(i);
	sum += lib_func(5);
	printf("%d\n", sum);
	if (argc > 1 && strcmp(argv[1], "fork") == 0)
		return fork_child();
	return 0;
}
