// SPDX-License-Identifier: MIT
/* off_cpu.c - a thread's times off its CPU (off_cpu.h). */
#include "off_cpu.h"

bool off_cpu_next(const struct fdr_sched_thread *th, size_t *i, struct off_cpu *out)
{
	size_t k = *i;

	while (k < th->count && th->records[k].type != FDR_SCHED_SWITCH_OUT)
		k++;
	if (k == th->count)
		return false;
	*out = (struct off_cpu){ .start = th->records[k].tsc, .state = th->state_after[k],
				 .open = true };
	/* the last WAKEUP before the SWITCH_IN is the one that let it run */
	for (k++; k < th->count && th->records[k].type != FDR_SCHED_SWITCH_IN; k++)
		if (th->records[k].type == FDR_SCHED_WAKEUP)
			out->wakeup = &th->records[k];
	out->end = th->records[k < th->count ? k : th->count - 1].tsc;
	out->open = k == th->count;
	*i = k;
	return true;
}

const char *off_cpu_reason(uint8_t state)
{
	switch (state) {
	case FDR_THREAD_RUNNABLE: return "preempted";
	case FDR_THREAD_SLEEPING: return "sleeping";
	case FDR_THREAD_DISK: return "uninterruptible";
	default: return "stopped or exiting";
	}
}
