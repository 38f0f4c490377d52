// SPDX-License-Identifier: MIT
/*
 * device_ctl.c - libfdr's control API and fdrctl against /dev/fdr, in
 * the VM: transitions and errnos as the kernel enforces them, the mapped
 * layout, poll wakeups, generations.  SKIPs without /dev/fdr.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "region_util.h"

#define NTESTS 8

static struct test_region tr;

static bool test_transitions(void)
{
	struct fdr_ctl *c = tr.ctl;
	struct fdr_status st;

	CHECK(fdr_ctl_status(c, &st) == 0 && st.state == FDR_STATE_INITIALIZED,
	      "INITIALIZED");
	CHECK(fdr_ctl_init(c, &(struct fdr_init){ .size = 24, .buffer_size = 4096,
			   .buffers_per_cpu = 1 }) == -EBUSY, "init twice");
	CHECK(fdr_ctl_reset(c) == -EBUSY, "reset while INITIALIZED");
	CHECK(fdr_ctl_flush_begin(c) == -EBUSY, "flush while INITIALIZED");
	CHECK(strstr(fdr_ctl_strerror(c, "reset", -EBUSY), "INITIALIZED"),
	      "message names the state");
	CHECK(fdr_ctl_finalize(c) == 0 && fdr_ctl_finalize(c) == -EBUSY,
	      "finalize once");
	CHECK(fdr_ctl_flush_begin(c) == 0 && fdr_ctl_reset(c) == -EBUSY,
	      "no reset while FLUSHING");
	CHECK(fdr_ctl_flush_abort(c) == 0 && fdr_ctl_flush_begin(c) == 0 &&
	      fdr_ctl_flush_done(c) == 0, "abort, begin, done");
	CHECK(fdr_ctl_status(c, &st) == 0 && st.flush_state == FDR_FLUSH_FLUSHED &&
	      st.finalize_reason == FDR_FINALIZE_IOCTL, "FLUSHED, by ioctl");
	CHECK(fdr_ctl_reset(c) == 0 && fdr_ctl_status(c, &st) == 0 &&
	      st.state == FDR_STATE_UNINITIALIZED, "reset");
	CHECK(fdr_ctl_finalize(c) == -EBUSY, "finalize while UNINITIALIZED");
	return true;
}

static bool test_layout(void)
{
	const struct fdr_control *c;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	CHECK(tr_map(&tr) == 0, "map");
	c = tr.c;
	CHECK(c->magic == FDR_CONTROL_MAGIC && c->abi_version == FDR_ABI_VERSION,
	      "header");
	CHECK(!(c->flags & FDR_CTL_EMBEDDED), "not embedded");
	CHECK(c->buffer_size == 8192 && c->buffers_per_cpu == 2 &&
	      c->nr_cpus >= (uint32_t)ncpu, "geometry: %u cpus", c->nr_cpus);
	for (uint32_t i = 0; i < c->nr_buffers; i++)
		CHECK(tr_desc(&tr, i)->offset ==
			      c->control_size + (uint64_t)i * c->buffer_size &&
		      tr_desc(&tr, i)->state == FDR_BUF_FREE, "desc %u", i);
	return true;
}

static void *finalize_later(void *arg)
{
	struct timespec ms = { 0, 50 * 1000 * 1000 };
	struct fdr_ctl *c;

	(void)arg;
	nanosleep(&ms, NULL);
	if (fdr_ctl_open(&c, FDR_DEFAULT_DEVICE) == 0)
		fdr_ctl_finalize(c);
	fdr_ctl_close(c);
	return NULL;
}

static bool test_wait(void)
{
	struct timespec t0, t1;
	pthread_t th;
	int ret;

	CHECK(fdr_ctl_wait(tr.ctl, FDR_STATE_INITIALIZED, 0, 50) == -ETIMEDOUT,
	      "timeout");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&th, NULL, finalize_later, NULL);
	ret = fdr_ctl_wait(tr.ctl, FDR_STATE_INITIALIZED, 0, 10000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(th, NULL);
	CHECK(ret == 0, "woken: %d", ret);
	CHECK(t1.tv_sec - t0.tv_sec < 5, "promptly");
	return true;
}

static bool test_generations(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 4096,
				.buffers_per_cpu = 1 };
	struct fdr_status st;
	uint32_t g0;

	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	g0 = st.generation;
	for (uint32_t k = 1; k <= 3; k++) {
		CHECK(tr_to_uninitialized(tr.ctl) == 0 &&
		      fdr_ctl_init(tr.ctl, &cfg) == 0, "cycle %u", k);
		CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.generation == g0 + k,
		      "generation %u after %u", st.generation, g0);
	}
	return true;
}

static bool test_bad_init(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 5000,
				.buffers_per_cpu = 1 };
	struct fdr_status st;

	CHECK(tr_to_uninitialized(tr.ctl) == 0, "uninit");
	CHECK(fdr_ctl_init(tr.ctl, &cfg) == -EINVAL, "not a page multiple");
	cfg.buffer_size = 4096;
	cfg.buffers_per_cpu = 0;
	CHECK(fdr_ctl_init(tr.ctl, &cfg) == -EINVAL, "no buffers");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 &&
	      st.state == FDR_STATE_UNINITIALIZED, "still UNINITIALIZED");
	return true;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool test_fdrctl(void)
{
	FILE *p;
	char line[2048] = "";

	CHECK(tr_to_uninitialized(tr.ctl) == 0, "uninit");
	CHECK(run("fdrctl init --buffer-size 16K --buffers-per-cpu 2") == 0, "init");
	CHECK(run("fdrctl init 2>/dev/null") == 1, "init twice: exit 1");
	p = popen("fdrctl status --json", "r");
	CHECK(p && fgets(line, sizeof(line), p), "status --json");
	pclose(p);
	CHECK(strstr(line, "\"state\":\"INITIALIZED\"") &&
	      strstr(line, "\"buffer_size\":16384") &&
	      strstr(line, "\"embedded\":false"), "json: %s", line);
	CHECK(run("fdrctl finalize") == 0 && run("fdrctl reset") == 0,
	      "finalize + reset");
	CHECK(run("fdrctl finalize 2>/dev/null") == 1, "finalize: wrong state");
	CHECK(run("fdrctl --target /dev/nonexistent status 2>/dev/null") == 3,
	      "missing device: exit 3");
	return true;
}

/* An unprivileged process is refused, and told what access it needs. */
static bool test_unprivileged(void)
{
	int pipefd[2], status;
	char msg[512] = "";
	ssize_t n;
	pid_t pid;

	CHECK(pipe(pipefd) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		struct fdr_ctl *c;
		const char *m;
		int ret;

		close(pipefd[0]);
		if (setgid(65534) || setuid(65534))
			_exit(2);
		ret = fdr_ctl_open(&c, FDR_DEFAULT_DEVICE);
		m = fdr_ctl_strerror(c, "open", ret);
		if (write(pipefd[1], m, strlen(m)) < 0)
			_exit(3);
		_exit(ret == -EACCES || ret == -EPERM ? 0 : 1);
	}
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg) - 1);
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	msg[n > 0 ? n : 0] = 0;
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "refused with EACCES/EPERM (status %d): %s", status, msg);
	CHECK(strstr(msg, "/dev/fdr: permission denied") && strstr(msg, "mode 0") &&
	      strstr(msg, "group"), "message: %s", msg);
	return true;
}

