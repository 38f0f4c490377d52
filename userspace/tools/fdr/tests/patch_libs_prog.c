// SPDX-License-Identifier: MIT
/*
 * patch_libs_prog.c - patch_libs_test.sh's program, built plain (no
 * fdr-cc) with a library of its own (patch_libs_own.c) and one it
 * dlopen()s by its bare name along the program's RUNPATH, calls,
 * dlclose()s and dlopen()s again (patch_libs_plug.c), while a thread
 * runs the own library's functions.  Prints its results, then each
 * function's calls as it counted them (patch_libs.h).  With an argument,
 * loads patch_libs_ctor.c's library instead.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "patch_libs.h"

unsigned long counts[C_N];

int own_api(int x);
int own_leaf(int x);
int own_load(int x);

static void *worker(void *arg)
{
	long sum = 0;

	for (int i = 0; i < 20000; i++)
		sum += own_leaf(i);
	*(long *)arg = sum;
	return NULL;
}

/* Load the plug-in, call it n times, unload it. */
static long plug_round(int n)
{
	void *h = dlopen("libpatchplug.so", RTLD_NOW | RTLD_LOCAL);
	int (*entry)(int);
	long sum = 0;

	if (!h || !(entry = (int (*)(int))dlsym(h, "plug_entry"))) {
		fprintf(stderr, "patch_libs_prog: %s\n", dlerror());
		exit(1);
	}
	for (int i = 0; i < n; i++)
		sum += entry(i);
	dlclose(h);
	return sum;
}

/* "ctor": load libpatchctor.so, whose constructor starts a thread. */
static int ctor(void)
{
	void *h = dlopen("libpatchctor.so", RTLD_NOW);
	long (*value)(void);

	if (!h || !(value = (long (*)(void))dlsym(h, "ctor_value"))) {
		fprintf(stderr, "patch_libs_prog: %s\n", dlerror());
		return 1;
	}
	printf("ctor %ld\n", value());
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[C_N] = COUNT_NAMES;
	pthread_t t;
	long a = 0, b = 0, w = 0;

	if (argc > 1)
		return ctor();
	if (pthread_create(&t, NULL, worker, &w))
		return 1;
	for (int i = 0; i < 300; i++)
		a += own_api(i);
	b += plug_round(40);
	b += plug_round(25);
	b += own_load(9) + own_load(10);
	pthread_join(t, NULL);
	printf("own %ld plug %ld worker %ld\n", a, b, w);
	for (int i = 0; i < C_N; i++)
		printf("count %s %lu\n", names[i], counts[i]);
	return 0;
}
