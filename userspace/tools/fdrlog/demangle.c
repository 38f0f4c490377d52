// SPDX-License-Identifier: MIT
/*
 * demangle.c - C++ names as people read them, for every name source.
 *
 * Decision: libstdc++'s Itanium ABI demangler (__cxa_demangle, linked
 * with -lstdc++, package libstdc++-12-dev), called from C through its
 * documented C signature: it is on every Debian machine that has g++,
 * needs no C++ in this program, and is what the --instr-map names were
 * already tested equal to llvm-xray's with.  libiberty's cplus_demangle
 * would be a second demangler for the same job.
 */
#include <stdlib.h>
#include <string.h>
#include "symbols_internal.h"

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *symbols_demangled_copy(const char *name)
{
	int status = -1;
	char *d = strncmp(name, "_Z", 2) ? NULL : __cxa_demangle(name, NULL, NULL, &status);

	if (d && status == 0)
		return d;
	free(d);
	return strdup(name);
}
