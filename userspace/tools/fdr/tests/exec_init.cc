// SPDX-License-Identifier: MIT
// exec_init.cc - a C++ static initialiser (exec_test.sh).
#include <cstdio>

static volatile int base = 41;

__attribute__((noinline)) int static_value()
{
	return base + 1;
}

struct Holder {
	int v;
	Holder() : v(static_value()) {}
};

static Holder held;

int main()
{
	std::printf("held %d\n", held.v);
	return 0;
}
