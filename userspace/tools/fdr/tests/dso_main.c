// SPDX-License-Identifier: MIT
/*
 * dso_main.c PLUGIN - the calls xray_dso_test.sh counts: into a linked
 * fdr-cc library (dso_lib.c) and into one dlopen()ed and dlclose()d
 * LOADS times (dso_plug.c).  It prints what it called, so the test's
 * expectations come from the program, not from the log.
 */
#include <dlfcn.h>
#include <stdio.h>

#define WORKS	4	/* dso_lib_work calls, each LEAVES dso_lib_leaf calls */
#define LEAVES	25
#define LOADS	3	/* dlopen/plug_run/plug_slow/dlclose rounds */
#define RUNS	6	/* plug_leaf calls per plug_run */

int dso_lib_work(int n);
int dso_lib_slow(void);

static int plugin_round(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	int (*run)(int);
	int (*slow)(void);

	if (!h) {
		fprintf(stderr, "dso_main: %s\n", dlerror());
		return -1;
	}
	run = (int (*)(int))dlsym(h, "plug_run");
	slow = (int (*)(void))dlsym(h, "plug_slow");
	if (!run || !slow) {
		fprintf(stderr, "dso_main: %s\n", dlerror());
		return -1;
	}
	run(RUNS);
	slow();
	return dlclose(h);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	for (int i = 0; i < WORKS; i++)
		dso_lib_work(LEAVES);
	dso_lib_slow();
	for (int i = 0; i < LOADS; i++)
		if (plugin_round(argv[1]))
			return 1;
	printf("dso_lib_leaf=%d dso_lib_slow=1 dso_lib_work=%d main=1 plug_leaf=%d "
	       "plug_run=%d plug_slow=%d\n", WORKS * LEAVES, WORKS, LOADS * RUNS,
	       LOADS, LOADS);
	return 0;
}
