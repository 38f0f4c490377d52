// SPDX-License-Identifier: MIT
/*
 * cpu.c - which CPU we run on, without a syscall.  First choice: the
 * cpu_id field of the rseq area glibc registered for this thread (a TLS
 * load).  Otherwise rdtscp's TSC_AUX (Linux stores the CPU number in its
 * low 12 bits), otherwise sched_getcpu() (vDSO on x86-64).
 */
#include <sched.h>
#include <stddef.h>
#include <sys/rseq.h>
#include "recorder.h"

long fdr__rseq_cpu_offset;
/* The cpu_id of a thread without rseq: a negative, as rseq's would be. */
static __thread int32_t no_rseq_cpu_id
	__attribute__((tls_model("initial-exec"))) = -1;
static int have_rdtscp = -1;

/* CPUID by hand: <cpuid.h>'s inline helpers could be instrumented. */
__FDR_NO_INSTRUMENT static void cpuid(unsigned leaf, unsigned r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(0));
}

__FDR_NO_INSTRUMENT static bool cpu_has_rdtscp(void)
{
	unsigned r[4];

	cpuid(0x80000000, r);
	if (r[0] < 0x80000001)
		return false;
	cpuid(0x80000001, r);
	return r[3] & (1u << 27);
}

__FDR_NO_INSTRUMENT void fdr__cpu_setup(void)
{
	have_rdtscp = cpu_has_rdtscp();
	if (__rseq_size >= offsetof(struct rseq, cpu_id) + sizeof(uint32_t))
		fdr__rseq_cpu_offset =
			(long)__rseq_offset + (long)offsetof(struct rseq, cpu_id);
	else	/* initial-exec: the same offset in every thread */
		fdr__rseq_cpu_offset = (long)((char *)&no_rseq_cpu_id -
					      (char *)__builtin_thread_pointer());
}

__FDR_NO_INSTRUMENT uint32_t fdr__cpu_slow(void)
{
	if (have_rdtscp < 0)
		have_rdtscp = cpu_has_rdtscp();
	if (have_rdtscp) {
		unsigned aux;

		__builtin_ia32_rdtscp(&aux);	/* the builtin: never instrumented */
		return aux & 0xfff;
	}
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (uint32_t)cpu;
}
