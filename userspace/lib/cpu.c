// SPDX-License-Identifier: MIT
/*
 * cpu.c - which CPU we run on, without a syscall.  First choice: the
 * cpu_id field of the rseq area glibc registered for this thread (a TLS
 * load).  Otherwise rdtscp's TSC_AUX (Linux stores the CPU number in its
 * low 12 bits), otherwise sched_getcpu() (vDSO on x86-64).
 */
#include <cpuid.h>
#include <sched.h>
#include <stddef.h>
#include <sys/rseq.h>
#include "recorder.h"

long fdr__rseq_cpu_offset;
static int have_rdtscp = -1;

FDR_NOINSTR static bool cpu_has_rdtscp(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}

FDR_NOINSTR void fdr__cpu_setup(void)
{
	have_rdtscp = cpu_has_rdtscp();
	if (__rseq_size >= offsetof(struct rseq, cpu_id) + sizeof(uint32_t))
		fdr__rseq_cpu_offset =
			(long)__rseq_offset + (long)offsetof(struct rseq, cpu_id);
}

FDR_NOINSTR uint32_t fdr__cpu_slow(void)
{
	if (have_rdtscp < 0)
		have_rdtscp = cpu_has_rdtscp();
	if (have_rdtscp) {
		unsigned aux;

		__rdtscp(&aux);
		return aux & 0xfff;
	}
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (uint32_t)cpu;
}
