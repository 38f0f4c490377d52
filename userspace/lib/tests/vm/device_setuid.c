// SPDX-License-Identifier: MIT
/*
 * device_setuid.c - libfdr linked into a set-user-ID program: the
 * caller's environment does not steer it ($FDR_TARGET, $FDR_OPTIONS,
 * $FDR_SYMDIR are read with secure_getenv()), and it opens nothing its
 * real user could not (access() with the real ids), nor a named session.
 * In the VM, as root: this program copies itself to a set-user-ID file
 * owned by uid 1000 and runs that as uid 65534 (AT_SECURE), with an
 * environment pointing at a session.  SKIPs without /dev/fdr.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "region_util.h"

#define NTESTS 4
#define PROBE "/tmp/fdr-setuid-probe"
#define UID_OWNER 1000
#define UID_CALLER 65534

/*
 * Probe mode (the set-user-ID copy): open the target libfdr resolves by
 * itself (NULL: $FDR_TARGET, else /dev/fdr) or @argv[2]; print what
 * happened as "secure=S ret=R msg".
 */
static int probe(int argc, char **argv)
{
	const char *target = argc > 2 ? argv[2] : NULL;
	struct fdr_ctl *ctl = NULL;
	int ret = fdr_ctl_open(&ctl, target);

	printf("secure=%lu ret=%d %s\n", getauxval(AT_SECURE), ret,
	       ret ? fdr_ctl_strerror(ctl, "open", ret) : "opened");
	fdr_ctl_close(ctl);
	return 0;
}

static int copy_self(void)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int out = open(PROBE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	int ret = 0;

	if (in < 0 || out < 0)
		ret = -1;
	while (!ret && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			ret = -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		ret = -1;
	if (!ret && (chown(PROBE, UID_OWNER, UID_OWNER) ||
		     chmod(PROBE, 04755)))
		ret = -1;
	return ret;
}

/*
 * Run the probe as uid 65534 (set-user-ID to 1000 when @setuid, else the
 * plain copy as root), $FDR_TARGET=@env_target; its line in @out.
 */
static int run_probe(bool setuid, const char *env_target, const char *arg,
		     char *out, size_t len)
{
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	if (chmod(PROBE, setuid ? 04755 : 0755) || pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		setenv("FDR_TARGET", env_target, 1);
		setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
		setenv("FDR_SYMDIR", "/", 1);
		if (setuid && (setgroups(0, NULL) ||
			       setresgid(UID_CALLER, UID_CALLER, UID_CALLER) ||
			       setresuid(UID_CALLER, UID_CALLER, UID_CALLER)))
			_exit(3);
		execl(PROBE, PROBE, "probe", arg, (char *)NULL);
		_exit(4);
	}
	close(pipefd[1]);
	n = read(pipefd[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	char line[1024];
	struct fdr_ctl *owner = NULL;

	if (argc > 1 && !strcmp(argv[1], "probe"))
		return probe(argc, argv);
	tap_plan(NTESTS);
	if (access(FDR_DEFAULT_DEVICE, F_OK) || getuid() != 0) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("no /dev/fdr, or not root", "set-user-ID %d", i + 1);
		return 0;
	}
	/* root's session, which the caller's environment names */
	if (fdr_ctl_open(&owner, FDR_DEFAULT_DEVICE) ||
	    fdr_ctl_session_create(owner, "setuid-victim", 0, 0) ||
	    copy_self()) {
		for (int i = 0; i < NTESTS; i++)
			tap_ok(false, "set-user-ID %d: cannot set up", i + 1);
		return 1;
	}

	/* Not set-user-ID: $FDR_TARGET counts (the session is root's). */
	tap_ok(!run_probe(false, FDR_DEFAULT_DEVICE ":setuid-victim", NULL,
			  line, sizeof(line)) &&
	       strstr(line, "secure=0 ret=0 opened"),
	       "a plain program follows $FDR_TARGET: %s", line);

	/*
	 * Set-user-ID: $FDR_TARGET is ignored, so the target is /dev/fdr,
	 * which uid 65534 may not open (0600 root): refused, saying why.
	 * Before, the program attached to root's session as uid 1000... or
	 * wherever the caller pointed it.
	 */
	tap_ok(!run_probe(true, FDR_DEFAULT_DEVICE ":setuid-victim", NULL,
			  line, sizeof(line)) &&
	       strstr(line, "secure=1 ret=-13") &&
	       !strstr(line, "setuid-victim") &&
	       strstr(line, "real user"),
	       "a set-user-ID program ignores $FDR_TARGET and opens nothing its real user may not: %s",
	       line);

	tap_ok(!run_probe(true, "embedded:setuid-evil", NULL, line,
			  sizeof(line)) &&
	       strstr(line, "secure=1 ret=-13") && !strstr(line, "setuid-evil"),
	       "nor an embedded region the caller names: %s", line);

	/* Named by the program itself: a session is still not opened. */
	tap_ok(!run_probe(true, "", FDR_DEFAULT_DEVICE ":setuid-victim", line,
			  sizeof(line)) &&
	       strstr(line, "secure=1 ret=-13") &&
	       strstr(line, "named session"),
	       "a set-user-ID program attaches to no named session: %s", line);

	fdr_ctl_close(owner);
	unlink(PROBE);
	return tap_done();
}
