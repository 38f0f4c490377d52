// SPDX-License-Identifier: MIT
/*
 * args_dso.c - calls lib_mix of the library it links and plug_mix of the
 * one it dlopen()s (argv[1]), both built by fdr-cc (args_lib.c).
 */
#include <dlfcn.h>
#include <stdio.h>

double lib_mix(int n, const char *s, double d);

int main(int argc, char **argv)
{
	double (*plug)(int, const char *, double);
	void *h;

	lib_mix(-3 + (argc > 9), "linked library", 1.5);
	h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	plug = h ? (double (*)(int, const char *, double))dlsym(h, "plug_mix") : NULL;
	if (!plug) {
		fprintf(stderr, "args_dso: %s\n", dlerror());
		return 1;
	}
	plug(-4, "dlopen()ed", -0.25);
	return 0;
}
