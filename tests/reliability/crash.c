// SPDX-License-Identifier: MIT
/*
 * crash.c - a writer dies inside an instrumented function; the trace of
 * its last moments must reach the log (issue 6, "crash").
 *
 * The child records complete pairs (pattern.h) on its main thread and on
 * two helper threads, then enters CRASH_FID and dies there: SIGSEGV,
 * abort(), or SIGKILL from outside.  fdrd --once waits for the finalize.
 *
 * On the device nobody calls finalize: the kernel finalizes when a writer
 * dies from a fatal signal, so the log must appear on its own, name the
 * crash (status and side table), and end the dead thread's stream with
 * Enter(CRASH_FID).  With FDR_INIT_NO_CRASH_FINALIZE the region stays
 * INITIALIZED.  The embedded backend has no kernel: the region stays
 * INITIALIZED after a crash until `fdrctl finalize` (tested, documented),
 * and then the log holds the same records.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "log_check.h"
#include "log_judge.h"
#include "log_scan.h"
#include "pattern.h"
#include "region_setup.h"
#include "tap.h"

#define CRASH_FID	0x0C0FFEE
#define MAIN_UID	1
#define HELPER_UID	100	/* helpers: HELPER_UID + i */
#define NR_HELPERS	2
#define PAIRS		300
#define LOG_TIMEOUT_S	30

/* DIE_CYG: crash_cyg.c, a -finstrument-functions program, segfaults. */
enum death { DIE_SEGV, DIE_ABORT, DIE_KILL, DIE_CYG };

struct crash_case {
	const char *name;
	enum death death;
	int signal;
	uint32_t init_flags;
};

static const struct crash_case cases[] = {
	{ "SIGSEGV", DIE_SEGV, SIGSEGV, 0 },
	{ "abort()", DIE_ABORT, SIGABRT, 0 },
	{ "SIGKILL from outside", DIE_KILL, SIGKILL, 0 },
	{ "SIGSEGV, INIT with NO_CRASH_FINALIZE", DIE_SEGV, SIGSEGV,
	  FDR_INIT_NO_CRASH_FINALIZE },
	{ "SIGSEGV in a gcc -finstrument-functions program", DIE_CYG, SIGSEGV, 0 },
};

#define CYG_LEAF_CALLS	200	/* crash_cyg.c */

struct env {
	struct tools tools;
	char crash_cyg[512];	/* "" if not found */
	char target[256];
	char dir[256];
	bool device;
	struct judge_stats js;
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void record_pairs(uint32_t uid, unsigned n)
{
	for (uint64_t k = 0; k < n; k++) {
		fdr_enter_arg((int32_t)pattern_outer(uid, k), pattern_arg(uid, k));
		if (pattern_has_inner(k)) {
			fdr_enter((int32_t)pattern_inner(uid, k));
			fdr_exit((int32_t)pattern_inner(uid, k));
		}
		fdr_exit((int32_t)pattern_outer(uid, k));
	}
}

static pthread_barrier_t helpers_done;

/* A helper records, then sits holding its buffer until the process dies. */
static void *helper(void *arg)
{
	record_pairs(HELPER_UID + (uint32_t)(uintptr_t)arg, PAIRS);
	pthread_barrier_wait(&helpers_done);
	for (;;)
		pause();
	return NULL;
}

/* A PROT_NONE page: a real SIGSEGV, and no undefined behaviour for
 * UBSan to object to (a NULL store would be). */
static int *crash_pointer;

/* The instrumented function the process dies in. */
static __attribute__((noinline)) void dies_here(enum death d, int ready_fd)
{
	fdr_enter(CRASH_FID);
	switch (d) {
	case DIE_SEGV:
		*crash_pointer = 1;
		break;
	case DIE_ABORT:
		abort();
	case DIE_KILL:
		(void)!write(ready_fd, "r", 1);
		for (;;)
			pause();
	case DIE_CYG:	/* crash_cyg.c dies on its own */
		break;
	}
	fdr_exit(CRASH_FID);
}

static void __attribute__((noreturn)) child(const char *target, enum death d,
					    int ready_fd)
{
	struct rlimit no_core = { 0, 0 };
	pthread_t t[NR_HELPERS];

	setrlimit(RLIMIT_CORE, &no_core);
	crash_pointer = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fdr_attach(target) < 0)
		_exit(3);
	pthread_barrier_init(&helpers_done, NULL, NR_HELPERS + 1);
	for (uintptr_t i = 0; i < NR_HELPERS; i++)
		pthread_create(&t[i], NULL, helper, (void *)i);
	record_pairs(MAIN_UID, PAIRS);
	pthread_barrier_wait(&helpers_done);
	dies_here(d, ready_fd);
	_exit(0);
}

