// SPDX-License-Identifier: MIT
/*
 * count_hooks.c - the oracle of the real-program test's -finstrument-
 * functions part: the simplest hooks there are, counting the entries of
 * each function (single-threaded programs only; no locking).  At exit
 * they write one "OFFSET COUNT" line per function to $COUNT_HOOKS_OUT,
 * OFFSET being the function's address minus the image's start (nm's
 * address in a PIE); compare_counts.py hooks names them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1u << 16)
#define NOINSTR __attribute__((no_instrument_function))

extern char __executable_start[];	/* the linker's: the image's first byte */

static struct {
	void *fn;
	unsigned long n;
} tab[SLOTS];

NOINSTR void __cyg_profile_func_enter(void *fn, void *site)
{
	unsigned i = (unsigned)(((uintptr_t)fn >> 4) * 2654435761u) & (SLOTS - 1);

	(void)site;
	while (tab[i].fn && tab[i].fn != fn)
		i = (i + 1) & (SLOTS - 1);
	tab[i].fn = fn;
	tab[i].n++;
}

NOINSTR void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

NOINSTR __attribute__((destructor)) static void write_counts(void)
{
	const char *path = getenv("COUNT_HOOKS_OUT");
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f)
		return;
	for (unsigned i = 0; i < SLOTS; i++)
		if (tab[i].fn)
			fprintf(f, "%lx %lu\n", (unsigned long)((char *)tab[i].fn - __executable_start),
				tab[i].n);
	fclose(f);
}
