// SPDX-License-Identifier: MIT
/*
 * device_record.c - recording through /dev/fdr, in the VM: the record
 * bytes in kernel buffers, ring overwrite, finalize, the kernel's reclaim
 * of a dead writer, crash finalize, and writers following re-inits.
 * SKIPs without /dev/fdr.
 */
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"

#define NTESTS 11

static struct test_region tr;
static struct rec recs[8192];
static char err[256];

static bool start(uint64_t size, uint32_t bpc)
{
	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(tr_open_device(&tr, size, bpc) == 0, "init /dev/fdr");
	CHECK(fdr_attach(tr.target) == 0, "attach");
	CHECK(tr_map(&tr) == 0, "map");
	return true;
}

static void stop(void)
{
	fdr_detach();
	tr_destroy(&tr);
}

static int parse(uint32_t i)
{
	return parse_buffer(tr_buffer(&tr, i), tr_desc(&tr, i)->extents, recs,
			    8192, err, sizeof(err));
}

static bool test_pair(void)
{
	uint32_t idx[4];
	int n;

	if (!start(8192, 2))
		return false;
	tr_pin_cpu(0);
	fdr_enter(1);
	fdr_exit(1);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "one buffer");
	CHECK(tr_desc(&tr, idx[0])->extents == 64, "extents 64");
	CHECK(tr_desc(&tr, idx[0])->owner_pid == getpid(), "owner pid");
	n = parse(idx[0]);
	CHECK(n == 5, "5 records: %s", err);
	CHECK(recs[0].tid == (int32_t)syscall(SYS_gettid), "tid");
	CHECK(recs[2].type == REC_NEW_CPU && recs[2].cpu == 0, "cpu 0");
	CHECK(recs[3].type == REC_FN && recs[3].fn_kind == FDR_FN_ENTER &&
	      recs[3].fid == 1 && recs[3].delta == 0, "enter");
	CHECK(recs[4].type == REC_FN && recs[4].fn_kind == FDR_FN_EXIT &&
	      recs[4].fid == 1, "exit");
	stop();
	return true;
}

static bool test_ring(void)
{
	struct fdr_status st;
	uint32_t idx[64];
	int per = (4096 - 48) / 16, nb;

	if (!start(4096, 3))
		return false;
	tr_pin_cpu(0);
	for (int i = 1; i <= per * 8; i++) {
		fdr_enter(i);
		fdr_exit(i);
	}
	fdr_thread_release();
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 &&
	      st.buffers_recycled == st.buffers_acquired - 3,
	      "recycled %llu of %llu", (unsigned long long)st.buffers_recycled,
	      (unsigned long long)st.buffers_acquired);
	nb = tr_buffers_by_seq(&tr, idx, 64);
	CHECK(nb == 3, "3 buffers kept: %d", nb);
	for (int b = 0; b < nb; b++) {
		CHECK(tr_desc(&tr, idx[b])->seq == st.buffers_acquired - 3 + (uint64_t)b,
		      "newest seqs");
		CHECK(parse(idx[b]) > 3, "parses: %s", err);
	}
	CHECK(recs[parse(idx[nb - 1]) - 1].fid == (uint32_t)per * 8,
	      "last record kept");
	stop();
	return true;
}

static bool test_finalize_stops(void)
{
	uint32_t idx[4];
	uint64_t ext;

	if (!start(8192, 2))
		return false;
	fdr_enter(1);
	CHECK(fdr_ctl_finalize(tr.ctl) == 0, "finalize");
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "one buffer");
	ext = tr_desc(&tr, idx[0])->extents;
	fdr_exit(1);
	fdr_enter(2);
	CHECK(tr_desc(&tr, idx[0])->extents == ext, "nothing after finalize");
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED, "released");
	stop();
	return true;
}

