// SPDX-License-Identifier: MIT
/*
 * scribble.c - hostile userspace (issue 6, "scribble"): a process maps a
 * live region writable and overwrites descriptors, control fields or
 * committed data with garbage (scribble_cases.c).  Then the writer that
 * held buffers is SIGKILLed (the kernel's reclaim reads the scribbled
 * descriptors), the region is finalized, and fdrd --once flushes.
 *
 * Must hold: fdrd neither crashes nor hangs; any log it writes passes
 * fdrlog verify, llvm-xray's verify (host) and our scan; where only
 * extents, placement or data were hit, it still writes the valid part;
 * on the device, where only the control page's copies of the state,
 * generation, flags, TSC rate or finalize trigger were hit, it writes
 * every pair with the kernel's facts (fdrd lays out from STATUS); the
 * target still answers STATUS and takes a new INIT.  In the VM the
 * runner also fails on any kernel warning or oops.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "log_judge.h"
#include "log_scan.h"
#include "pattern.h"
#include "region_setup.h"
#include "scribble_cases.h"
#include "scribble_expect.h"
#include "tap.h"

#define WRITER_THREADS	4
#define PAIRS		500
#define TIMEOUT_S	30

struct env {
	struct tools tools;
	char target[256], dir[256];
	bool device;
	struct judge_stats js;
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static bool wait_exit(pid_t pid, int timeout_s, int *status)
{
	for (int i = 0; i < timeout_s * 100; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		sleep_ms(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return false;
}

static pthread_barrier_t recorded;
static int fdrd_status;

static void *writer_thread(void *arg)
{
	uint32_t uid = 1 + (uint32_t)(uintptr_t)arg;

	for (uint64_t k = 0; k < PAIRS; k++) {
		fdr_enter_arg((int32_t)pattern_outer(uid, k), pattern_arg(uid, k));
		fdr_exit((int32_t)pattern_outer(uid, k));
	}
	pthread_barrier_wait(&recorded);
	for (;;)
		pause();	/* hold the buffer until SIGKILL */
	return NULL;
}

/* Record, say so on ready_fd, then hold the buffers until killed. */
static void __attribute__((noreturn)) writer(const char *target, int ready_fd)
{
	pthread_t t;

	if (fdr_attach(target) < 0)
		_exit(3);
	pthread_barrier_init(&recorded, NULL, WRITER_THREADS + 1);
	for (uintptr_t i = 0; i < WRITER_THREADS; i++)
		pthread_create(&t, NULL, writer_thread, (void *)i);
	pthread_barrier_wait(&recorded);
	(void)!write(ready_fd, "r", 1);
	for (;;)
		pause();
}

/* Map the region writable, as any member of the device's group can. */
static int map_rw(const struct env *e, const struct fdr_status *st,
		  struct scribble_map *m)
{
	char shm[300];
	int fd;

	if (e->device) {
		fd = open(e->target, O_RDWR | O_CLOEXEC);
	} else {
		snprintf(shm, sizeof(shm), "/fdr-%s", e->target + strlen(FDR_EMBEDDED_PREFIX));
		fd = shm_open(shm, O_RDWR | O_CLOEXEC, 0);
	}
	if (fd < 0)
		return -errno;
	m->len = st->map_size;
	m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m->base == MAP_FAILED)
		return -errno;
	m->control_size = st->control_size;
	m->buffer_size = st->buffer_size;
	m->nr_buffers = st->nr_buffers;
	m->nr_cpus = st->nr_cpus;
	m->descs_offset = ((struct fdr_control *)m->base)->descs_offset;
	m->rings_offset = ((struct fdr_control *)m->base)->rings_offset;
	m->generation = st->generation;
	m->flags = st->flags;
	return 0;
}

/* A separate process does the damage: its exit is one more release the
 * kernel sees with scribbled pages. */
static bool scribble(const struct env *e, const struct scribble_case *c,
		     const struct fdr_status *st, unsigned seed)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct scribble_map m;

		if (map_rw(e, st, &m) < 0)
			_exit(1);
		c->apply(&m, &seed);
		_exit(0);
	}
	return wait_exit(pid, TIMEOUT_S, &status) && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* Finalize in a child: the embedded controller reads the scribbled
 * control area, and a crash there must be seen, not suffered. */
static int finalize_in_child(const char *target)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct fdr_ctl *ctl;
		int ret = fdr_ctl_open(&ctl, target);

		if (ret == 0)
			ret = fdr_ctl_finalize(ctl);
		_exit(ret == 0 || ret == -EBUSY ? 0 : 1);
	}
	if (!wait_exit(pid, TIMEOUT_S, &status))
		return -1;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/*
 * Finalize and fdrd after the damage.  The kernel keeps its own state, so
 * on the device both must work.  The embedded region's header is the
 * only copy of its state: there a scribbled header may make the
 * controller refuse (exit 1) and fdrd wait forever - but never crash.
 */
