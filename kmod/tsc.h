/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tsc.h - what the kernel knows about the TSC, for the control area:
 * userspace would otherwise have to guess the frequency (XRay reads
 * /proc/cpuinfo or calibrates) and cannot see the reliability flags.
 */
#ifndef FDR_TSC_H
#define FDR_TSC_H

#include <linux/types.h>
#include <linux/fdr.h>
#ifdef CONFIG_X86
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#endif

/* Ticks per second, 0 if the kernel has no calibrated TSC. */
static inline u64 fdr_tsc_hz(void)
{
#ifdef CONFIG_X86
	return (u64)tsc_khz * 1000;
#else
	return 0;
#endif
}

/* The TSC now, as a writer's rdtsc would read it; 0 without one. */
static inline u64 fdr_tsc_now(void)
{
#ifdef CONFIG_X86
	return tsc_khz ? rdtsc_ordered() : 0;
#else
	return 0;
#endif
}

/*
 * The TSC @ms milliseconds after @tsc, for writers to compare their own
 * rdtsc with; 0 (no hint) without a calibrated TSC or for @ms 0.  @ms is
 * at most FDR_TRIGGER_HOLDOFF_MAX_MS, so the product cannot overflow.
 */
static inline u64 fdr_tsc_after_ms(u64 tsc, u32 ms)
{
#ifdef CONFIG_X86
	if (!tsc_khz || !tsc || !ms)
		return 0;
	return tsc + (u64)ms * tsc_khz;
#else
	return 0;
#endif
}

/* FDR_CTL_CONSTANT_TSC / FDR_CTL_NONSTOP_TSC as the boot CPU reports them. */
static inline u32 fdr_tsc_flags(void)
{
	u32 flags = 0;

#ifdef CONFIG_X86
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		flags |= FDR_CTL_CONSTANT_TSC;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		flags |= FDR_CTL_NONSTOP_TSC;
#endif
	return flags;
}

#endif /* FDR_TSC_H */
