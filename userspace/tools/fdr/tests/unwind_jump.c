// SPDX-License-Identifier: MIT
/*
 * unwind_jump.c - longjmp() over three instrumented frames, built by
 * fdr-cc (tests/unwind_test.sh reads the log).
 *
 *   jump      main > one > two > three > leaf, leaf longjmp()s to main
 *   signal    the same, but leaf raises SIGUSR1 and the handler
 *             siglongjmp()s to main from the signal frame
 * Then main calls after(): its Enter must come after every Exit.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf env;
static volatile int use_signal;

__attribute__((noinline)) static void on_signal(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

__attribute__((noinline)) static void leaf(void)
{
	if (use_signal)
		raise(SIGUSR1);
	else
		longjmp(env, 1);
	puts("not reached");	/* no tail call: leaf stays on the stack */
}

__attribute__((noinline)) static void three(void) { leaf(); puts("not reached"); }
__attribute__((noinline)) static void two(void) { three(); puts("not reached"); }
__attribute__((noinline)) static void one(void) { two(); puts("not reached"); }
__attribute__((noinline)) static void after(void) { puts("after"); }

int main(int argc, char **argv)
{
	use_signal = argc > 1 && !strcmp(argv[1], "signal");
	signal(SIGUSR1, on_signal);
	if (!sigsetjmp(env, 1))
		one();
	after();
	return 0;
}
