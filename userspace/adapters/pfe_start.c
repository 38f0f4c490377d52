// SPDX-License-Identifier: MIT
/*
 * pfe_start.c - fdr-cc --patchable's start (pfe_hook.h): when fdr
 * record runs the program ($FDR_TARGET set), attach to its region and
 * patch every nop site (those $FDR_PATCH's patterns select, if -P gave
 * some) before main; otherwise do nothing at all, so that a program
 * nobody records runs its nops, one per call, and nothing else of fdr's.
 *
 * The constructor runs after those of the libraries: one of them may
 * have started a thread, so the sites are then written as they are at an
 * attach (live), and the coverage file says what was refused.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "fdr.h"
#include "fdr_env.h"
#include "patch_coverage.h"
#include "patch_hook.h"
#include "pfe_hook.h"

/*
 * What fdr-cc links with -Wl,--undefined=fdr_patchable_mode_link, and
 * what fdr record recognizes the build by (elf_info.c); its section is
 * what keeps a preloaded libfdr-plt.so out (plt_detect.c).
 */
__attribute__((section("fdr_patchable"))) const char fdr_patchable_mode_link[] = "patchable";

/* `fdr record -p` calls it from outside (attach_entry.c): keep it. */
long fdr_attach_entry(const char *cmd);
__attribute__((used)) static long (*const keep_attach_entry)(const char *) =
	fdr_attach_entry;

/* The coverage file's "exe" line. */
static const char *exe_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n > 0 ? n : 0] = 0;
	return buf;
}

__attribute__((constructor)) static void pfe_start(void)
{
	const char *target = fdr__env("FDR_TARGET");
	struct fdr_patch_coverage cov = { 0 };
	char exe[PATH_MAX];
	int n;

	if (!target || !*target)
		return;
	if (fdr_attach(NULL) < 0)
		return;		/* fdr_attach said why; the program runs as is */
	n = fdr__pfe_patch(fdr__env(FDR_PATCH_ENV), &cov, !fdr__patch_alone());
	/* a refusal of the text's mprotect is counted; other errors are not */
	fdr__patch_coverage_write(&cov, n >= 0 || cov.selected, &(struct fdr_patch_target){
		.path = exe_path(exe, sizeof(exe)), .is_main = true });
	if (n > 0)
		pthread_atfork(NULL, NULL, fdr__pfe_rename);
}
