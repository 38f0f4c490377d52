// SPDX-License-Identifier: MIT
/*
 * thread_exit.c - give a thread's buffer back when it exits.
 *
 * A pthread key whose destructor only stores a descriptor state: no
 * allocation, no lock.  The key is created once, early, so its slot is in
 * glibc's static array and pthread_setspecific() never allocates either.
 * The main thread never runs key destructors; a library destructor covers
 * it, and the kernel (or the embedded controller) reclaims what a process
 * that died still held.
 */
#include <pthread.h>
#include "recorder.h"

static pthread_key_t exit_key;
static int key_state;	/* 0 none, 1 created, -1 failed */

__FDR_NO_INSTRUMENT static void on_thread_exit(void *unused)
{
	(void)unused;
	fdr_thread_release();
	fdr__thread.key_set = 0;
}

__FDR_NO_INSTRUMENT static void create_key(void)
{
	key_state = pthread_key_create(&exit_key, on_thread_exit) ? -1 : 1;
}

__FDR_NO_INSTRUMENT void fdr__arm_thread_exit(struct fdr_thread *t)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, create_key);
	if (key_state > 0 && pthread_setspecific(exit_key, (void *)1) == 0)
		t->key_set = 1;
}

FDR_API void fdr_thread_release(void)
{
	struct fdr_thread *t = &fdr__thread;

	if (t->busy)
		return;
	fdr__guard_enter(t);
	fdr__buffer_release(t);
	fdr__guard_leave(t);
}

/* exit() does not run key destructors for the main thread. */
__attribute__((destructor)) __FDR_NO_INSTRUMENT static void at_exit(void)
{
	fdr_thread_release();
}
