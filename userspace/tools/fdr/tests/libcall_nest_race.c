// SPDX-License-Identifier: MIT
/* libcall_nest_race.c PLUGIN1 PLUGIN2 dlopen|fork - --nest-libcall with
 * threads (libcall_nest_test.sh): two threads loop dlopen(), a call, and
 * dlclose() of a plugin each, so that one's hooking pass (fdr's
 * dl_iterate_phdr()) meets the other's dlopen() in the loader (no
 * deadlock); with "fork", the main thread forks meanwhile and each child
 * dlclose()s a plugin that main keeps open twice (no lock of fdr's left
 * held in the child; not a dlopen(): glibc 2.36 asserts on one in a child
 * forked during another thread's dlopen()).  The output
 * is the same whatever the scheduling. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS	300
#define FORKS	40

static const char *plugins[2];
static volatile int stop;
static void *keep;

/* One dlopen(), call, dlclose(): plugin_run's result, -1 on failure. */
static int run_once(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	int (*run)(const char *);
	int r = -1;

	if (!h)
		return -1;
	run = (int (*)(const char *))dlsym(h, "plugin_run");
	if (run)
		r = run("race");
	dlclose(h);
	return r;
}

static void *loop(void *arg)
{
	const char *path = arg;
	long bad = 0;

	for (int i = 0; i < ROUNDS || (!stop && i < 100 * ROUNDS); i++)
		bad += run_once(path) != 7;	/* strlen("race") + abs(-3) */
	return (void *)bad;
}

static int forks(void)
{
	int bad = 0;

	for (int i = 0; i < FORKS; i++) {
		int st;
		pid_t p = fork();

		if (p == 0)
			_exit(dlclose(keep) ? 1 : 0);
		if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	return bad;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	void *bad[2];
	int fork_bad = 0;

	if (argc != 4)
		return 2;
	plugins[0] = argv[1];
	plugins[1] = argv[2];
	if (!strcmp(argv[3], "fork") &&
	    (!dlopen(plugins[0], RTLD_NOW) || !(keep = dlopen(plugins[0], RTLD_NOW))))
		return 1;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, loop, (void *)plugins[i]))
			return 1;
	if (!strcmp(argv[3], "fork"))
		fork_bad = forks();
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], &bad[i]);
	printf("threads: %ld %ld failed\n", (long)bad[0], (long)bad[1]);
	if (!strcmp(argv[3], "fork"))
		printf("forks: %d of %d failed\n", fork_bad, FORKS);
	return 0;
}
