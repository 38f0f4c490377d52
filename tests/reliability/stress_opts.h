/* SPDX-License-Identifier: MIT */
/* stress_opts.h - the stress driver's knobs (stress --help). */
#ifndef REL_STRESS_OPTS_H
#define REL_STRESS_OPTS_H

#include <stdbool.h>
#include <stdint.h>

struct stress_opts {
	char target[256];
	char out[512];		/* logs; "" = a new temporary directory */
	char export_dir[512];	/* kept logs are copied here ("" = none) */
	unsigned procs, threads;
	unsigned seconds, max_cycles;
	unsigned min_cycle_ms, max_cycle_ms;
	unsigned kill_percent;	/* chance that a cycle SIGKILLs a writer */
	uint64_t buffer_size;
	uint32_t buffers_per_cpu;
	unsigned batch, batch_sleep_us, min_batches, max_batches;
	unsigned grace_ms;
	unsigned keep;		/* logs kept besides failing ones */
	unsigned seed;
	bool hold_check, no_crash_finalize;
};

/* 0: run; 1: --help printed; 2: usage error (message printed). */
int stress_opts_parse(struct stress_opts *o, int argc, char **argv);

#endif
