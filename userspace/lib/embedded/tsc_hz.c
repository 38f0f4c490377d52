// SPDX-License-Identifier: MIT
/*
 * tsc_hz.c - the TSC frequency and reliability for an embedded region,
 * where no kernel tells us: sysfs if it has tsc_freq_khz, else a ~20 ms
 * calibration against CLOCK_MONOTONIC.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "internal.h"

__FDR_NO_INSTRUMENT uint64_t fdr__monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

__FDR_NO_INSTRUMENT static uint64_t tsc_hz_from_sysfs(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/tsc_freq_khz", "re");
	unsigned long long khz = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &khz) != 1)
		khz = 0;
	fclose(f);
	return khz * 1000;
}

__FDR_NO_INSTRUMENT static uint64_t tsc_hz_calibrate(void)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	uint64_t t0 = fdr__monotonic_ns(), c0 = __builtin_ia32_rdtsc();
	uint64_t t1, c1;

	nanosleep(&nap, NULL);
	t1 = fdr__monotonic_ns();
	c1 = __builtin_ia32_rdtsc();
	if (t1 <= t0 || c1 <= c0)
		return 0;
	/* Round to kHz like the kernel's tsc_khz. */
	return (uint64_t)((double)(c1 - c0) * 1e6 / (double)(t1 - t0)) * 1000;
}

__FDR_NO_INSTRUMENT uint64_t fdr__tsc_hz(void)
{
	uint64_t hz = tsc_hz_from_sysfs();

	return hz ? hz : tsc_hz_calibrate();
}

/* constant_tsc / nonstop_tsc as the kernel reports them in /proc/cpuinfo. */
__FDR_NO_INSTRUMENT uint32_t fdr__tsc_flags(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[16384];
	uint32_t flags = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		if (strstr(line, " constant_tsc"))
			flags |= FDR_CTL_CONSTANT_TSC;
		if (strstr(line, " nonstop_tsc"))
			flags |= FDR_CTL_NONSTOP_TSC;
		break;
	}
	fclose(f);
	return flags;
}
