// SPDX-License-Identifier: MIT
/* tools.c - see tools.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tools.h"

static bool executable(const char *p)
{
	return p && *p && access(p, X_OK) == 0;
}

/* $env, else the first of the candidates that exists, else "". */
static void find_one(char *out, size_t len, const char *env,
		     const char *const *cands)
{
	const char *e = getenv(env);

	out[0] = '\0';
	if (executable(e)) {
		snprintf(out, len, "%s", e);
		return;
	}
	for (; *cands; cands++) {
		if (executable(*cands)) {
			snprintf(out, len, "%s", *cands);
			return;
		}
	}
}

void tools_find(struct tools *t)
{
	static const char *const fdrd[] = { "/bin/fdrd", "/reliability/bin/fdrd",
					    "/usr/local/bin/fdrd", NULL };
	static const char *const fdrlog[] = { "/bin/fdrlog", "/reliability/bin/fdrlog",
					      "/usr/local/bin/fdrlog", NULL };
	static const char *const xray[] = { "/usr/bin/llvm-xray-19",
					    "/usr/lib/llvm-19/bin/llvm-xray", NULL };

	find_one(t->fdrd, sizeof(t->fdrd), "FDRD", fdrd);
	find_one(t->fdrlog, sizeof(t->fdrlog), "FDRLOG", fdrlog);
	find_one(t->xray, sizeof(t->xray), "LLVM_XRAY", xray);
}

pid_t tools_spawn(char *const argv[], const char *errfile)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int out = open(errfile ? errfile : "/dev/null",
			       O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (out >= 0) {
			dup2(out, 1);
			dup2(out, 2);
		}
		if (null >= 0)
			dup2(null, 0);
		execv(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

int tools_run(char *const argv[], const char *errfile, int timeout_s)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	pid_t pid = tools_spawn(argv, errfile);
	long waited_ms = 0;
	int status;

	if (pid < 0)
		return -1;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (waited_ms >= timeout_s * 1000L) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		nanosleep(&tick, NULL);
		waited_ms += 5;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int tools_copy(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(in);
	if (close(out) < 0 && !ret)
		ret = -errno;
	return ret;
}

void tools_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}
