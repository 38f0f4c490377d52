// SPDX-License-Identifier: MIT
/*
 * cyg_traced.c - an ordinary program built with gcc -finstrument-functions
 * and linked with libfdr-cyg.a + libfdr.a; no tracing code of its own.
 * `cyg_traced fork` also forks a child that calls a function the parent
 * never calls; `cyg_traced crash` calls middle() once and dies in
 * crash_here() from SIGABRT; `cyg_traced race` starts two threads that
 * call the same 32 functions, for the first time, at the same moment.
 * cyg_record_test.c expects exactly these calls.
 */
#include <pthread.h>
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

/* ---- race: first sight of the same functions in two threads ---- */

#define RACE_FN(n) \
	__attribute__((noinline)) int race_##n(int x) \
	{ __asm__ volatile("" : "+r"(x)); return x + n; }
#define RACE_FN4(a, b, c, d) RACE_FN(a) RACE_FN(b) RACE_FN(c) RACE_FN(d)
RACE_FN4(0, 1, 2, 3) RACE_FN4(4, 5, 6, 7) RACE_FN4(8, 9, 10, 11)
RACE_FN4(12, 13, 14, 15) RACE_FN4(16, 17, 18, 19) RACE_FN4(20, 21, 22, 23)
RACE_FN4(24, 25, 26, 27) RACE_FN4(28, 29, 30, 31)

static int (*const race_fns[32])(int) = {
	race_0, race_1, race_2, race_3, race_4, race_5, race_6, race_7,
	race_8, race_9, race_10, race_11, race_12, race_13, race_14, race_15,
	race_16, race_17, race_18, race_19, race_20, race_21, race_22, race_23,
	race_24, race_25, race_26, race_27, race_28, race_29, race_30, race_31,
};

static pthread_barrier_t race_start;

__attribute__((no_instrument_function)) static void *race_thread(void *arg)
{
	int sum = 0;

	pthread_barrier_wait(&race_start);
	for (int i = 0; i < 32; i++)
		sum += race_fns[i](i);
	*(int *)arg = sum;
	return NULL;
}

__attribute__((no_instrument_function)) static int race(void)
{
	pthread_t t[2];
	int sums[2];

	pthread_barrier_init(&race_start, NULL, 2);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, race_thread, &sums[i]))
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", sums[0] + sums[1]);
	return 0;
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

	if (argc > 1 && strcmp(argv[1], "race") == 0)
		return race();
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
