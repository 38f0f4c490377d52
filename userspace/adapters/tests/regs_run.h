/* SPDX-License-Identifier: MIT */
/*
 * regs_run.h - the traced side of the register tests: call each target
 * through the harness (regs.h) many times, in two threads, and in the
 * middle of a record (re-entry), and report every register that changed.
 */
#ifndef ADAPTERS_TESTS_REGS_RUN_H
#define ADAPTERS_TESTS_REGS_RUN_H

#include "regs.h"

struct regs_target {
	const char *name;
	void (*fn)(void);		/* called with every register loaded */
	void (*args)(struct regs *r);	/* the registers that carry its
					 * arguments (NULL: none) */
	/* An extra check the target does itself (NULL: none): true when
	 * it holds, else why. */
	bool (*extra)(char *why, size_t whylen);
	uint32_t skip;			/* GPRs its own body uses (1 << R_x) */
};

/*
 * Run the targets (argv[1]: iterations per thread; argv[2] "return":
 * check REGS_RETURN instead of set), print
 * "checked N, mismatches M, reentered R" and return the exit status:
 * 0 when every check held, 1 otherwise, 2 on a usage error.
 */
int regs_main(int argc, char **argv, const struct regs_target *t, size_t n,
	      enum regs_set set);

#endif /* ADAPTERS_TESTS_REGS_RUN_H */
