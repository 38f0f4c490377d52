/* SPDX-License-Identifier: MIT */
/*
 * region_run.h - what the end-to-end adapter tests share: make a region
 * (embedded on the host, /dev/fdr in the VM), run a traced program
 * against it, finalize and map it for inspection.
 */
#ifndef ADAPTERS_REGION_RUN_H
#define ADAPTERS_REGION_RUN_H

#include <stdbool.h>
#include <sys/types.h>
#include "fdr.h"

struct region {
	struct fdr_ctl *ctl;
	char target[96];
	bool embedded;
};

/* Create (embedded:NAME) or initialize (a device path) a fresh region.
 * Prints why on failure and returns a negative errno. */
int region_start(struct region *r, const char *target);
/* The same with the caller's geometry and trigger. */
int region_start_cfg(struct region *r, const char *target,
		     const struct fdr_init *cfg);
/* Finalize and map read-only. */
int region_stop_and_map(struct region *r, const struct fdr_control **c);
/* Back to UNINITIALIZED (device) or removed (embedded). */
void region_end(struct region *r);

/*
 * Run argv with extra "NAME=value" strings added to the environment
 * (NULL-terminated), stdout to /dev/null unless keep_stdout.  Returns the
 * wait status, or -1; *pid gets the child's pid.
 */
int run_program(char *const argv[], char *const extra_env[], pid_t *pid,
		bool keep_stdout);

/* Like run_program, keeping the program's stdout (NUL-terminated, at
 * most outlen - 1 bytes) in out. */
int run_capture(char *const argv[], char *const extra_env[], pid_t *pid,
		char *out, size_t outlen);

/* Directory of this test binary. */
const char *self_dir(void);
/* Where the traced programs and their tables are: next to the test on
 * the host; <DESTDIR>/bin/adapters for the VM build (vm-install). */
const char *prog_dir(void);
/* Where fdrd and fdrlog are: build/bin on the host, <DESTDIR>/bin in
 * the VM. */
const char *tools_dir(void);

#endif /* ADAPTERS_REGION_RUN_H */
