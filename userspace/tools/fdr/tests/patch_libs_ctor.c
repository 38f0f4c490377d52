// SPDX-License-Identifier: MIT
/*
 * patch_libs_ctor.c - libpatchctor.so: its constructor starts a thread
 * that runs the library's code while dlopen() is still returning, so
 * fdr record -P must not patch it (patch_libs_test.sh).
 */
#include <pthread.h>

static pthread_t spinner;
static volatile long spun;

__attribute__((noinline)) long ctor_work(long i)
{
	return i * 5 + 3;
}

static void *spin(void *arg)
{
	(void)arg;
	for (long i = 0; i < 200000; i++)
		spun += ctor_work(i) & 1;
	return NULL;
}

__attribute__((constructor)) static void start(void)
{
	pthread_create(&spinner, NULL, spin, NULL);
}

__attribute__((noinline)) long ctor_value(void)
{
	pthread_join(spinner, NULL);
	return spun;
}
