// SPDX-License-Identifier: MIT
/*
 * unwind_throw.cc - C++ exceptions through instrumented frames, built by
 * fdr-c++ (tests/unwind_test.sh reads the log).  main, in turn:
 *   1. one > two > three > leaf; leaf throws, main catches, calls after()
 *   2. from_library(): std::vector::at throws inside libstdc++; caught
 *      in main, after()
 *   3. rethrown: one > ... > leaf throws, caught in rethrow_it, which
 *      rethrows (throw;) to main, after()
 * `unwind_throw dtor` instead: outer > inner, each with a Guard whose
 * destructor runs during the unwind; inner throws, main catches, after().
 */
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

__attribute__((noinline)) static void leaf() { throw std::runtime_error("leaf"); }
__attribute__((noinline)) static void three() { leaf(); std::puts("not reached"); }
__attribute__((noinline)) static void two() { three(); std::puts("not reached"); }
__attribute__((noinline)) static void one() { two(); std::puts("not reached"); }
__attribute__((noinline)) static void after() { std::puts("after"); }

__attribute__((noinline)) static int from_library(std::vector<int> &v)
{
	return v.at(3);
}

__attribute__((noinline)) static void rethrow_it()
{
	try {
		one();
	} catch (...) {
		throw;
	}
}

struct Guard {
	~Guard();
	int n;
};

__attribute__((noinline)) Guard::~Guard()
{
	__asm__ volatile("" : : "r"(n));
}

__attribute__((noinline)) static void inner()
{
	Guard g{2};

	throw std::runtime_error("inner");
}

__attribute__((noinline)) static void outer()
{
	Guard g{1};

	inner();
	std::puts("not reached");
}

static int destructors()
{
	try {
		outer();
	} catch (const std::exception &) {
		after();
	}
	return 0;
}

int main(int argc, char **argv)
{
	std::vector<int> v;

	if (argc > 1 && !std::strcmp(argv[1], "dtor"))
		return destructors();

	try {
		one();
	} catch (const std::exception &) {
		after();
	}
	try {
		from_library(v);
	} catch (const std::out_of_range &) {
		after();
	}
	try {
		rethrow_it();
	} catch (const std::exception &) {
		after();
	}
	return 0;
}
