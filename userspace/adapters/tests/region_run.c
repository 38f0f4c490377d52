// SPDX-License-Identifier: MIT
/* region_run.c - see region_run.h. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "region_run.h"

#define TEST_BUFFER_SIZE	(64 * 1024)
#define TEST_BUFFERS_PER_CPU	8

int region_start(struct region *r, const char *target)
{
	struct fdr_init cfg = {
		.size = sizeof(cfg),
		.buffer_size = TEST_BUFFER_SIZE,
		.buffers_per_cpu = TEST_BUFFERS_PER_CPU,
	};

	return region_start_cfg(r, target, &cfg);
}

int region_start_cfg(struct region *r, const char *target,
		     const struct fdr_init *cfgp)
{
	struct fdr_init cfg = *cfgp;
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(r->target, sizeof(r->target), "%s", target);
	r->embedded = strncmp(target, FDR_EMBEDDED_PREFIX,
			      strlen(FDR_EMBEDDED_PREFIX)) == 0;
	if (r->embedded)
		fdr_ctl_destroy_embedded(target);	/* leftovers of a crash */
	ret = fdr_ctl_open(&r->ctl, target);
	if (ret == 0)
		ret = fdr_ctl_init(r->ctl, &cfg);
	if (ret == -EBUSY && !r->embedded) {
		/* the shared device left running by someone else: start over */
		fdr_ctl_finalize(r->ctl);
		fdr_ctl_reset(r->ctl);
		ret = fdr_ctl_init(r->ctl, &cfg);
	}
	if (ret) {
		fprintf(stderr, "%s\n", fdr_ctl_strerror(r->ctl, "init", ret));
		fdr_ctl_close(r->ctl);
		r->ctl = NULL;
	}
	return ret;
}

int region_stop_and_map(struct region *r, const struct fdr_control **c)
{
	size_t len;
	int ret = fdr_ctl_finalize(r->ctl);

	if (ret && ret != -EBUSY) {	/* EBUSY: the mode finalized it */
		fprintf(stderr, "%s\n", fdr_ctl_strerror(r->ctl, "finalize", ret));
		return ret;
	}
	ret = fdr_ctl_map(r->ctl, c, &len);
	if (ret)
		fprintf(stderr, "%s\n", fdr_ctl_strerror(r->ctl, "map", ret));
	return ret;
}

void region_end(struct region *r)
{
	if (!r->ctl)
		return;
	fdr_ctl_unmap(r->ctl);
	if (!r->embedded) {	/* the device is shared: leave it UNINITIALIZED */
		fdr_ctl_finalize(r->ctl);	/* EBUSY if already finalized */
		fdr_ctl_reset(r->ctl);
	}
	fdr_ctl_close(r->ctl);
	if (r->embedded)
		fdr_ctl_destroy_embedded(r->target);
	r->ctl = NULL;
}

static void exec_child(char *const argv[], char *const extra_env[],
		       bool keep_stdout)
{
	struct rlimit no_core = { 0, 0 };	/* the crash tests abort() */

	setrlimit(RLIMIT_CORE, &no_core);
	for (char *const *e = extra_env; e && *e; e++)
		putenv(*e);
	if (!keep_stdout) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
	}
	execv(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int run_program(char *const argv[], char *const extra_env[], pid_t *pid,
		bool keep_stdout)
{
	int status;

	fflush(stdout);
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0)
		exec_child(argv, extra_env, keep_stdout);
	if (waitpid(*pid, &status, 0) < 0)
		return -1;
	return status;
}

int run_capture(char *const argv[], char *const extra_env[], pid_t *pid,
		char *out, size_t outlen)
{
	char path[] = "/tmp/fdr-adapters-out-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO), st;
	ssize_t n;

	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	st = run_program(argv, extra_env, pid, true);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = pread(fd, out, outlen - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return st;
}

const char *self_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return ".";
	dir[n] = '\0';
	return dirname(dir);
}

const char *prog_dir(void)
{
	static char dir[PATH_MAX + 16];

#ifdef VM_TEST
	snprintf(dir, sizeof(dir), "%s/../bin/adapters", self_dir());
#else
	snprintf(dir, sizeof(dir), "%s", self_dir());
#endif
	return dir;
}

const char *tools_dir(void)
{
	static char dir[PATH_MAX + 16];

#ifdef VM_TEST
	snprintf(dir, sizeof(dir), "%s/../bin", self_dir());
#else
	snprintf(dir, sizeof(dir), "%s/../../bin", self_dir());
#endif
	return dir;
}
