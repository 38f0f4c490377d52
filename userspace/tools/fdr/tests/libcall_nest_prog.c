// SPDX-License-Identifier: MIT
/* libcall_nest_prog.c - libcall_nest_test.sh's program: calls a library
 * that calls another (and libc); with argv[2], first has a library
 * (libcall_nest_loader.c) dlopen() the plugin of that bare name, run it
 * twice and dlclose() it; then dlopen()s a plugin (its path in argv[1]),
 * calls it through dlsym() twice, dlclose()s it, loads it again and
 * calls it once more. */
#include <dlfcn.h>
#include <stdio.h>

int nest_a_work(const char *s, int v);
int nest_load_run(const char *name, int times);

static int run_plugin(const char *path, int times)
{
	void *h = dlopen(path, RTLD_LAZY);
	int (*run)(const char *);
	int sum = 0;

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return -1;
	}
	*(void **)&run = dlsym(h, "plugin_run");
	for (int i = 0; run && i < times; i++)
		sum += run("plugin");
	dlclose(h);
	return sum;
}

int main(int argc, char **argv)
{
	int sum = 0;

	for (int i = 0; i < 3; i++)
		sum += nest_a_work("nest", -i);
	printf("a: %d\n", sum);
	if (argc > 2)
		printf("plugin loaded by a library: %d\n", nest_load_run(argv[2], 2));
	if (argc > 1) {
		printf("plugin: %d\n", run_plugin(argv[1], 2));
		printf("plugin again: %d\n", run_plugin(argv[1], 1));
	}
	return 0;
}