/* A named session through libfdr: create, attach by target, list, refusals. */
static bool test_sessions(void)
{
	struct fdr_session_info info;
	struct fdr_ctl *owner, *other;
	struct fdr_status st;
	const char *m;
	int ret;

	CHECK(fdr_ctl_open(&owner, FDR_DEFAULT_DEVICE) == 0, "open");
	CHECK(fdr_ctl_session_create(owner, "lib-s1", 0, 0) == 0, "create");
	CHECK(fdr_ctl_init(owner, &(struct fdr_init){ .size = 24,
			   .buffer_size = 4096, .buffers_per_cpu = 1 }) == 0,
	      "init the session");
	CHECK(fdr_ctl_open(&other, FDR_DEFAULT_DEVICE ":lib-s1") == 0,
	      "attach by target");
	CHECK(fdr_ctl_status(other, &st) == 0 && st.state == FDR_STATE_INITIALIZED &&
	      st.buffer_size == 4096, "the attached handle sees the session");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffer_size != 4096,
	      "the default session is another recorder");
	CHECK(fdr_ctl_session_info(other, 0, &info) == 0 &&
	      !strcmp(info.name, "lib-s1") && info.role == FDR_ROLE_OWNER &&
	      info.state == FDR_STATE_INITIALIZED, "listed");
	ret = fdr_ctl_session_create(other, "lib-s2", 0, 0);
	m = fdr_ctl_strerror(other, "session create", ret);
	CHECK(ret == -EBUSY && strstr(m, "bound to a session already"), "%s", m);
	fdr_ctl_close(other);
	ret = fdr_ctl_open(&other, FDR_DEFAULT_DEVICE);
	CHECK(ret == 0, "open");
	ret = fdr_ctl_session_create(other, "lib-s1", 0, 0);
	m = fdr_ctl_strerror(other, "session create", ret);
	CHECK(ret == -EEXIST && strstr(m, "you have a session of that name"),
	      "%s", m);
	fdr_ctl_close(other);
	/* (Other users: selftests/fdr_session_test.c, fdr_hostile_test.c.) */
	ret = fdr_ctl_open(&other, FDR_DEFAULT_DEVICE ":lib-none");
	m = fdr_ctl_strerror(other, "open", ret);
	CHECK(ret == -ENOENT && strstr(m, "no session named lib-none") &&
	      strstr(m, "fdrctl list"), "no such session: %s", m);
	fdr_ctl_close(other);
	/* Names are per owner: root's by its uid, nobody else's. */
	CHECK(fdr_ctl_open(&other, FDR_DEFAULT_DEVICE ":lib-s1@0") == 0,
	      "attach naming the owner");
	fdr_ctl_close(other);
	ret = fdr_ctl_open(&other, FDR_DEFAULT_DEVICE ":lib-s1@1000");
	m = fdr_ctl_strerror(other, "open", ret);
	CHECK(ret == -ENOENT && strstr(m, "uid 1000 has no session named lib-s1"),
	      "another owner's name: %s", m);
	fdr_ctl_close(other);
	/* Revoking writers: the owner's, on a session only. */
	CHECK(fdr_ctl_session_revoke(owner) == 0, "revoke (no writers)");
	CHECK(fdr_ctl_session_revoke(tr.ctl) == -EINVAL,
	      "no revoke on the default session");
	fdr_ctl_close(owner);
	ret = fdr_ctl_open(&other, FDR_DEFAULT_DEVICE ":lib-s1");
	CHECK(ret == -ENOENT, "gone with its last handle");
	fdr_ctl_close(other);
	return true;
}