/* exec the instrumented program; its hooks attach to $FDR_TARGET. */
static void __attribute__((noreturn)) cyg_child(const struct env *e)
{
	struct rlimit no_core = { 0, 0 };

	setrlimit(RLIMIT_CORE, &no_core);
	setenv("FDR_TARGET", e->target, 1);
	setenv("FDR_SYMDIR", e->dir, 1);
	execl(e->crash_cyg, e->crash_cyg, (char *)NULL);
	_exit(127);
}

/* The last function record of tid's stream, and its complete pairs. */
static bool last_record_of(const struct scan_log *log, int32_t tid,
			   struct scan_event *last, size_t *n)
{
	*n = 0;
	for (size_t b = 0; b < log->nr_buf; b++) {
		const struct scan_buffer *buf = &log->buf[b];

		if (buf->tid != tid || !buf->count)
			continue;
		*last = log->ev[buf->first + buf->count - 1];
		*n += buf->count;
	}
	return *n > 0;
}

/* Complete pairs of uid in the pattern check's runs. */
static uint64_t complete_pairs(const struct check_result *r, uint32_t uid)
{
	for (size_t i = 0; i < r->nr_runs; i++)
		if (r->runs[i].uid == uid)
			return r->runs[i].pairs;
	return 0;
}

/* Take the dead thread's final Enter off, so the rest is pure pattern. */
static void drop_last_record(struct scan_log *log, int32_t tid)
{
	for (size_t b = log->nr_buf; b-- > 0;)
		if (log->buf[b].tid == tid && log->buf[b].count) {
			log->buf[b].count--;
			return;
		}
}

