// SPDX-License-Identifier: MIT
/* prog10ms.c - a program that runs for about 10 ms, making calls all along. */
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void step(unsigned long i)
{
	sink += i;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(void)
{
	double end = now_ms() + 10;

	for (unsigned long i = 0; now_ms() < end; i++)
		step(i);
	return 0;
}
