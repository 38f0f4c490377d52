// SPDX-License-Identifier: MIT
/*
 * threads_test.c - buffers shared between threads and processes: reuse
 * by a second thread, CPU migration, ring overwrite, exhaustion, writers
 * racing a finalize, reclaim of a dead writer, two processes in one ring,
 * fork.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"


static struct test_region tr;
static struct rec recs[70000];
static char err[256];

static bool start(const char *tag, uint64_t bufsize, uint32_t bpc)
{
	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(tr_create(&tr, tag, bufsize, bpc) == 0, "create %s", tag);
	CHECK(fdr_attach(tr.target) == 0, "attach %s", tr.target);
	CHECK(tr_map(&tr) == 0, "map %s", tr.target);
	return true;
}

static void stop(void)
{
	fdr_detach();
	tr_destroy(&tr);
}

static int32_t gettid_(void)
{
	return (int32_t)syscall(SYS_gettid);
}

static int parse(uint32_t i)
{
	return parse_buffer(tr_buffer(&tr, i), tr_desc(&tr, i)->extents, recs,
			    70000, err, sizeof(err));
}

/* Every buffer with data parses from its first byte to its extents. */
static bool all_buffers_parse(int *records)
{
	*records = 0;
	for (uint32_t i = 0; i < tr.c->nr_buffers; i++) {
		int n;

		if (!tr_desc(&tr, i)->extents)
			continue;
		n = parse(i);
		CHECK(n >= 2, "buffer %u: %s", i, err);
		*records += n;
	}
	return true;
}

static void *record_pair_and_exit(void *arg)
{
	tr_pin_cpu(0);
	*(int32_t *)arg = gettid_();
	fdr_enter(1);
	fdr_exit(1);
	return NULL;
}

static bool test_second_thread_reuses(void)
{
	struct fdr_status st;
	pthread_t th;
	int32_t tid1, tid2;
	uint32_t idx[4];

	if (!start("reuse", 4096, 1))
		return false;
	pthread_create(&th, NULL, record_pair_and_exit, &tid1);
	pthread_join(th, NULL);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1 &&
	      tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED,
	      "thread exit released the buffer");
	pthread_create(&th, NULL, record_pair_and_exit, &tid2);
	pthread_join(th, NULL);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "still one buffer");
	CHECK(idx[0] == 0, "pool of CPU 0");
	CHECK(parse(idx[0]) == 5, "parses: %s", err);
	CHECK(recs[0].tid == tid2 && tid2 != tid1, "NewBuffer has tid %d, want %d",
	      recs[0].tid, tid2);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_recycled == 1 &&
	      st.buffers_acquired == 2, "recycled %llu acquired %llu",
	      (unsigned long long)st.buffers_recycled,
	      (unsigned long long)st.buffers_acquired);
	stop();
	return true;
}

static bool test_migration(void)
{
	uint32_t idx[4];
	int n;

	if (!start("migrate", 65536, 2))
		return false;
	tr_pin_cpu(0);
	fdr_enter(1);
	tr_pin_cpu(1);
	fdr_enter(2);
	fdr_exit(2);
	tr_pin_cpu(0);
	fdr_exit(1);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "the thread keeps its buffer");
	n = parse(idx[0]);
	CHECK(n == 9, "9 records, got %d: %s", n, err);
	CHECK(recs[2].type == REC_NEW_CPU && recs[2].cpu == 0, "starts on 0");
	CHECK(recs[4].type == REC_NEW_CPU && recs[4].cpu == 1, "NewCPUId 1");
	CHECK(recs[5].type == REC_FN && recs[5].delta == 0 && recs[5].cpu == 1,
	      "enter on 1");
	CHECK(recs[7].type == REC_NEW_CPU && recs[7].cpu == 0, "back to 0");
	CHECK(recs[8].type == REC_FN && recs[8].fid == 1 &&
	      recs[8].tsc >= recs[6].tsc, "exit on 0");
	stop();
	return true;
}