static bool child_records(int sig)
{
	struct fdr_status st;
	uint32_t idx[4];
	pid_t pid;
	int status;

	if (!start(8192, 2))
		return false;
	fdr_detach();
	pid = fork();
	if (pid == 0) {
		fdr_attach(tr.target);
		fdr_enter(7);
		fdr_exit(7);
		if (sig)
			raise(sig);
		_exit(0);	/* no destructor: the buffer is still HELD */
	}
	waitpid(pid, &status, 0);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1 &&
	      tr_desc(&tr, idx[0])->owner_pid == pid, "child's buffer");
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED &&
	      tr_desc(&tr, idx[0])->extents == 64, "reclaimed with its data");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_reclaimed == 1 &&
	      st.buffers_in_use == 0, "reclaimed %llu",
	      (unsigned long long)st.buffers_reclaimed);
	if (sig)
		CHECK(st.state == FDR_STATE_FINALIZED &&
		      st.finalize_reason == FDR_FINALIZE_CRASH &&
		      st.finalize_signal == (uint32_t)sig && st.finalize_pid == pid,
		      "crash finalize: state %u reason %u", st.state,
		      st.finalize_reason);
	else
		CHECK(st.state == FDR_STATE_INITIALIZED, "still recording");
	stop();
	return true;
}

/*
 * A writer that is pid 1 in a pid namespace of its own, and a child it
 * forks after attaching: each buffer's owner is the number the region
 * (made from our namespace) knows the writer by, never a clash with our
 * own pid 1, and the kernel reclaims both.
 */
static int ns_writer(void *arg)
{
	pid_t child;
	int status;

	(void)arg;
	if (getpid() != 1 || fdr_attach(tr.target) != 0)
		return 10;
	fdr_enter(3);
	fdr_exit(3);
	child = fork();
	if (child == 0) {
		fdr_enter(4);
		fdr_exit(4);
		_exit(0);	/* its buffer is still HELD */
	}
	if (child < 0 || waitpid(child, &status, 0) != child || status)
		return 11;
	_exit(0);
}

static bool test_pid_namespace(void)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	struct fdr_status st;
	uint32_t idx[4];
	int32_t a, b;
	int status;
	pid_t pid;

	if (!start(8192, 2))
		return false;
	fdr_detach();
	pid = clone(ns_writer, stack + sizeof(stack), CLONE_NEWPID | SIGCHLD,
		    NULL);
	CHECK(pid > 0, "clone(CLONE_NEWPID): %s", strerror(errno));
	CHECK(waitpid(pid, &status, 0) == pid && status == 0,
	      "writer in its own pid namespace: status %#x", status);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 2, "two buffers");
	a = tr_desc(&tr, idx[0])->owner_pid;
	b = tr_desc(&tr, idx[1])->owner_pid;
	CHECK(a == pid, "the writer's buffer: owner %d, its pid here %d", a,
	      pid);
	CHECK(b > 1 && b != pid && b != getpid(),
	      "its child's: owner %d, a pid of our namespace", b);
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED &&
	      tr_desc(&tr, idx[1])->state == FDR_BUF_RELEASED, "both reclaimed");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_reclaimed == 2,
	      "reclaimed %llu", (unsigned long long)st.buffers_reclaimed);
	stop();
	return true;
}

static bool test_follow_reinit(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 16384,
				.buffers_per_cpu = 1 };
	struct timespec nap = { 0, 150 * 1000 * 1000 };
	uint32_t idx[4];

	if (!start(8192, 2))
		return false;
	fdr_enter(1);
	CHECK(tr_to_uninitialized(tr.ctl) == 0 && fdr_ctl_init(tr.ctl, &cfg) == 0,
	      "finalize, reset, init");
	nanosleep(&nap, NULL);
	fdr_enter(2);
	fdr_exit(2);
	CHECK(tr_map(&tr) == 0 && tr.c->buffer_size == 16384, "new region");
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1 &&
	      tr_desc(&tr, idx[0])->extents == 64, "the writer remapped");
	stop();
	return true;
}

/*
 * The kernel makes a new region at every INIT.  A long-lived writer
 * follows 70 of them (past libfdr's 64-slot region ring), records in
 * each, and its writable mappings do not grow: the superseded regions
 * are retired, so their kernel memory is freed, not pinned by this
 * process.
 */
static bool test_many_reinits(void)
{
	bool ok;

	if (!start(8192, 1))
		return false;
	fdr_enter(1);	/* the writer maps the region */
	ok = tr_follow_reinits(&tr, 70);
	stop();
	return ok;
}

