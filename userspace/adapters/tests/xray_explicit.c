// SPDX-License-Identifier: MIT
/*
 * xray_explicit.c - a program that drives the "fdr" mode itself, the
 * way XRay's documentation shows for any mode: select, init with a config
 * string (argv[1]), patch, run, finalize, flush, and with argv[2] init
 * once more with that config.  Exit status says which step failed, for
 * xray_record_test.c.
 */
#include <stdio.h>

#include "xray_abi.h"

__attribute__((noinline)) int work(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3;
}

int main(int argc, char **argv)
{
	int sum = 0;

	if (argc < 2)
		return 2;
	if (__xray_log_select_mode("fdr") != FDR_XRAY_REGISTRATION_OK)
		return 3;
	if (__xray_log_init_mode("fdr", argv[1]) != FDR_XRAY_LOG_INITIALIZED)
		return 4;
	if (__xray_patch() != FDR_XRAY_PATCH_SUCCESS)
		return 5;
	for (int i = 0; i < 4; i++)
		sum += work(i);
	if (__xray_log_finalize() != FDR_XRAY_LOG_FINALIZED)
		return 6;
	if (__xray_log_flushLog() != FDR_XRAY_LOG_FLUSHED)
		return 7;
	if (argc > 2 && __xray_log_init_mode("fdr", argv[2]) != FDR_XRAY_LOG_INITIALIZED)
		return 8;
	printf("%d\n", sum);
	return 0;
}
