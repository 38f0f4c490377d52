// SPDX-License-Identifier: MIT
/*
 * libcall_prog.c - a program whose library calls libcall_test.sh records
 * and counts, and whose output must not change under fdr record: float
 * and variadic arguments (printf through xmm registers and %al), errno
 * after a failing call, a signal handler calling library functions,
 * threads, fork, vfork+exec, and a longjmp out of qsort's comparator.
 * It prints what it computes; the test compares that with a run without
 * fdr.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static jmp_buf escape;
static int compares;

static void on_usr1(int sig)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "handler %d %zu\n", sig, strlen("in a handler"));
	if (write(1, msg, strlen(msg)) < 0)
		_exit(3);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Leaves qsort by longjmp after a few comparisons. */
static int cmp_escape(const void *a, const void *b)
{
	if (++compares == 3)
		longjmp(escape, 1);
	return cmp(a, b);
}

static void *thread_body(void *arg)
{
	char buf[32];

	for (int i = 0; i < 5; i++)
		snprintf(buf, sizeof(buf), "%d-%s", i, (char *)arg);
	return strdup(buf);
}

static void floats(void)
{
	double x = atof("2.5");

	printf("floats %.3f %g %.2Lf %.4f\n", x, sqrt(x * 8), (long double)x / 3, pow(x, 1.5));
}

static void sorting(void)
{
	char *words[] = { "pear", "apple", "fig", "kiwi", "banana", "cherry" };
	int n = 6;

	qsort(words, n, sizeof(words[0]), cmp);
	for (int i = 0; i < n; i++)
		printf("%s%s", words[i], i + 1 < n ? " " : "\n");
	if (setjmp(escape) == 0)
		qsort(words, n, sizeof(words[0]), cmp_escape);
	printf("escaped after %d compares; %s\n", compares, strchr("a:b", ':'));
}

static void children(void)
{
	int st = 0;
	pid_t p = fork();

	if (p == 0) {
		printf("child %zu\n", strlen("forked"));
		exit(7);
	}
	waitpid(p, &st, 0);
	printf("fork child exit %d\n", WEXITSTATUS(st));
	p = vfork();
	if (p == 0) {
		execl("/proc/self/exe", "libcall_prog", "exec-child", (char *)NULL);
		_exit(9);
	}
	waitpid(p, &st, 0);
	printf("vfork child exit %d\n", WEXITSTATUS(st));
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	void *r[2];
	char *mem;

	if (argc > 1 && !strcmp(argv[1], "exec-child")) {
		printf("exec'ed %s\n", argv[1]);
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (open("/nonexistent/file", O_RDONLY) < 0)
		printf("errno %d %s\n", errno, strerror(errno));
	floats();
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_body, i ? "b" : "a");
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], &r[i]);
		printf("thread %s\n", (char *)r[i]);
		free(r[i]);
	}
	mem = malloc(64);
	memset(mem, 'x', 63);
	mem[63] = 0;
	memmove(mem + 1, mem, 10);
	memcpy(mem, argv[0], 1);
	printf("mem %zu\n", strlen(mem));
	free(mem);
	sorting();
	children();
	return 42;
}