static bool test_ring_overwrite(void)
{
	struct fdr_status st;
	uint32_t idx[16], last_fid = 0;
	int per = (4096 - 48) / 16, nb, total = per * 10;

	if (!start("ring", 4096, 4))
		return false;
	tr_pin_cpu(0);
	for (int i = 1; i <= total; i++) {
		fdr_enter(i);
		fdr_exit(i);
	}
	fdr_thread_release();
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(st.buffers_acquired >= 10 &&
	      st.buffers_recycled == st.buffers_acquired - 4,
	      "acquired %llu recycled %llu",
	      (unsigned long long)st.buffers_acquired,
	      (unsigned long long)st.buffers_recycled);
	nb = tr_buffers_by_seq(&tr, idx, 16);
	CHECK(nb == 4, "4 buffers with data, got %d", nb);
	for (int b = 0; b < nb; b++) {
		const struct fdr_buffer_desc *d = tr_desc(&tr, idx[b]);
		int n = parse(idx[b]);

		CHECK(idx[b] < 4, "pool 0 only");
		CHECK(d->seq == st.buffers_acquired - 4 + (uint64_t)b,
		      "newest seqs kept: %llu", (unsigned long long)d->seq);
		CHECK(n > 3, "buffer parses: %s", err);
		for (int r = 3; r < n; r++) {
			if (recs[r].type != REC_FN || recs[r].fn_kind != FDR_FN_ENTER)
				continue;
			CHECK(recs[r].fid == last_fid + 1 || last_fid == 0,
			      "consecutive fids across buffers: %u after %u",
			      recs[r].fid, last_fid);
			last_fid = recs[r].fid;
		}
	}
	CHECK(last_fid == (uint32_t)total, "newest record kept: %u", last_fid);
	stop();
	return true;
}

static pthread_barrier_t hold_barrier;

static void *hold_a_buffer(void *arg)
{
	(void)arg;
	fdr_enter(1);
	pthread_barrier_wait(&hold_barrier);	/* all hold one now */
	pthread_barrier_wait(&hold_barrier);	/* main checked */
	return NULL;
}

static bool test_exhaustion(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int nthreads = (int)ncpu + 1;	/* one more than buffers */
	pthread_t th[64];
	struct fdr_status st;

	CHECK(nthreads <= 64, "too many CPUs for this test");
	if (!start("exhaust", 4096, 1))
		return false;
	pthread_barrier_init(&hold_barrier, NULL, (unsigned)nthreads + 1);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, hold_a_buffer, NULL);
	pthread_barrier_wait(&hold_barrier);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(st.buffers_in_use == st.nr_buffers, "all held: %u of %u",
	      st.buffers_in_use, st.nr_buffers);
	CHECK(st.records_dropped == 1, "one record dropped: %llu",
	      (unsigned long long)st.records_dropped);
	pthread_barrier_wait(&hold_barrier);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&hold_barrier);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_in_use == 0,
	      "all released at thread exit");
	stop();
	return true;
}

static volatile int racing;

static void *hammer(void *arg)
{
	uint64_t i = 0;
	char ev[24] = "event";

	(void)arg;
	while (__atomic_load_n(&racing, __ATOMIC_RELAXED)) {
		fdr_enter((int32_t)(i % 1000) + 1);
		if (i % 7 == 0)
			fdr_enter_arg(5, i);
		if (i % 11 == 0)
			fdr_custom_event(ev, (i % 23) + 1);
		if (i % 5 == 0)
			fdr_tail_exit((int32_t)(i % 1000) + 1);
		else
			fdr_exit((int32_t)(i % 1000) + 1);
		i++;
	}
	return NULL;
}

