// SPDX-License-Identifier: MIT
/* sched_time.c - the reports' view of `<log>.sched` (sched_time.h). */
#include "commands.h"
#include "sched_time.h"

const char *sched_none_reason(const struct sched_source *src)
{
	return src->disabled ? "no scheduling data read (--no-sched)"
		: "no scheduling data was recorded (no usable LOG.sched: the embedded "
		  "backend, --no-sched, or an older fdrd)";
}

void sched_add_call(struct fdr_sched_split *sum, const struct fdr_sched *s,
		    const struct call_done *c)
{
	const struct call_frame *fr = &c->frames[c->depth];
	struct fdr_sched_split x;

	fdr_sched_thread_split(s, (int32_t)c->tid, fr->tsc, fr->tsc + c->ticks, &x);
	sum->on_cpu += x.on_cpu;
	sum->runnable += x.runnable;
	sum->blocked += x.blocked;
	sum->unknown += x.unknown;
}
