// SPDX-License-Identifier: MIT
/*
 * deep_stack.c - deep_stack.h.  The stack is an anonymous mapping with
 * MAP_NORESERVE: a reservation of address space, not memory, whatever
 * the depth the log claims; pages come as the walk reaches them, and a
 * PROT_NONE guard page below it turns an underestimate into a fault,
 * never a write into another mapping.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "deep_stack.h"

/* The deepest walk's frames per level of nesting (replay: put_node,
 * put_call with its 256-byte name, put_children; about 400 bytes),
 * with room to spare.  AddressSanitizer pads every frame with red zones
 * (make SAN=1: 1024 bytes a level overflowed at 40,000 levels). */
#if defined(__SANITIZE_ADDRESS__)
#define BYTES_PER_LEVEL	4096u
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BYTES_PER_LEVEL	4096u
#endif
#endif
#ifndef BYTES_PER_LEVEL
#define BYTES_PER_LEVEL	1024u
#endif
#define BASE_BYTES	(4u << 20)	/* the rest of the command's frames */
/* what an 8 MiB thread holds safely: a quarter of it */
#define HERE_LEVELS	((2u << 20) / BYTES_PER_LEVEL)

struct deep_job {
	int (*fn)(void *ctx);
	void *ctx;
	int r;
};

static void *run(void *arg)
{
	struct deep_job *job = arg;

	job->r = job->fn(job->ctx);
	return NULL;
}

int deep_stack_run(size_t depth, int (*fn)(void *ctx), void *ctx)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size;
	struct deep_job job = { fn, ctx, -1 };
	pthread_attr_t attr;
	pthread_t th;
	void *stack;

	if (depth <= HERE_LEVELS)
		return fn(ctx);
	if (depth > (SIZE_MAX - BASE_BYTES) / BYTES_PER_LEVEL - page)
		return -1;
	size = (depth * BYTES_PER_LEVEL + BASE_BYTES + page - 1) / page * page;
	stack = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	if (mprotect(stack, page, PROT_NONE) || pthread_attr_init(&attr)) {
		munmap(stack, size + page);
		return -1;
	}
	if (pthread_attr_setstack(&attr, (char *)stack + page, size) == 0 &&
	    pthread_create(&th, &attr, run, &job) == 0)
		pthread_join(th, NULL);
	pthread_attr_destroy(&attr);
	munmap(stack, size + page);
	return job.r;
}
