// SPDX-License-Identifier: MIT
/*
 * xray_preinit.c - start the fdr XRay mode from the first .preinit_array
 * entry, so that the program's own .preinit_array functions are recorded.
 *
 * LLVM 19's runtime initializes (and, with patch_premain=true, patches
 * the sleds) from its own .preinit_array entry, which the clang driver
 * links after the program's objects: the program's entries run first,
 * with the sleds still nops.  .preinit_array is not sorted by priority,
 * only by link order, so fdr-cc links this object (libfdr-xray-preinit.a,
 * whole) before the program's: its entry calls __xray_init (which runs
 * once: compiler-rt's later entry returns at once) and starts the mode as
 * the autostart constructor would (xray_autostart.c).  The dynamic
 * loader runs .preinit_array after libc's early initialization (malloc
 * and stdio work) but before libc's own constructor sets environ: the
 * start reads $FDR_XRAY_ARGS and the others with getenv(), so environ is
 * set here first from the envp every .preinit_array function is given
 * (the same pointer libc then stores).  Executables only: a shared
 * object has no .preinit_array, fdr-cc does not add this to a -shared
 * link.
 */
#include <unistd.h>

#include "fdr.h"

void __xray_init(void);
void fdr__xray_autostart_once(void);

__FDR_NO_INSTRUMENT static void fdr_xray_preinit(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	if (!environ)
		environ = envp;
	__xray_init();
	fdr__xray_autostart_once();
}

static void (*const fdr_xray_preinit_entry)(int, char **, char **)
	__attribute__((section(".preinit_array"), used)) = fdr_xray_preinit;
