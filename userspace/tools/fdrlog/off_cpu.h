/* SPDX-License-Identifier: MIT */
/*
 * off_cpu.h - a thread's times off its CPU, from its scheduling records:
 * each from a SWITCH_OUT to the next SWITCH_IN, with why it left and who
 * woke it (the WAKEUP in between), as replay prints them and the Chrome
 * trace draws its wakeup arrows.
 */
#ifndef FDRLOG_OFF_CPU_H
#define FDRLOG_OFF_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <fdr_reader.h>

struct off_cpu {
	uint64_t start, end;		/* SWITCH_OUT, SWITCH_IN (end: the last record's when open) */
	uint8_t state;			/* enum fdr_thread_state it left in */
	bool open;			/* no SWITCH_IN after it */
	const struct fdr_sched_record *wakeup;	/* NULL: none recorded */
};

/*
 * The first time off CPU that starts at or after record *i of th; *i
 * moves past it.  false when there is none.
 */
bool off_cpu_next(const struct fdr_sched_thread *th, size_t *i, struct off_cpu *out);

/* "sleeping", "preempted", ...: how it left. */
const char *off_cpu_reason(uint8_t state);

#endif
