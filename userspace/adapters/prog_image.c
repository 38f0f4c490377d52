// SPDX-License-Identifier: MIT
/*
 * prog_image.c - compare /proc/self/exe with $FDR_PROG (prog_image.h).
 *
 * Asked from the hooks' slow path, once per image: the answer is kept (a
 * fork child runs the same image; an exec starts with a fresh copy).
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "fdr_env.h"
#include "prog_image.h"

static int is_prog = -1;	/* -1: not asked yet */

__FDR_NO_INSTRUMENT static int compare(void)
{
	const char *prog = fdr__env(FDR_PROG_ENV);
	char exe[PATH_MAX];
	ssize_t n;

	if (!prog || !*prog)
		return 1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 1;	/* unknown: keep the ids every build had */
	exe[n] = '\0';
	return !strcmp(exe, prog);
}

__FDR_NO_INSTRUMENT int fdr__image_is_prog(void)
{
	if (is_prog < 0)
		is_prog = compare();
	return is_prog;
}
