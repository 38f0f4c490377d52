// SPDX-License-Identifier: MIT
/*
 * run.c - run PROG with the recording environment and wait, as a child
 * subreaper, until PROG and every descendant are gone (a forked child
 * that outlives PROG still writes into the region; finalizing before it
 * exits would cut its records off).  Once they are all gone no writer is
 * left, so the flush needs no grace period.
 *
 * fdr ignores SIGINT and SIGQUIT while it waits, as a shell does for a
 * foreground job: the terminal sends them to PROG too, and fdr must
 * outlive PROG to write the log.  SIGTERM and SIGHUP are passed on to PROG.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdr_env.h"
#include "record.h"

static volatile pid_t prog_pid;

static void forward(int sig)
{
	if (prog_pid > 0)
		kill(prog_pid, sig);
}

static void set_signals(void)
{
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };

	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * $FDR_PROG: PROG's real path, so that the programs it exec()s number
 * their functions apart from its own (adapters/prog_image.h).
 */
static int set_prog(const struct prog *p)
{
	char real[PATH_MAX];

	return realpath(p->path, real) ? setenv(FDR_PROG_ENV, real, 1) : unsetenv(FDR_PROG_ENV);
}

/* XRAY_OPTIONS keeps the user's items; ours come last, so they win. */
static int set_env(const struct run_env *env)
{
	const char *xo = getenv("XRAY_OPTIONS"), *fo = getenv("FDR_OPTIONS");
	char xray[4096], opts[4096];

	snprintf(xray, sizeof(xray), "%s%spatch_premain=true xray_mode=fdr",
		 xo ? xo : "", xo && *xo ? " " : "");
	if (env->threshold_us >= 0)
		snprintf(opts, sizeof(opts), "%s%sfunc_duration_threshold_us=%ld",
			 fo ? fo : "", fo && *fo ? ":" : "", env->threshold_us);
	else
		snprintf(opts, sizeof(opts), "%s", fo ? fo : "");
	if (env->functions[0] && setenv("FDR_XRAY_FUNCTIONS", env->functions, 1))
		return -1;
	if (env->args[0] && setenv("FDR_XRAY_ARGS", env->args, 1))
		return -1;
	if (env->plt_args && env->plt_args[0] && setenv("FDR_PLT_ARGS", env->plt_args, 1))
		return -1;
	if (env->libcall && fdr__libcall_env(env->preload, env->libcall))
		return -1;
	if (env->dso_functions[0] && setenv("FDR_XRAY_DSO_FUNCTIONS", env->dso_functions, 1))
		return -1;
	return setenv("XRAY_OPTIONS", xray, 1) || setenv("FDR_TARGET", env->target, 1) ||
	       setenv("FDR_OPTIONS", opts, 1) || setenv("FDR_SYMDIR", env->symdir, 1);
}

/* In the child: exec, or report errno through the close-on-exec pipe. */
static void __attribute__((noreturn)) child(const struct prog *p, char **argv,
					     const struct run_env *env, int fd)
{
	int err;

	if (set_env(env) == 0 && set_prog(p) == 0) {
		err = fdr__env_fd_pass();
		if (err)
			fprintf(stderr, "fdr record: note: programs that %s runs with an "
				"environment of their own will not be recorded: cannot pass "
				"the recording on at descriptor %d: %s\n", p->path, FDR_ENV_FD,
				strerror(-err));
		execv(p->path, argv);
	}
	err = errno;
	if (write(fd, &err, sizeof(err)) < 0)
		_exit(FDR_EXIT_FAILED);
	_exit(err == ENOENT ? FDR_EXIT_NOT_FOUND : FDR_EXIT_CANNOT_EXEC);
}

/* Reap every descendant; PROG's status into *wstatus. */
static void reap_all(pid_t pid, int *wstatus)
{
	int st;
	pid_t w;

	for (;;) {
		w = waitpid(-1, &st, 0);
		if (w == pid) {
			*wstatus = st;
			prog_pid = 0;	/* reaped: its pid may be reused */
		}
		else if (w < 0 && errno != EINTR)
			return;		/* ECHILD: nobody left */
	}
}

int fdr__run(const struct prog *p, char **argv, const struct run_env *env, int *wstatus)
{
	int pfd[2], err = 0;
	ssize_t n;
	pid_t pid;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe2(pfd, O_CLOEXEC)) {
		fprintf(stderr, "fdr record: cannot prepare to run %s: %s\n", argv[0],
			strerror(errno));
		return FDR_EXIT_FAILED;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "fdr record: cannot fork: %s\n", strerror(errno));
		return FDR_EXIT_FAILED;
	}
	if (pid == 0)
		child(p, argv, env, pfd[1]);
	prog_pid = pid;
	set_signals();
	close(pfd[1]);
	while ((n = read(pfd[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	reap_all(pid, wstatus);
	if (n == (ssize_t)sizeof(err)) {
		fprintf(stderr, "fdr record: cannot execute %s: %s\n", p->path, strerror(err));
		return err == ENOENT ? FDR_EXIT_NOT_FOUND : FDR_EXIT_CANNOT_EXEC;
	}
	return 0;
}