int main(void)
{
	tap_plan(NTESTS);
	if (access(FDR_DEFAULT_DEVICE, F_OK)) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("no /dev/fdr", "device control %d", i + 1);
		return 0;
	}
	if (tr_open_device(&tr, 8192, 2)) {
		for (int i = 0; i < NTESTS; i++)
			tap_ok(false, "device control %d: cannot init /dev/fdr", i + 1);
		return 1;
	}
	tap_ok(test_layout(), "device region layout through fdr_ctl_map");
	tap_ok(test_transitions(), "device transitions and errnos via libfdr");
	tr_to_uninitialized(tr.ctl);
	fdr_ctl_init(tr.ctl, &(struct fdr_init){ .size = 24, .buffer_size = 4096,
		     .buffers_per_cpu = 1 });
	tap_ok(test_wait(), "fdr_ctl_wait wakes on finalize (poll)");
	tap_ok(test_generations(), "generations count across re-init");
	tap_ok(test_bad_init(), "bad init refused by the kernel");
	if (access("/bin/fdrctl", X_OK))
		tap_skip("no /bin/fdrctl", "fdrctl on the device");
	else
		tap_ok(test_fdrctl(), "fdrctl on the device: commands and exit codes");
	tap_ok(test_unprivileged(), "an unprivileged user is refused with a message naming mode and group");
	tap_ok(test_sessions(), "named sessions: create, attach by DEVICE:NAME, list, refusals named");
	tr_destroy(&tr);
	return tap_done();
}
