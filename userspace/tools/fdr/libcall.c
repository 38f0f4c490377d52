// SPDX-License-Identifier: MIT
/*
 * libcall.c - library-call tracing's part of `fdr record`: find the
 * preloaded runtime libfdr-plt.so and put it in PROG's environment
 * (Documentation/integrations.md, "Library calls").
 *
 * LD_PRELOAD gets it first, before any of the user's own; LD_BIND_NOW=1
 * makes the loader bind every GOT entry before the runtime rewrites
 * them (a lazily bound entry would be rebound past the hook on its first
 * call).  Both are inherited, so exec'ed and forked programs are
 * recorded the same way, as uftrace does.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

#define PLT_SO	"libfdr-plt.so"

static bool readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* $FDR_LIBDIR, else beside the build tree's bin/ (../adapters), else the
 * installed layouts' (../lib/fdr: make install; ../lib/<multiarch>/fdr:
 * the Debian package). */
int fdr__libcall_find(char *out, size_t outsz)
{
	const char *dir = getenv("FDR_LIBDIR");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (dir && *dir)
		return snprintf(out, outsz, "%s/" PLT_SO, dir) < (int)outsz && readable(out)
		       ? 0 : -1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	if (!(slash = strrchr(self, '/')))
		return -1;
	*slash = 0;
	if (snprintf(out, outsz, "%s/../adapters/" PLT_SO, self) < (int)outsz && readable(out))
		return 0;
	if (snprintf(out, outsz, "%s/../lib/fdr/" PLT_SO, self) < (int)outsz && readable(out))
		return 0;
	if (snprintf(out, outsz, "%s/../lib/x86_64-linux-gnu/fdr/" PLT_SO, self) < (int)outsz &&
	    readable(out))
		return 0;
	return -1;
}

/* In PROG's child, before exec: so (NULL for an fdr-cc build, whose own
 * runtime hooks) and $FDR_LIBCALL (plt_hook.h). */
int fdr__libcall_env(const char *so, const char *libcall)
{
	const char *old = getenv("LD_PRELOAD");
	char v[PATH_MAX + 4096];

	if (setenv("FDR_LIBCALL", libcall, 1) || setenv("LD_BIND_NOW", "1", 0))
		return -1;
	if (!so)
		return 0;

	if (snprintf(v, sizeof(v), "%s%s%s", so, old && *old ? " " : "", old ? old : "")
	    >= (int)sizeof(v))
		return -1;
	return setenv("LD_PRELOAD", v, 1);
}
