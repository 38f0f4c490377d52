// SPDX-License-Identifier: MIT
/*
 * cyg_trigger_traced.c - built with gcc -finstrument-functions and
 * libfdr-cyg.a (cyg_trigger_traced), and with clang -fxray-instrument and
 * libfdr-xray.a (xray_trigger_traced): 10,000 calls of ~10 us, the
 * 5,001st call a 21 ms one (slow_call).  cyg_trigger_test.c runs both
 * under a 10 ms latency trigger.
 */
#include <stdint.h>
#include <time.h>

#ifdef __clang__	/* XRay: the clock helpers are no calls of the test */
#define no_instrument_function xray_never_instrument
#endif

__attribute__((no_instrument_function)) static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

__attribute__((no_instrument_function)) static void spin_ns(uint64_t ns)
{
	uint64_t t0 = now_ns();

	while (now_ns() - t0 < ns)
		;
}

__attribute__((noinline)) void fast_call(void)
{
	spin_ns(10000);
}

__attribute__((noinline)) void slow_call(void)
{
	spin_ns(21000000);
}

int main(void)
{
	for (int i = 0; i < 10000; i++) {
		if (i == 5000)
			slow_call();
		else
			fast_call();
	}
	return 0;
}
