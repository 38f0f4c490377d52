// SPDX-License-Identifier: MIT
/*
 * cyg_resolve.c - first sight of a function: module, stable id, symbol,
 * one sym-map line, then the lock-free cache that makes it a hot hit.
 *
 * All under one mutex: this runs once per function per process, and
 * on a stack of its own that the mutex guards (call_on_stack.h), so a
 * program on a small stack never runs it on that stack.  A thread-local
 * flag stops a signal handler that interrupts the slow path from
 * re-entering it (it would deadlock on the mutex); such calls are
 * simply not recorded.  fork() takes the mutex around itself, and the
 * child rewrites the whole table into its own sym-map file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "call_on_stack.h"
#include "cyg_resolve.h"
#include "fdr.h"
#include "fid_assign.h"
#include "fid_cache.h"
#include <linux/fdr.h>
#include "module_lookup.h"
#include "plt_hook.h"
#include "sym_map.h"

static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;
/* The slow path's stack, used only under resolve_lock. */
static unsigned char slow_stack[FDR_SLOW_STACK_SIZE] __attribute__((aligned(16)));
static __thread bool in_resolve;
static bool started;
volatile int fdr__cyg_tables_full;
int fdr__cyg_idle;

__FDR_NO_INSTRUMENT static void write_owner(const struct fdr_fid_owner *o, void *arg)
{
	struct fdr_module *m = fdr__module_at(o->module);

	(void)arg;
	fdr__sym_map_append(o->fid, m ? fdr__module_symbol(m, o->vaddr) : NULL,
			   m ? m->path : NULL, o->vaddr);
}

__FDR_NO_INSTRUMENT static void before_fork(void)
{
	pthread_mutex_lock(&resolve_lock);
}

__FDR_NO_INSTRUMENT static void after_fork_parent(void)
{
	pthread_mutex_unlock(&resolve_lock);
}

__FDR_NO_INSTRUMENT static void on_slow_stack(void (*fn)(void *), void *arg)
{
	fdr__call_on_stack(slow_stack + sizeof(slow_stack), fn, arg);
}

__FDR_NO_INSTRUMENT static void rewrite_map(void *arg)
{
	(void)arg;
	fdr__sym_map_forget();
	fdr__fid_for_each(write_owner, NULL);
}

/* The child records under its own pid: give it a complete map now
 * (before_fork took the lock, so the slow stack is ours). */
__FDR_NO_INSTRUMENT static void after_fork_child(void)
{
	on_slow_stack(rewrite_map, NULL);
	pthread_mutex_unlock(&resolve_lock);
}

__FDR_NO_INSTRUMENT static void start_once(void)
{
	int r;

	if (started)
		return;
	started = true;
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	/* $FDR_TARGET or /dev/fdr; on failure fdr_attach has said why,
	 * once, and the hooks skip the record path until `fdr record -p`
	 * attaches (cyg_attach.c).  -ENODATA: attached, waiting for an INIT. */
	r = fdr_attach(NULL);
	if (r < 0 && r != -ENODATA)
		__atomic_store_n(&fdr__cyg_idle, 1, __ATOMIC_RELAXED);
	else	/* library calls, when fdr record asks; under resolve_lock,
		 * after before_fork's registration (its child map comes first) */
		fdr__plt_self_start(0, true);
}

__FDR_NO_INSTRUMENT static uint32_t assign(uintptr_t fn)
{
	struct fdr_module *m = fdr__module_find(fn);
	uint64_t vaddr = m ? fn - m->bias : fn;
	uint32_t fid = fdr__fid_claim(m, vaddr);

	if (fid == 0 || fdr__fid_cache_put(fn, fid)) {
		if (!fdr__cyg_tables_full)
			fprintf(stderr, "fdr: more than %u instrumented functions; "
				"calls to the others are not recorded\n",
				FDR_FID_CACHE_MAX);
		fdr__cyg_tables_full = 1;
		return 0;
	}
	fdr__sym_map_append(fid, m ? fdr__module_symbol(m, vaddr) : NULL,
			   m ? m->path : NULL, vaddr);
	return fid;
}

struct resolve_call {
	uintptr_t fn;
	uint32_t fid;
};

__FDR_NO_INSTRUMENT static void resolve_on_slow_stack(void *arg)
{
	struct resolve_call *c = arg;

	start_once();
	c->fid = fdr_fid_cache_get(c->fn);	/* another thread may have won */
	if (c->fid == 0)
		c->fid = assign(c->fn);
}

__FDR_NO_INSTRUMENT uint32_t fdr__cyg_resolve(uintptr_t fn)
{
	struct resolve_call c = { .fn = fn };

	if (in_resolve)
		return 0;
	in_resolve = true;
	pthread_mutex_lock(&resolve_lock);
	on_slow_stack(resolve_on_slow_stack, &c);
	pthread_mutex_unlock(&resolve_lock);
	in_resolve = false;
	return c.fid;
}
