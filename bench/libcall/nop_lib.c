// SPDX-License-Identifier: MIT
/* nop_lib.c - the library function bench/libcall calls: next to nothing,
 * so the cost measured is the call's and the recorder's. */
int bench_nop(int x)
{
	return x + 1;
}
