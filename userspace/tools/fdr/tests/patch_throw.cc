// SPDX-License-Identifier: MIT
/*
 * patch_throw.cc - C++ exceptions thrown through functions fdr record -P
 * patched (patch_test.sh): the unwinder must see real return addresses
 * (plt_unwind.c), the frames it skipped must be closed, and the program's
 * output must not change.  Built with plain clang++ and, as the oracle,
 * with fdr-c++ (XRay).
 */
#include <cstdio>
#include <stdexcept>
#include <string>

#define NOINLINE __attribute__((noinline))

NOINLINE int thrower(int x)
{
	if (x % 3 == 0)
		throw std::runtime_error("multiple of three: " + std::to_string(x));
	return x * 2;
}

NOINLINE int middle(int x, int depth)
{
	int r = depth ? middle(x, depth - 1) : thrower(x);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/* catches some, lets the others through */
NOINLINE int catcher(int x)
{
	try {
		return middle(x, 3);
	} catch (const std::runtime_error &e) {
		if (x % 2)
			throw;
		return (int)e.what()[0];
	}
}

int main()
{
	long sum = 0;
	int caught = 0;

	for (int i = 0; i < 200; i++) {
		try {
			sum += catcher(i);
		} catch (const std::exception &e) {
			caught++;
			sum += (long)std::string(e.what()).size();
		}
	}
	std::printf("sum %ld, caught in main %d\n", sum, caught);
	return 0;
}
