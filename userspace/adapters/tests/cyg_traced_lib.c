// SPDX-License-Identifier: MIT
/* cyg_traced_lib.c - libcygtraced.so: an instrumented shared library, so
 * that its functions get hashed ids and the library's path in the map. */
__attribute__((noinline)) int lib_func(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 100;
}
