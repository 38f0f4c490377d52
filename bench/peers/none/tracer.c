/* SPDX-License-Identifier: MIT */
/*
 * No tracer to set up: the uninstrumented baseline, and the -pg build
 * that `uftrace record` traces from outside.
 */
#include "tracer.h"

int tracer_setup(void)
{
	return 0;
}

int tracer_teardown(void)
{
	return 0;
}
