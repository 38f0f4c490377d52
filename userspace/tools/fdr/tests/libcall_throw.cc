// SPDX-License-Identifier: MIT
/*
 * libcall_throw.cc - C++ exceptions through hooked library calls
 * (libcall_test.sh): thrown from inside libstdc++ (vector::at), thrown
 * by the program's own code through qsort's frames (a comparator), and
 * thrown by the program itself (__cxa_throw is a library call too).
 * Each is caught and printed; the test compares the output with a run
 * without fdr, and the calls with the audit counter's.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

static int compares;

static int throwing_cmp(const void *a, const void *b)
{
	if (++compares == 4)
		throw compares;
	return std::strcmp(*(char *const *)a, *(char *const *)b);
}

int main()
{
	std::vector<int> v(3, 7);
	const char *words[] = { "pear", "apple", "fig", "kiwi", "banana" };

	for (int round = 0; round < 3; round++) {
		try {
			std::printf("at %d\n", v.at(round * 5));
		} catch (const std::out_of_range &e) {
			std::printf("out_of_range %zu\n", std::strlen(e.what()) > 0 ? (size_t)1 : (size_t)0);
		}
	}
	try {
		std::qsort(words, 5, sizeof(words[0]), throwing_cmp);
	} catch (int n) {
		std::printf("caught %d from qsort's comparator\n", n);
	}
	try {
		if (std::getenv("HOME") || true)
			throw std::runtime_error("own");
	} catch (const std::exception &e) {
		std::printf("caught %s, %s\n", e.what(), std::strchr("x:y", ':'));
	}
	return 3;
}
