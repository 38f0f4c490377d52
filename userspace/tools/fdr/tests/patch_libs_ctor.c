// SPDX-License-Identifier: MIT
/*
 * patch_libs_ctor.c - libpatchctor.so: its constructor starts a thread
 * that runs the library's code until ctor_value() is called, so while
 * dlopen() returns: fdr record -P must not patch it (patch_libs_test.sh).
 */
#include <pthread.h>

static pthread_t spinner;
static volatile long spun;
static volatile int done;	/* ctor_value was called: the thread ends */

__attribute__((noinline)) long ctor_work(long i)
{
	return i * 5 + 3;
}

static void *spin(void *arg)
{
	(void)arg;
	for (long i = 0; !done || i < 1000; i++)
		spun += ctor_work(i) & 1;
	return NULL;
}

__attribute__((constructor)) static void start(void)
{
	pthread_create(&spinner, NULL, spin, NULL);
}

/* 1: the thread ran; its count depends on the scheduling. */
__attribute__((noinline)) long ctor_value(void)
{
	done = 1;
	pthread_join(spinner, NULL);
	return spun > 0;
}
