/* SPDX-License-Identifier: MIT */
/*
 * stress_judge.h - the stress driver's judge: a process of its own that
 * judges each generation's log (log_judge.h) once the region moved on,
 * while the driver goes on cycling.
 *
 * Why a process: judging a log (fdrlog verify, llvm-xray, our scan) takes
 * seconds on a loaded host.  Judged in the driver's loop, every second of
 * it stretched the next generation, whose log then took longer to judge:
 * generations grew until the ring overwrote in most of them, and those
 * are not held to the tally.  A thread would do, but writers are forked
 * from the driver, and TSan refuses threads in a child of a threaded
 * process.  Verdicts come back through shared memory made before the fork.
 */
#ifndef REL_STRESS_JUDGE_H
#define REL_STRESS_JUDGE_H

#include <stdint.h>
#include <sys/types.h>
#include "log_judge.h"
#include "tally.h"
#include "tools.h"

/* Written by the judge, read by the driver once the judge exited. */
struct verdicts {
	uint32_t judge_below;	/* atomic, the driver's: generations below
				 * this one have moved on and may be judged */
	uint32_t last;		/* atomic, the driver's: judge_below is final */
	uint32_t next_gen;	/* the next generation to judge */
	struct judge_stats js;
	unsigned long lost_logs, empty_gens, kept, failed_logs;
	unsigned long finalize_crash, finalize_ioctl;
};

struct stress_judge {
	const struct tools *tools;
	struct tally *tally;
	const char *out;		/* where fdrd writes gen-<G>.xray */
	const char *export_dir;		/* "" or where kept logs go */
	unsigned keep;			/* logs to keep besides failing ones */
	char errfile[600];		/* the verifiers' stderr */
	uint64_t tally_from;		/* the judge's own */
	struct verdicts *v;		/* shared */
	pid_t pid;
};

/* Fork the judge, which starts at generation first.  0 or -1. */
int judge_start(struct stress_judge *j, uint32_t first);
/* Generations below gen may be judged. */
void judge_below(struct stress_judge *j, uint32_t gen);
/* Generations below gen are all there will be: wait until judged. */
void judge_finish(struct stress_judge *j, uint32_t gen);

#endif