/* fid -> symbol from the hooks' sym-map "fid<TAB>symbol<TAB>...". */
static bool sym_of(const char *map, uint32_t fid, char *sym, size_t len)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen(map, "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');

		if (line[0] == '#' || !tab || strtoul(line, NULL, 10) != fid)
			continue;
		tab++;
		tab[strcspn(tab, "\t\n")] = '\0';
		snprintf(sym, len, "%s", tab);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/* The cyg program's log: ends in Enter(crashes_here), all leaf calls. */
static void check_cyg_log(struct env *e, const struct crash_case *c,
			  const char *log, pid_t pid)
{
	char map[600], sym[256] = "?";
	struct scan_log scan;
	struct scan_event last = { 0 };
	unsigned leaf_enter = 0, leaf_exit = 0;
	size_t n;

	tap_ok(judge_log_format(&e->tools, log, NULL, &e->js),
	       "crash %s: log passes %s", c->name, judge_describe(&e->tools));
	if (scan_log_file(log, &scan) != 0) {
		tap_ok(false, "crash %s: log readable", c->name);
		return;
	}
	snprintf(map, sizeof(map), "%s/fdr-syms.%d.map", e->dir, pid);
	if (last_record_of(&scan, pid, &last, &n))
		sym_of(map, last.fid, sym, sizeof(sym));
	tap_ok(last.kind == FDR_FN_ENTER && !strcmp(sym, "crashes_here"),
	       "crash %s: the last record is the Enter of %s (want crashes_here, per the sym-map)",
	       c->name, sym);
	for (size_t i = 0; i < scan.nr_ev; i++) {
		char s2[256];

		if (!sym_of(map, scan.ev[i].fid, s2, sizeof(s2)) || strcmp(s2, "leaf"))
			continue;
		leaf_enter += scan.ev[i].kind == FDR_FN_ENTER;
		leaf_exit += scan.ev[i].kind == FDR_FN_EXIT;
	}
	tap_ok(leaf_enter == CYG_LEAF_CALLS && leaf_exit == CYG_LEAF_CALLS,
	       "crash %s: all %d calls of leaf() before the crash (%u enters, %u exits)",
	       c->name, CYG_LEAF_CALLS, leaf_enter, leaf_exit);
	unlink(map);
	scan_log_free(&scan);
}

static bool wait_exit(pid_t pid, int timeout_s, int *status)
{
	for (int i = 0; i < timeout_s * 100; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		sleep_ms(10);
	}
	return false;
}

static bool side_table_says(const char *log, const char *prefix)
{
	char path[600], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s.threads", log);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	return found;
}

/* The log's content: the dead thread ends in Enter(CRASH_FID), every
 * pair of every thread is there. */
static void check_log(struct env *e, const struct crash_case *c,
		      const char *log, pid_t pid)
{
	struct scan_log scan;
	struct scan_event last = { 0 };
	struct check_result r = { 0 };
	size_t n;
	bool ok;

	tap_ok(judge_log_format(&e->tools, log, NULL, &e->js),
	       "crash %s: log passes %s", c->name, judge_describe(&e->tools));
	if (scan_log_file(log, &scan) != 0) {
		tap_ok(false, "crash %s: log readable", c->name);
		return;
	}
	ok = last_record_of(&scan, pid, &last, &n) && last.kind == FDR_FN_ENTER &&
	     last.fid == CRASH_FID;
	if (!tap_ok(ok, "crash %s: the dead thread's last record is Enter(%#x)",
		    c->name, CRASH_FID))
		tap_diag("tid %d: %zu records, last kind %u fid %#x", pid, n,
			 last.kind, last.fid);
	drop_last_record(&scan, pid);
	check_pattern(&scan, false, &r);
	ok = r.failures == 0 && complete_pairs(&r, MAIN_UID) == PAIRS;
	for (uint32_t i = 0; i < NR_HELPERS; i++)
		ok &= complete_pairs(&r, HELPER_UID + i) == PAIRS;
	if (!tap_ok(ok, "crash %s: all %u pairs of the main thread and of %d helpers that still held their buffers, nothing else",
		    c->name, PAIRS, NR_HELPERS))
		tap_diag("%llu pattern failures: %s", (unsigned long long)r.failures,
			 r.first_failure);
	check_result_free(&r);
	scan_log_free(&scan);
}

static void status_now(struct fdr_ctl *ctl, struct fdr_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	fdr_ctl_status(ctl, st);
}

/* Device: the crash alone must finalize (or not, with the flag). */
static void expect_finalize(struct env *e, const struct crash_case *c,
			    struct fdr_ctl *ctl, pid_t pid)
{
	bool auto_fin = e->device && !(c->init_flags & FDR_INIT_NO_CRASH_FINALIZE);
	struct fdr_status st;

	for (int i = 0; auto_fin && i < LOG_TIMEOUT_S * 100; i++) {
		status_now(ctl, &st);
		if (st.state == FDR_STATE_FINALIZED)
			break;
		sleep_ms(10);
	}
	sleep_ms(auto_fin ? 0 : 300);
	status_now(ctl, &st);
	if (auto_fin) {
		tap_ok(st.state == FDR_STATE_FINALIZED &&
		       st.finalize_reason == FDR_FINALIZE_CRASH &&
		       st.finalize_signal == (uint32_t)c->signal &&
		       st.finalize_pid == pid,
		       "crash %s: the kernel finalized (reason %u signal %u pid %d, want crash %d %d)",
		       c->name, st.finalize_reason, st.finalize_signal,
		       st.finalize_pid, c->signal, pid);
	} else {
		tap_ok(st.state == FDR_STATE_INITIALIZED,
		       "crash %s: %s stays INITIALIZED (state %s); finalize by hand",
		       c->name, e->device ? "the flag keeps the region" :
		       "no kernel: the embedded region", fdr_state_name(st.state));
		fdr_ctl_finalize(ctl);
	}
	status_now(ctl, &st);
	tap_ok(st.buffers_reclaimed >= (c->death == DIE_CYG ? 1 : NR_HELPERS + 1) &&
	       st.buffers_in_use == 0,
	       "crash %s: the dead process's buffers reclaimed (%llu reclaimed, %u still held)",
	       c->name, (unsigned long long)st.buffers_reclaimed, st.buffers_in_use);
}

static void run_case(struct env *e, const struct crash_case *c, unsigned idx)
{
	char log[512], pattern[64];
	char *argv[] = { e->tools.fdrd, "--foreground", "--once", "--target", e->target,
			 "--output-dir", e->dir, "--pattern", pattern,
			 "--grace-ms", "50", NULL };
	struct fdr_ctl *ctl;
	int fds[2], status;
	pid_t pid, fdrd;
	char r;

	snprintf(pattern, sizeof(pattern), "crash-%u.xray", idx);
	snprintf(log, sizeof(log), "%s/%s", e->dir, pattern);
	if (region_fresh(&ctl, e->target, 16384, 8, c->init_flags) < 0 ||
	    pipe(fds) < 0) {
		tap_ok(false, "crash %s: set up %s", c->name, e->target);
		return;
	}
	fdrd = tools_spawn(argv, NULL);
	fflush(stdout);
	pid = fork();
	if (pid == 0 && c->death == DIE_CYG)
		cyg_child(e);
	if (pid == 0)
		child(e->target, c->death, fds[1]);
	close(fds[1]);
	if (c->death == DIE_KILL && read(fds[0], &r, 1) == 1)
		kill(pid, SIGKILL);
	close(fds[0]);
	tap_ok(wait_exit(pid, LOG_TIMEOUT_S, &status) && WIFSIGNALED(status) &&
	       WTERMSIG(status) == c->signal,
	       "crash %s: the writer died from signal %d", c->name, c->signal);
	expect_finalize(e, c, ctl, pid);
	tap_ok(wait_exit(fdrd, LOG_TIMEOUT_S, &status) && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0 && access(log, F_OK) == 0,
	       "crash %s: fdrd --once wrote %s", c->name, pattern);
	if (access(log, F_OK) == 0) {
		if (c->death == DIE_CYG)
			check_cyg_log(e, c, log, pid);
		else
			check_log(e, c, log, pid);
		if (e->device && !c->init_flags)
			tap_ok(side_table_says(log, "finalize\tcrash\tsignal\t"),
			       "crash %s: the side table names the crash", c->name);
		unlink(log);
		snprintf(log + strlen(log), sizeof(log) - strlen(log), ".threads");
		unlink(log);
	}
	kill(fdrd, SIGKILL);
	waitpid(fdrd, NULL, 0);
	region_teardown(ctl, e->target);
}

int main(void)
{
	static struct env e;
	unsigned n = sizeof(cases) / sizeof(cases[0]);

	tools_find(&e.tools);
	snprintf(e.crash_cyg, sizeof(e.crash_cyg), "%s",
		 getenv("CRASH_CYG") ? getenv("CRASH_CYG") : "/reliability/bin/crash_cyg");
	if (access(e.crash_cyg, X_OK))
		e.crash_cyg[0] = '\0';
	e.device = getenv("FDR_VM") && access("/dev/fdr", F_OK) == 0;
	if (e.device)
		snprintf(e.target, sizeof(e.target), "/dev/fdr");
	else
		snprintf(e.target, sizeof(e.target), "embedded:rel-crash-%d", (int)getpid());
	snprintf(e.dir, sizeof(e.dir), "%s/rel-crash.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!e.tools.fdrd[0] || !mkdtemp(e.dir)) {
		tap_skip("fdrd not found (set FDRD)", "crash");
		return tap_done();
	}
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	e.js.diag_left = 20;
	for (unsigned i = 0; i < n; i++) {
		/* the flag only means something to the kernel */
		if (!e.device && cases[i].init_flags)
			continue;
		if (cases[i].death == DIE_CYG && !e.crash_cyg[0]) {
			tap_skip("crash_cyg not found (set CRASH_CYG)", "crash %s", cases[i].name);
			continue;
		}
		run_case(&e, &cases[i], i);
	}
	rmdir(e.dir);
	return tap_done();
}
