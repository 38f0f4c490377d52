// SPDX-License-Identifier: MIT
/*
 * calls.c - per-call cost of an XRay-instrumented leaf function under
 * one recording set-up per process (argv[1]):
 *
 *   unpatched   sleds left as nops: the instrumented build's baseline
 *   trampoline  sleds patched, no handler: XRay's trampoline alone
 *   empty       sleds patched, an empty arg0 handler: trampoline + call
 *   fdr         our "fdr" mode, started by XRAY_OPTIONS (run.sh sets
 *               patch_premain=true xray_mode=fdr, FDR_TARGET, FDR_OPTIONS)
 *   direct      no XRay: an uninstrumented leaf calling fdr_enter/fdr_exit
 *               itself (libfdr's record cost without the trampoline)
 *   xray-fdr    compiler-rt's FDR mode: select, init with
 *               func_duration_threshold_us=0, patch (../shared/FORMAT.md §6);
 *               finalize and flush after the timed loop
 *
 * Prints "<mode> <calls> <elapsed_ns>" on stdout.  Only leaf() is
 * instrumented; the loop and the set-up are xray_never_instrument.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fdr.h"
#include "xray_abi.h"

#define NEVER		__attribute__((xray_never_instrument))
#define WARMUP_CALLS	200000

int __xray_patch(void);

__attribute__((noinline, xray_always_instrument)) uint64_t leaf(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

NEVER __attribute__((noinline)) static uint64_t direct_leaf(uint64_t x)
{
	fdr_enter(1);
	__asm__ volatile("" : "+r"(x));
	fdr_exit(1);
	return x * 3 + 1;
}

NEVER static void empty_handler(int32_t fid, enum fdr_xray_entry_type type)
{
	(void)fid;
	(void)type;
}

NEVER static uint64_t now_ns(void)
{
	struct timespec ts;

	/* CPU time of this thread: time spent preempted by other load on
	 * this shared machine is not charged to the call being measured */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NEVER static uint64_t loop(uint64_t (*fn)(uint64_t), uint64_t calls)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < calls; i++)
		acc += fn(i);
	return acc;
}

NEVER static int setup_compiler_rt(void)
{
	if (__xray_log_select_mode("xray-fdr") != FDR_XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0") !=
		    FDR_XRAY_LOG_INITIALIZED) {
		fprintf(stderr, "calls: cannot start compiler-rt's xray-fdr mode\n");
		return -1;
	}
	return __xray_patch() == 1 ? 0 : -1;
}

NEVER static int setup(const char *mode)
{
	const char *cur = __xray_log_get_current_mode();

	if (!strcmp(mode, "unpatched"))
		return 0;
	if (!strcmp(mode, "trampoline"))
		return __xray_patch() == 1 ? 0 : -1;
	if (!strcmp(mode, "empty"))
		return __xray_set_handler(empty_handler) && __xray_patch() == 1 ? 0 : -1;
	if (!strcmp(mode, "fdr")) {
		if (cur && !strcmp(cur, "fdr"))
			return 0;
		fprintf(stderr, "calls: mode is '%s', not fdr: set XRAY_OPTIONS="
			"\"patch_premain=true xray_mode=fdr\"\n", cur ? cur : "none");
		return -1;
	}
	if (!strcmp(mode, "xray-fdr"))
		return setup_compiler_rt();
	if (!strcmp(mode, "direct"))
		return fdr_attach(NULL) ? -1 : 0;
	fprintf(stderr, "calls: unknown mode '%s'\n", mode);
	return -1;
}

NEVER static void teardown(const char *mode)
{
	if (strcmp(mode, "xray-fdr"))
		return;
	__xray_log_finalize();
	__xray_log_flushLog();	/* run.sh reads the header for the clock */
}

NEVER int main(int argc, char **argv)
{
	uint64_t (*fn)(uint64_t) = leaf;
	uint64_t calls, t0, t1;
	volatile uint64_t sink;

	if (argc != 3 || (calls = strtoull(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: calls MODE CALLS\n");
		return 2;
	}
	if (setup(argv[1]))
		return 1;
	if (!strcmp(argv[1], "direct"))
		fn = direct_leaf;
	sink = loop(fn, WARMUP_CALLS);
	t0 = now_ns();
	sink = loop(fn, calls);
	t1 = now_ns();
	(void)sink;
	printf("%s %llu %llu\n", argv[1], (unsigned long long)calls,
	       (unsigned long long)(t1 - t0));
	teardown(argv[1]);
	return 0;
}