static bool test_migration(void)
{
	uint32_t idx[4];
	int n;

	if (!start(8192, 2))
		return false;
	tr_pin_cpu(0);
	fdr_enter(1);
	tr_pin_cpu(1);
	fdr_exit(1);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "the thread keeps its buffer");
	n = parse(idx[0]);
	CHECK(n == 6 && recs[2].cpu == 0 && recs[4].type == REC_NEW_CPU &&
	      recs[4].cpu == 1 && recs[5].type == REC_FN && recs[5].delta == 0,
	      "NewCPUId(1) before the exit: n %d %s", n, err);
	stop();
	return true;
}

static bool test_two_processes(void)
{
	bool ok;

	if (!start(65536, 4))
		return false;
	ok = tr_two_processes(&tr, 2000);
	stop();
	return ok;
}

static volatile int racing;
static uint64_t hammered[2];	/* calls made by each hammer so far */

static void *hammer(void *arg)
{
	uint64_t i = 0, *done = arg;

	while (__atomic_load_n(&racing, __ATOMIC_RELAXED)) {
		fdr_enter((int32_t)(i % 100) + 1);
		if (i % 9 == 0)
			fdr_custom_event("racing!", 7);
		fdr_exit((int32_t)(i % 100) + 1);
		i++;
		__atomic_store_n(done, i, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Both hammers have made @calls calls (or 10 s went by). */
static void hammered_at_least(uint64_t calls)
{
	struct timespec ms = { 0, 1000 * 1000 };

	for (int i = 0; i < 10000; i++) {
		if (__atomic_load_n(&hammered[0], __ATOMIC_RELAXED) >= calls &&
		    __atomic_load_n(&hammered[1], __ATOMIC_RELAXED) >= calls)
			return;
		nanosleep(&ms, NULL);
	}
}

static bool test_race_finalize(void)
{
	struct timespec ms = { 0, 30 * 1000 * 1000 };
	struct fdr_status st;
	pthread_t th[2];
	int total = 0;

	if (!start(8192, 4))
		return false;
	racing = 1;
	for (int i = 0; i < 2; i++) {
		hammered[i] = 0;
		pthread_create(&th[i], NULL, hammer, &hammered[i]);
	}
	/*
	 * Both writing when the finalize comes: a count of their calls, not
	 * 30 ms, which on a busy host they may not even have started in.
	 */
	hammered_at_least(100);
	nanosleep(&ms, NULL);
	CHECK(fdr_ctl_finalize(tr.ctl) == 0, "finalize while writing");
	nanosleep(&ms, NULL);
	racing = 0;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < tr.c->nr_buffers; i++) {
		int n;

		if (!tr_desc(&tr, i)->extents)
			continue;
		n = parse(i);
		CHECK(n >= 2, "buffer %u: %s", i, err);
		total += n;
	}
	CHECK(total > 100, "recorded: %d", total);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_in_use == 0,
	      "writers released their buffers");
	stop();
	return true;
}

int main(void)
{
	tap_plan(NTESTS);
	if (access(FDR_DEFAULT_DEVICE, F_OK)) {
		for (int i = 0; i < NTESTS; i++)
			tap_skip("no /dev/fdr", "device recording %d", i + 1);
		return 0;
	}
	tap_ok(test_pair(), "enter/exit through /dev/fdr: record bytes");
	tap_ok(test_ring(), "ring overwrite in kernel buffers keeps the newest");
	tap_ok(test_finalize_stops(), "finalize stops writers");
	tap_ok(child_records(0), "the kernel reclaims a dead writer's buffer");
	tap_ok(child_records(SIGKILL), "a writer killed by a signal finalizes (crash)");
	tap_ok(test_pid_namespace(), "a writer in its own pid namespace, and its child: owners in the region's namespace");
	tap_ok(test_follow_reinit(), "writers follow a re-init to the new region");
	tap_ok(test_many_reinits(), "70 re-inits: writers follow each, old regions retired");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		tap_skip("one CPU", "migration writes NewCPUId");
	else
		tap_ok(test_migration(), "migration writes NewCPUId");
	tap_ok(test_two_processes(), "two processes record into one ring");
	tap_ok(test_race_finalize(), "writers racing a finalize: no torn record");
	return tap_done();
}
