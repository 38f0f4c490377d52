// SPDX-License-Identifier: MIT
/*
 * patch_alone.c - is the patching thread the process's only one?
 *
 * The patch moves a function's first instructions and writes a 5-byte
 * jmp over them, several bytes and instructions at once: a thread that
 * ran the first moved instruction and stopped before the next would go
 * on in the middle of the jmp.  The int3-first protocol (the kernel's
 * text_poke_bp) makes a write of one instruction safe, not a rewrite of
 * several, so -P patches only while no other thread can run the
 * program's code.  The preload constructor normally runs before any
 * thread exists; a constructor of a library the program needs runs
 * before it and may start one: then nothing is patched (Documentation/
 * integrations.md, "Functions of programs not built with fdr-cc").
 */
#include <dirent.h>
#include <stdbool.h>
#include <string.h>

#include "patch_hook.h"

bool fdr__patch_alone(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return false;	/* unknown: patching could break a running thread */
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n == 1;
}