static bool test_race_finalize(void)
{
	struct timespec ms20 = { 0, 20 * 1000 * 1000 };
	uint64_t before[256];
	pthread_t th[2];
	struct fdr_status st;
	int records;

	fdr_detach();
	setenv("FDR_OPTIONS", "func_duration_threshold_us=1", 1);
	CHECK(tr_create(&tr, "race", 8192, 8) == 0 && fdr_attach(tr.target) == 0 &&
	      tr_map(&tr) == 0, "setup");
	CHECK(tr.c->nr_buffers <= 256, "region too large for the test");
	racing = 1;
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, hammer, NULL);
	nanosleep(&ms20, NULL);
	CHECK(fdr_ctl_finalize(tr.ctl) == 0, "finalize while writing");
	for (uint32_t i = 0; i < tr.c->nr_buffers; i++)
		before[i] = __atomic_load_n(&tr_desc(&tr, i)->extents,
					    __ATOMIC_ACQUIRE);
	nanosleep(&ms20, NULL);
	racing = 0;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	/* At most one record per writer may land after our snapshot (it
	 * passed its state check before the finalize); none after that. */
	CHECK(all_buffers_parse(&records), "no torn record");
	CHECK(records > 100, "recorded something: %d", records);
	for (uint32_t i = 0; i < tr.c->nr_buffers; i++)
		CHECK(tr_desc(&tr, i)->extents - before[i] <= 16 + 24 + 64 ||
		      tr_desc(&tr, i)->extents <= before[i],
		      "buffer %u grew after finalize", i);
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.buffers_in_use == 0,
	      "writers released their buffers: %u held", st.buffers_in_use);
	stop();
	return true;
}

static bool test_dead_writer_reclaimed(void)
{
	struct fdr_status st;
	uint32_t idx[8];
	pid_t pid;
	int status;

	if (!start("reclaim", 4096, 2))
		return false;
	fdr_detach();	/* the child attaches on its own */
	pid = fork();
	if (pid == 0) {
		fdr_attach(tr.target);
		fdr_enter(42);
		fdr_exit(42);
		_exit(0);	/* no destructors: the buffer stays HELD */
	}
	waitpid(pid, &status, 0);
	CHECK(tr_buffers_by_seq(&tr, idx, 8) == 1 &&
	      tr_desc(&tr, idx[0])->state == FDR_BUF_HELD &&
	      tr_desc(&tr, idx[0])->owner_pid == pid, "child's buffer HELD");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0, "status");
	CHECK(st.buffers_reclaimed == 1 && st.buffers_in_use == 0,
	      "reclaimed %llu in use %u", (unsigned long long)st.buffers_reclaimed,
	      st.buffers_in_use);
	CHECK(tr_desc(&tr, idx[0])->state == FDR_BUF_RELEASED &&
	      tr_desc(&tr, idx[0])->extents == 64, "RELEASED with its data");
	stop();
	return true;
}

static bool test_two_processes(void)
{
	bool ok;

	if (!start("twoproc", 65536, 4))
		return false;
	ok = tr_two_processes(&tr, 3000);
	stop();
	return ok;
}

static bool test_fork_child_own_buffer(void)
{
	uint32_t idx[8];
	pid_t pid;
	int status, n;

	if (!start("fork", 65536, 2))
		return false;
	fdr_enter(1);	/* the parent holds a buffer */
	pid = fork();
	if (pid == 0) {
		fdr_enter(2);	/* must not write into the parent's buffer */
		fdr_exit(2);
		exit(0);
	}
	waitpid(pid, &status, 0);
	fdr_exit(1);
	CHECK(tr_buffers_by_seq(&tr, idx, 8) == 2, "two buffers");
	n = parse(idx[0]);
	CHECK(n == 5 && recs[3].fid == 1 && recs[4].fid == 1,
	      "parent's buffer has only its records: n %d", n);
	n = parse(idx[1]);
	CHECK(n == 5 && recs[0].tid == pid && recs[3].fid == 2,
	      "child's buffer: tid %d", recs[0].tid);
	stop();
	return true;
}

int main(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	tap_plan(8);
	tap_ok(test_second_thread_reuses(),
	       "one buffer: a second thread reuses it with its own tid");
	tap_diag("CPU number from %s", __rseq_size ? "rseq" :
		 "rdtscp/sched_getcpu (no rseq registered)");
	if (ncpu < 2)
		tap_skip("one CPU", "migration writes NewCPUId");
	else
		tap_ok(test_migration(), "migration writes NewCPUId");
	tap_ok(test_ring_overwrite(), "ring overwrite keeps the newest buffers");
	tap_ok(test_exhaustion(), "all buffers held: the record is dropped and counted");
	tap_ok(test_race_finalize(), "writers racing a finalize: no torn record");
	tap_ok(test_dead_writer_reclaimed(), "a dead writer's buffer is reclaimed");
	tap_ok(test_two_processes(), "two processes record into one ring");
	tap_ok(test_fork_child_own_buffer(), "a forked child takes its own buffer");
	return tap_done();
}
