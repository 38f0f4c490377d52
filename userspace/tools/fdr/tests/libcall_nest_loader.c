// SPDX-License-Identifier: MIT
/* libcall_nest_loader.c - a library of libcall_nest_test.sh that
 * dlopen()s a plugin itself (not the program): by a bare name, found only
 * along this library's own RUNPATH; calls it through dlsym() and
 * dlclose()s it.  --nest-libcall must hook the plugin before this
 * library's dlopen() returns, and keep that dlopen()'s search path. */
#include <dlfcn.h>
#include <stdio.h>

int nest_load_run(const char *name, int times)
{
	void *h = dlopen(name, RTLD_LAZY);
	int (*run)(const char *);
	int sum = 0;

	if (!h) {
		fprintf(stderr, "dlopen from a library: %s\n", dlerror());
		return -1;
	}
	*(void **)&run = dlsym(h, "plugin_run");
	for (int i = 0; run && i < times; i++)
		sum += run("loader");
	dlclose(h);
	return sum;
}