static void fdrd_outcome(const struct env *e, const struct scribble_case *c,
			 int fin, pid_t fdrd)
{
	bool lenient = !e->device && c->control;
	bool exited = wait_exit(fdrd, lenient ? 5 : TIMEOUT_S, &fdrd_status);
	bool crashed = exited && WIFSIGNALED(fdrd_status);

	tap_ok(fin == 0 || (lenient && fin == 1),
	       "scribble %s: finalize after the writer's SIGKILL %s (status %d)",
	       c->name, lenient ? "works or is refused" : "works", fin);
	tap_ok(!crashed && (exited || lenient) &&
	       (!exited || WEXITSTATUS(fdrd_status) <= 1),
	       "scribble %s: fdrd --once neither crashes nor hangs (%s %d)", c->name,
	       !exited ? "still waiting" : crashed ? "signal" : "exit",
	       crashed ? WTERMSIG(fdrd_status) : exited ? WEXITSTATUS(fdrd_status) : 0);
}

/* Function records that no writer made (the writers' ids are
 * pattern_outer(1..WRITER_THREADS, 0..PAIRS-1)). */
static size_t foreign_records(const char *log)
{
	struct scan_log scan;
	size_t n = 0;

	if (scan_log_file(log, &scan) != 0)
		return 0;	/* judged elsewhere */
	for (size_t i = 0; i < scan.nr_ev; i++) {
		const struct scan_event *ev = &scan.ev[i];
		uint32_t uid = ev->has_arg ? (uint32_t)(ev->arg >> 32) : 0;
		bool mine = false;

		for (uint32_t u = 1; u <= WRITER_THREADS && !mine; u++)
			for (uint64_t k = 0; k < PAIRS && !mine; k++)
				mine = ev->fid == pattern_outer(u, k) &&
				       (!ev->has_arg || uid == u);
		n += !mine;
	}
	scan_log_free(&scan);
	return n;
}

/* fdrd's account of what it dropped: the side table's "buffers" line. */
static void say_dropped(const struct scribble_case *c, const char *log)
{
	char path[600], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s.threads", log);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "buffers\t", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (char *p = line; *p; p++)
			*p = *p == '\t' ? ' ' : *p;
		tap_diag("scribble %s: fdrd's side table: %s", c->name, line);
	}
	if (f)
		fclose(f);
}

/*
 * Extents past the data make fdrd clamp to the buffer size: the tail the
 * writer never wrote is zeros, which would parse as Enter(fid 0) records;
 * fdrd must cut the buffer where the zeros start.
 */
static void check_no_phantoms(const struct scribble_case *c, const char *log)
{
	size_t n = foreign_records(log);

	tap_ok(n == 0, "scribble %s: the log holds only records the writers made (%zu others)",
	       c->name, n);
}

/* fdrd's last message: why it wrote no log. */
static void say_why(const struct scribble_case *c, const char *errfile)
{
	char line[512], last[512] = "";
	FILE *f = fopen(errfile, "r");

	while (f && fgets(line, sizeof(line), f))
		snprintf(last, sizeof(last), "%s", line);
	if (f)
		fclose(f);
	last[strcspn(last, "\n")] = '\0';
	tap_diag("scribble %s: fdrd wrote no log: %s", c->name, last);
}

/*
 * On the device, after a case that hit only the control page's copies of
 * what the kernel keeps for itself: the log has every pair (unless the
 * ring already recycled or dropped some before the damage, as held says)
 * and the kernel's TSC rate, flags, generation and finalize trigger.
 */
static void check_kernel_facts(const struct scribble_case *c, const char *log,
			       const struct fdr_status *held,
			       const struct fdr_status *truth)
{
	size_t all = (size_t)WRITER_THREADS * PAIRS;
	size_t missing = expect_missing_pairs(log, WRITER_THREADS, PAIRS);
	char why[256];

	if (!held->buffers_recycled && !held->records_dropped)
		tap_ok(missing == 0, "scribble %s: on the device the log holds every pair "
		       "the writers made (%zu of %zu missing)", c->name, missing, all);
	else
		tap_ok(missing < all, "scribble %s: on the device the log holds the writers' "
		       "pairs (%zu of %zu missing; the ring recycled %llu buffers and "
		       "dropped %llu records before the damage)", c->name, missing, all,
		       (unsigned long long)held->buffers_recycled,
		       (unsigned long long)held->records_dropped);
	tap_ok(expect_header(log, truth, why, sizeof(why)),
	       "scribble %s: the header has the kernel's TSC rate and flags (%s)",
	       c->name, why);
	tap_ok(expect_side_table(log, truth, why, sizeof(why)),
	       "scribble %s: the side table has the kernel's generation and finalize "
	       "trigger (%s)", c->name, why);
}

/*
 * What fdrd left.  strict (the device, a case of only the kernel's own
 * facts): held and truth are STATUS while the writers held their buffers
 * and after the finalize, and a log must be there.
 */
