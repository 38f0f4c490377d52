// SPDX-License-Identifier: MIT
/*
 * regs_run.c - the loop of the register tests' traced programs.
 *
 * Re-entry: when the program is linked with libfdr's test build, its
 * hook inside the record's re-entry guard (fdr_inline.h) runs one more
 * checked call, as a signal handler would: that call's records meet a
 * thread already inside a record, and take the drop path.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regs_run.h"

extern void (*fdr__test_guarded_hook)(void) __attribute__((weak));

static const struct regs_target *targets;
static size_t ntargets;
static enum regs_set check_set;
static bool avx;
static long iterations;
static atomic_long checked, mismatches, reentered;
static __thread int hook_depth;

static void check_one(const struct regs_target *t, uint64_t *seed)
{
	struct regs in, out;
	char why[160];

	regs_fill(&in, seed);
	if (t->args)
		t->args(&in);
	(avx ? regs_call_avx : regs_call_sse)(t->fn, &in, &out);
	atomic_fetch_add(&checked, 1);
	if (regs_same(&in, &out, check_set, t->skip, avx, why, sizeof(why)) &&
	    (!t->extra || t->extra(why, sizeof(why))))
		return;
	if (atomic_fetch_add(&mismatches, 1) < 20)
		fprintf(stderr, "regs: %s: %s\n", t->name, why);
}

static void guarded_hook(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)atomic_load(&checked);

	if (hook_depth)
		return;
	hook_depth = 1;
	check_one(&targets[0], &seed);
	atomic_fetch_add(&reentered, 1);
	hook_depth = 0;
}

static void *loop(void *arg)
{
	uint64_t seed = (uintptr_t)arg * 0x2545f4914f6cdd1dull + 1;

	for (long i = 0; i < iterations; i++)
		for (size_t k = 0; k < ntargets; k++)
			check_one(&targets[k], &seed);
	return NULL;
}

int regs_main(int argc, char **argv, const struct regs_target *t, size_t n,
	      enum regs_set set)
{
	pthread_t other;

	if (argc < 2 || argc > 3 || (iterations = atol(argv[1])) <= 0 ||
	    (argc == 3 && strcmp(argv[2], "return"))) {
		fprintf(stderr, "usage: %s ITERATIONS [return]\n", argv[0]);
		return 2;
	}
	targets = t;
	ntargets = n;
	check_set = argc == 3 ? REGS_RETURN : set;
	avx = regs_have_avx();
	if (&fdr__test_guarded_hook)
		fdr__test_guarded_hook = guarded_hook;
	if (pthread_create(&other, NULL, loop, (void *)2)) {
		perror("pthread_create");
		return 1;
	}
	loop((void *)1);
	pthread_join(other, NULL);
	printf("checked %ld, mismatches %ld, reentered %ld, %s\n",
	       atomic_load(&checked), atomic_load(&mismatches),
	       atomic_load(&reentered), avx ? "ymm" : "xmm");
	return atomic_load(&mismatches) ? 1 : 0;
}
