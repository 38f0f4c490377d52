// SPDX-License-Identifier: MIT
/*
 * pfe_attach.c - fdr_attach_entry()'s fdr-cc --patchable half
 * (attach_mode.h): start attaches libfdr to the recorder's region and
 * writes the jmps over the nop sites while the program's threads run
 * (pfe_hook.h: one atomic store each); "stopped", every thread stopped by
 * the recorder, those across two words; stop writes the others' nops
 * back and detaches; the unmap, every thread stopped, the rest.  The stubs, the return trampoline and each thread's shadow
 * stack stay: a call entered while attached returns through them after
 * the detach too, recording nothing.
 */
#include <errno.h>
#include <string.h>

#include "attach_mode.h"
#include "fdr.h"
#include "fdr_detach.h"
#include "pfe_hook.h"

int fdr__attach_mode_start(const char *target, const char *functions)
{
	int r;

	if (strcmp(functions, "-"))
		return -EINVAL;		/* -F/-N patch XRay sleds: the recorder refuses them */
	if (fdr__attached())
		return -EISCONN;	/* fdr record started it: it records already */
	r = fdr_attach(target);
	if (r < 0) {
		if (r == -ENODATA)	/* attached, waiting for an INIT: not ours */
			fdr_detach();
		return r;
	}
	r = fdr__pfe_patch(NULL, NULL, true);
	if (r < 0)
		fdr_detach();
	return r;
}

void fdr__attach_mode_stop(void)
{
	fdr__pfe_unpatch(true);		/* no new call reaches us but through */
	fdr_detach();			/* the sites "stopped" patched: detached */
}

int fdr__attach_mode_stopped(bool recording)
{
	if (recording)
		return fdr__pfe_patch_pending();
	fdr__pfe_unpatch(false);
	return 0;
}