static void judge_case(struct env *e, const struct scribble_case *c,
		       const char *log, const char *errfile, bool strict,
		       const struct fdr_status *held, const struct fdr_status *truth)
{
	bool want = c->want_log || strict;

	if (access(log, F_OK) == 0) {
		tap_ok(judge_log_format(&e->tools, log, NULL, &e->js),
		       "scribble %s: fdrd's log passes %s", c->name,
		       judge_describe(&e->tools));
		say_dropped(c, log);
		if (want && c->apply != scribble_data_random)
			check_no_phantoms(c, log);
		if (strict)
			check_kernel_facts(c, log, held, truth);
		return;
	}
	say_why(c, errfile);
	if (want)
		tap_ok(false, "scribble %s: fdrd writes %s", c->name,
		       strict ? "the log from the kernel's STATUS" : "the valid part");
}

static void remove_outputs(const char *log, const char *errfile)
{
	char threads[600];

	snprintf(threads, sizeof(threads), "%s.threads", log);
	unlink(errfile);
	unlink(log);
	unlink(threads);
}

static void run_case(struct env *e, const struct scribble_case *c, unsigned idx)
{
	char pattern[64], log[512], errfile[512];
	char *argv[] = { e->tools.fdrd, "--foreground", "--once", "--target", e->target,
			 "--output-dir", e->dir, "--pattern", pattern,
			 "--grace-ms", "20", NULL };
	struct fdr_status st = { .size = sizeof(st) }, held = st, truth = st;
	bool strict = e->device && c->device_log;
	struct fdr_ctl *ctl;
	int fds[2], fin;
	pid_t w, fdrd = -1;
	char r;

	snprintf(pattern, sizeof(pattern), "scribble-%u.xray", idx);
	snprintf(log, sizeof(log), "%s/%s", e->dir, pattern);
	if (region_fresh(&ctl, e->target, 16384, 4, 0) < 0 ||
	    fdr_ctl_status(ctl, &st) < 0 || pipe(fds) < 0) {
		tap_ok(false, "scribble %s: set up %s", c->name, e->target);
		return;
	}
	fflush(stdout);
	w = fork();
	if (w == 0)
		writer(e->target, fds[1]);
	close(fds[1]);
	if (read(fds[0], &r, 1) != 1)
		tap_diag("scribble %s: the writer did not start", c->name);
	close(fds[0]);
	/* STATUS of the device only: the embedded one reads the damage */
	if (strict)
		fdr_ctl_status(ctl, &held);
	snprintf(errfile, sizeof(errfile), "%s/fdrd-%u.err", e->dir, idx);
	if (!c->after_finalize)
		fdrd = tools_spawn(argv, errfile);
	tap_ok(scribble(e, c, &st, 1234 + idx), "scribble %s: a process maps the region writable and scribbles",
	       c->name);
	kill(w, SIGKILL);
	waitpid(w, NULL, 0);
	fin = finalize_in_child(e->target);
	if (strict)
		fdr_ctl_status(ctl, &truth);
	if (c->after_finalize) {
		tap_ok(scribble(e, c, &st, 4321 + idx),
		       "scribble %s: and again after the finalize, before fdrd starts", c->name);
		fdrd = tools_spawn(argv, errfile);
	}
	fdrd_outcome(e, c, fin, fdrd);
	judge_case(e, c, log, errfile, strict, &held, &truth);
	remove_outputs(log, errfile);
	fdr_ctl_close(ctl);
	/* The target must still work: a fresh INIT and STATUS. */
	tap_ok(region_fresh(&ctl, e->target, 16384, 4, 0) == 0 &&
	       fdr_ctl_status(ctl, &st) == 0 && st.state == FDR_STATE_INITIALIZED,
	       "scribble %s: the target takes a new INIT afterwards", c->name);
	region_teardown(ctl, e->target);
}

int main(void)
{
	static struct env e;

	tools_find(&e.tools);
	e.device = getenv("FDR_VM") && access("/dev/fdr", F_OK) == 0;
	if (e.device)
		snprintf(e.target, sizeof(e.target), "/dev/fdr");
	else
		snprintf(e.target, sizeof(e.target), "embedded:rel-scribble-%d", (int)getpid());
	snprintf(e.dir, sizeof(e.dir), "%s/rel-scribble.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!e.tools.fdrd[0] || !mkdtemp(e.dir)) {
		tap_skip("fdrd not found (set FDRD)", "scribble");
		return tap_done();
	}
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	e.js.diag_left = 30;
	/* REL_SCRIBBLE_CASE=N runs case N alone, for debugging */
	for (unsigned i = 0; i < scribble_nr_cases; i++)
		if (!getenv("REL_SCRIBBLE_CASE") ||
		    (unsigned)atoi(getenv("REL_SCRIBBLE_CASE")) == i)
			run_case(&e, &scribble_cases[i], i);
	rmdir(e.dir);
	return tap_done();
}
