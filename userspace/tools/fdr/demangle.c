// SPDX-License-Identifier: MIT
/*
 * demangle.c - C++ names as people write them.  The XRay map's names are
 * demangled by fdrlog already; the -finstrument-functions sym-maps hold
 * symbol-table names (_Z...), which are demangled here, with libstdc++'s
 * demangler, as fdrlog does.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *fdr__demangle(const char *name)
{
	int status = -1;
	char *d = NULL;

	if (!strncmp(name, "_Z", 2))
		d = __cxa_demangle(name, NULL, NULL, &status);
	if (d && status == 0)
		return d;
	free(d);
	return strdup(name);
}
