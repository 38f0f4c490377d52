// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_sched_test.c - the scheduling records of traced threads: the
 * read-only area and its STATUS fields, who is recorded (writers of the
 * region, their later threads and children; nobody else), what each
 * record says (sleeps, wakers, preemption), the states, the overflow
 * count and a process scribbling over the region.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr_sched.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

#define MAX_RECS (1u << 20)

/* Every record the rings hold now, CPU by CPU (the h1/h2 rule). */
struct recs {
	struct fdr_sched_record *r;
	size_t n;
	const struct fdr_sched_area *area;
	size_t len;
};

static const struct fdr_sched_area *map_area(int fd, size_t *len)
{
	struct fdr_status st;
	void *p;

	if (fdrt_status(fd, &st) || !(st.flags & FDR_CTL_SCHED))
		return NULL;
	p = mmap(NULL, st.sched_size, PROT_READ, MAP_SHARED, fd,
		 st.sched_offset);
	if (p == MAP_FAILED)
		return NULL;
	*len = st.sched_size;
	return p;
}

static void collect(int fd, struct recs *out)
{
	const struct fdr_sched_area *a;
	const struct fdr_sched_ring *rings;
	const struct fdr_sched_record *base;
	uint32_t cpu;

	out->n = 0;
	if (!out->r)
		out->r = calloc(MAX_RECS, sizeof(*out->r));
	if (!out->area)
		out->area = map_area(fd, &out->len);
	a = out->area;
	if (!a || !out->r)
		return;
	rings = (const void *)((const char *)a + a->rings_offset);
	base = (const void *)((const char *)a + a->records_offset);
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		uint64_t h1 = __atomic_load_n(&rings[cpu].head, __ATOMIC_ACQUIRE);
		uint64_t n, first = h1 > a->ring_records ? h1 - a->ring_records : 0;
		uint64_t h2;

		for (n = first; n < h1 && out->n < MAX_RECS; n++)
			out->r[out->n++] = base[(uint64_t)cpu * a->ring_records +
						n % a->ring_records];
		h2 = __atomic_load_n(&rings[cpu].head, __ATOMIC_ACQUIRE);
		/* Overwritten meanwhile: drop the oldest h2 - h1 + 1. */
		if (h2 != h1 && h2 + 1 > first + a->ring_records) {
			uint64_t bad = h2 + 1 - a->ring_records - first;

			out->n -= bad < h1 - first ? bad : h1 - first;
		}
	}
}

static void free_recs(struct recs *r)
{
	if (r->area)
		munmap((void *)r->area, r->len);
	free(r->r);
}

static size_t count(const struct recs *r, pid_t tid, int type, int state)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		if (r->r[i].tid == tid && r->r[i].type == type &&
		    (state < 0 || r->r[i].state == state))
			n++;
	return n;
}

static size_t count_pid(const struct recs *r, pid_t pid)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->r[i].pid == pid;
	return n;
}

static void sleep_ms(int times, long ms)
{
	struct timespec ts = { 0, ms * 1000000 };

	while (times--)
		nanosleep(&ts, NULL);
}

/* How many times the calling thread has blocked: its voluntary switches. */
static long blocked_so_far(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : ru.ru_nvcsw;
}

/*
 * Sleep @ms at a time until the thread has blocked @times times, as the
 * kernel counts it, or 20 x @times calls were made; return how many
 * times it blocked.  Under TCG the timer can expire between its arming
 * and schedule(), and nanosleep() then returns without sleeping (seen:
 * 1 call in 10 on an idle host, more on a busy one), so the tests compare
 * the records with the sleeps that happened, not with the calls made.
 */
static long sleep_blocking(int times, long ms)
{
	struct timespec ts = { 0, ms * 1000000 };
	long before = blocked_so_far(), n;
	int calls = 0;

	while ((n = blocked_so_far() - before) < times && calls++ < 20 * times)
		nanosleep(&ts, NULL);
	return n;
}

/* Our switch-outs that were not preemptions: the thread blocked. */
static size_t blocked_outs(const struct recs *r, pid_t tid)
{
	return count(r, tid, FDR_SCHED_SWITCH_OUT, -1) -
	       count(r, tid, FDR_SCHED_SWITCH_OUT, FDR_SCHED_RUNNABLE);
}

static long page_size_(void)
{
	return sysconf(_SC_PAGESIZE);
}

static int by_tsc(const void *a, const void *b)
{
	const struct fdr_sched_record *x = a, *y = b;

	return x->tsc < y->tsc ? -1 : x->tsc > y->tsc;
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

/* Map the region writable: from now on this process is traced. */
static void *attach(int fd, size_t *len)
{
	return fdrt_map(fd, PROT_READ | PROT_WRITE, len);
}

TEST_F(dev, area_header_and_status)
{
	struct fdr_status st;
	struct fdr_status v0;
	const struct fdr_sched_area *a;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_EQ(FDR_STATUS_SIZE_VER3, st.size);
	ASSERT_EQ(0, st.sched_size);
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	ASSERT_TRUE(st.flags & FDR_CTL_SCHED);
	ASSERT_EQ(st.map_size, st.sched_offset);
	ASSERT_EQ(0, st.sched_size % page_size_());
	ASSERT_EQ(0, st.sched_records);
	a = map_area(self->fd, &len);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(FDR_SCHED_AREA_MAGIC, a->magic);
	EXPECT_EQ(FDR_SCHED_VERSION, a->version);
	EXPECT_EQ(FDR_SCHED_RECORD_SIZE, a->record_size);
	EXPECT_EQ(st.generation, a->generation);
	EXPECT_EQ(st.nr_cpus, a->nr_cpus);
	EXPECT_EQ(FDR_SCHED_AREA_SIZE, a->rings_offset);
	EXPECT_EQ(0, a->ring_records & (a->ring_records - 1));
	EXPECT_GE(a->ring_records, 64);
	EXPECT_EQ(st.tsc_hz, a->tsc_hz);
	EXPECT_LE(a->records_offset + (uint64_t)a->nr_cpus * a->ring_records *
		  FDR_SCHED_RECORD_SIZE, len);
	munmap((void *)a, len);

	/* A version-0 caller gets version 0's bytes, nothing more. */
	memset(&v0, 0xa5, sizeof(v0));
	v0.size = FDR_STATUS_SIZE_VER0;
	ASSERT_EQ(0, ioctl(self->fd, FDR_IOC_STATUS, &v0));
	EXPECT_EQ(FDR_STATUS_SIZE_VER0, v0.size);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, v0.sched_offset);
}

TEST_F(dev, no_sched_flag)
{
	struct fdr_status st;
	void *p;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, FDR_INIT_NO_SCHED));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	EXPECT_FALSE(st.flags & FDR_CTL_SCHED);
	EXPECT_EQ(0, st.sched_offset);
	EXPECT_EQ(0, st.sched_size);
	p = mmap(NULL, page_size_(), PROT_READ, MAP_SHARED, self->fd,
		 st.map_size);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, area_is_read_only)
{
	const long page = page_size_();
	struct fdr_status st;
	void *p;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	p = mmap(NULL, st.sched_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, st.sched_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);
	p = mmap(NULL, st.sched_size, PROT_READ, MAP_SHARED, self->fd,
		 st.sched_offset);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, st.sched_size, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, munmap(p, st.sched_size));
	/* Past the area, across its end, across the region/area border. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
		 st.sched_offset + st.sched_size);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, st.sched_size + page, PROT_READ, MAP_SHARED, self->fd,
		 st.sched_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, self->fd,
		 st.sched_offset - page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, self->fd,
		 st.sched_offset);
	EXPECT_EQ(MAP_FAILED, p);
	/* Still INITIALIZED, STATUS unchanged. */
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	EXPECT_EQ(FDR_STATE_INITIALIZED, st.state);
}

/* A sleep is SWITCH_OUT(sleeping), then WAKEUP, then SWITCH_IN. */
TEST_F(dev, sleeping_thread_recorded)
{
	struct recs r = { 0 };
	pid_t tid = gettid_();
	size_t len, i, outs = 0, ordered = 0;
	long slept;
	void *map;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	slept = sleep_blocking(20, 2);
	collect(self->fd, &r);
	ASSERT_LT(0, r.n);
	ASSERT_LT(0, slept);
	TH_LOG("blocked %ld times; %zu switch-outs not preempted recorded",
	       slept, blocked_outs(&r, tid));
	/* Every time it blocked: out (sleeping), woken, back in. */
	EXPECT_GE(blocked_outs(&r, tid), (size_t)slept);
	EXPECT_LT(0, count(&r, tid, FDR_SCHED_SWITCH_OUT, FDR_SCHED_SLEEPING));
	EXPECT_GE(count(&r, tid, FDR_SCHED_WAKEUP, -1), (size_t)slept);
	EXPECT_GE(count(&r, tid, FDR_SCHED_SWITCH_IN, 0), (size_t)slept);
	for (i = 0; i < r.n; i++) {
		const struct fdr_sched_record *x = &r.r[i];

		if (x->tid != tid)
			continue;
		EXPECT_EQ(getpid(), x->pid);
		EXPECT_EQ(0, x->flags);
		EXPECT_LT(x->cpu, r.area->nr_cpus);
		if (x->type == FDR_SCHED_WAKEUP && x->state != FDR_SCHED_BY_TASK)
			EXPECT_EQ(0, x->other_tid);
	}
	/* In time order, a sleep's next records are WAKEUP, SWITCH_IN. */
	qsort(r.r, r.n, sizeof(*r.r), by_tsc);
	for (i = 0; i < r.n; i++) {
		size_t j, k;

		if (r.r[i].tid != tid || r.r[i].type != FDR_SCHED_SWITCH_OUT ||
		    r.r[i].state != FDR_SCHED_SLEEPING)
			continue;
		outs++;
		for (j = i + 1; j < r.n && r.r[j].tid != tid; j++)
			;
		for (k = j + 1; k < r.n && r.r[k].tid != tid; k++)
			;
		ordered += k < r.n && r.r[j].type == FDR_SCHED_WAKEUP &&
			   r.r[k].type == FDR_SCHED_SWITCH_IN;
	}
	EXPECT_LT(0, outs);
	EXPECT_GE(ordered * 10, outs * 9);
	free_recs(&r);
	munmap(map, len);
}

static int sleeper_child(void *arg)
{
	(void)arg;
	sleep_ms(10, 2);
	return 0;
}

/* Without a writable mapping, or in another process: nothing. */
TEST_F(dev, only_writers_recorded)
{
	struct recs r = { 0 };
	size_t len;
	void *ro;
	pid_t child;
	int status;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ro = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, ro);
	sleep_ms(10, 2);
	child = fdrt_spawn(sleeper_child, NULL);
	ASSERT_LT(0, child);
	status = fdrt_wait(child);
	ASSERT_EQ(0, status);
	collect(self->fd, &r);
	EXPECT_EQ(0, count_pid(&r, getpid()));
	EXPECT_EQ(0, count_pid(&r, child));
	free_recs(&r);
	munmap(ro, len);
}

struct pingpong {
	int ab[2], ba[2];
	pid_t a_tid, b_tid;
	int rounds;
};

static void *pong(void *arg)
{
	struct pingpong *pp = arg;
	char c;
	int i;

	pp->b_tid = gettid_();
	for (i = 0; i < pp->rounds; i++) {
		if (read(pp->ab[0], &c, 1) != 1 || write(pp->ba[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

/*
 * Each side is woken by the other: the waker is named.  Which side
 * sleeps how often depends on the scheduling (a reader whose byte is
 * already there does not sleep; on a busy host one side may never sleep),
 * so the wakeups are counted on both sides together, and logged.
 */
TEST_F(dev, pipe_wakeups_name_the_waker)
{
	struct pingpong pp = { .rounds = 100 };
	struct recs r = { 0 };
	pthread_t t;
	size_t len, i, by_b = 0, by_a = 0, of_a = 0, of_b = 0;
	void *map;
	char c = 'x';

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	ASSERT_EQ(0, pipe(pp.ab));
	ASSERT_EQ(0, pipe(pp.ba));
	pp.a_tid = gettid_();
	ASSERT_EQ(0, pthread_create(&t, NULL, pong, &pp));
	for (i = 0; i < (size_t)pp.rounds; i++) {
		ASSERT_EQ(1, write(pp.ab[1], &c, 1));
		ASSERT_EQ(1, read(pp.ba[0], &c, 1));
	}
	pthread_join(t, NULL);
	collect(self->fd, &r);
	for (i = 0; i < r.n; i++) {
		const struct fdr_sched_record *x = &r.r[i];
		bool by_task = x->state == FDR_SCHED_BY_TASK && x->other_pid == getpid();

		if (x->type != FDR_SCHED_WAKEUP)
			continue;
		if (x->tid == pp.a_tid) {
			of_a++;
			by_b += by_task && x->other_tid == pp.b_tid;
		} else if (x->tid == pp.b_tid) {
			of_b++;
			by_a += by_task && x->other_tid == pp.a_tid;
		}
	}
	TH_LOG("%d rounds: A woken %zu times (%zu by B), B %zu times (%zu by A)",
	       pp.rounds, of_a, by_b, of_b, by_a);
	/*
	 * Every round one side at least sleeps, unless both were held up
	 * between their write and their read: a tenth of the rounds is far
	 * from what an unrecorded pair shows (none).
	 */
	EXPECT_LT(10, of_a + of_b);
	EXPECT_GE(by_b * 10, of_a * 9);
	EXPECT_GE(by_a * 10, of_b * 9);
	free_recs(&r);
	munmap(map, len);
}

struct late {
	pid_t tid;
	long slept;
};

static void *late_sleeper(void *arg)
{
	struct late *l = arg;

	l->tid = gettid_();
	l->slept = sleep_blocking(10, 2);
	return NULL;
}

/* A thread started after the attach and a fork()ed child are covered. */
TEST_F(dev, later_thread_and_child_recorded)
{
	struct recs r = { 0 };
	struct late late = { 0 };
	pthread_t t;
	pid_t child;
	size_t len;
	void *map;
	int status;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	ASSERT_EQ(0, pthread_create(&t, NULL, late_sleeper, &late));
	pthread_join(t, NULL);
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(sleep_blocking(10, 2) & 0x7f);	/* 10, unless TCG balked */
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	collect(self->fd, &r);
	ASSERT_LT(0, late.slept);
	ASSERT_LT(0, WEXITSTATUS(status));
	EXPECT_GE(blocked_outs(&r, late.tid), (size_t)late.slept);
	EXPECT_GE(blocked_outs(&r, child), (size_t)WEXITSTATUS(status));
	EXPECT_LT(0, count(&r, late.tid, FDR_SCHED_SWITCH_OUT, FDR_SCHED_SLEEPING));
	EXPECT_LT(0, count(&r, child, FDR_SCHED_SWITCH_OUT, FDR_SCHED_SLEEPING));
	EXPECT_LT(0, count_pid(&r, child));
	free_recs(&r);
	munmap(map, len);
}

static volatile int hog_stop;

static void *hog(void *arg)
{
	*(pid_t *)arg = gettid_();
	while (!hog_stop)
		;
	return NULL;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *pinned_hog(void *arg)
{
	pin_cpu0();
	return hog(arg);
}

/* Two busy threads on one CPU preempt each other: runnable time. */
TEST_F(dev, preemption_is_runnable)
{
	struct recs r = { 0 };
	struct timespec t0, t1;
	pthread_t t;
	pid_t hog_tid = 0, me = gettid_();
	size_t len;
	void *map;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	pin_cpu0();
	hog_stop = 0;
	ASSERT_EQ(0, pthread_create(&t, NULL, pinned_hog, &hog_tid));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t1);
	while ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 300);
	hog_stop = 1;
	pthread_join(t, NULL);
	collect(self->fd, &r);
	EXPECT_LT(0, count(&r, me, FDR_SCHED_SWITCH_OUT, FDR_SCHED_RUNNABLE) +
		  count(&r, hog_tid, FDR_SCHED_SWITCH_OUT, FDR_SCHED_RUNNABLE));
	free_recs(&r);
	munmap(map, len);
}

static uint64_t sched_records(int fd)
{
	struct fdr_status st;

	return fdrt_status(fd, &st) ? ~0ull : st.sched_records;
}

/* FINALIZE stops recording; RESET drops it; the next INIT starts at 0. */
TEST_F(dev, finalize_stops_reset_drops)
{
	struct recs r = { 0 };
	size_t len;
	uint64_t at_finalize;
	long slept;
	void *map;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	slept = sleep_blocking(5, 2);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	at_finalize = sched_records(self->fd);
	ASSERT_LT(0, slept);
	EXPECT_LE(3 * (uint64_t)slept, at_finalize);
	EXPECT_LT(0, sleep_blocking(10, 2));	/* would be recorded, if anything were */
	EXPECT_EQ(at_finalize, sched_records(self->fd));
	collect(self->fd, &r);
	EXPECT_EQ(at_finalize, r.n);
	free_recs(&r);
	munmap(map, len);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	EXPECT_EQ(0, sched_records(self->fd));
}

/* A small ring keeps the newest records and counts the rest. */
TEST_F(dev, overflow_keeps_newest)
{
	long long saved = fdrt_param("sched_ring_kb");
	struct recs r = { 0 };
	struct fdr_status st;
	size_t len, i;
	uint64_t last_tsc = 0;
	long slept;
	void *map;
	int err;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_write_param("sched_ring_kb", 1));
	err = fdrt_init_default(self->fd, 0);
	ASSERT_EQ(0, fdrt_write_param("sched_ring_kb", saved));
	ASSERT_EQ(0, err);
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	pin_cpu0();
	slept = sleep_blocking(100, 1);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	collect(self->fd, &r);
	ASSERT_NE(NULL, r.area);
	EXPECT_EQ(64, r.area->ring_records);
	ASSERT_LT(64 / 3, slept);	/* enough to overflow CPU 0's ring */
	EXPECT_LE(3 * (uint64_t)slept, st.sched_records);
	EXPECT_LT(0, st.sched_overwritten);
	EXPECT_EQ(st.sched_records - st.sched_overwritten, r.n);
	/* CPU 0's ring, oldest first, is in time order and ends with ours. */
	for (i = 0; i < r.n && r.r[i].cpu == 0; i++) {
		EXPECT_LE(last_tsc, r.r[i].tsc);
		last_tsc = r.r[i].tsc;
	}
	EXPECT_EQ(64, i);
	free_recs(&r);
	munmap(map, len);
}

/*
 * Whatever a writer puts in the region, the probes only ever write their
 * own area, and what they write stays well formed.
 */
TEST_F(dev, scribbled_region_cannot_steer_the_kernel)
{
	struct recs r = { 0 };
	struct fdr_status before, after;
	size_t len, i;
	long slept;
	unsigned char *map;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &before));
	map = attach(self->fd, &len);
	ASSERT_NE(NULL, map);
	srand(1);
	for (i = 0; i < len; i++)
		map[i] = i < before.control_size ? 0xff ^ (rand() & 0x7f) : rand();
	slept = sleep_blocking(10, 2);
	collect(self->fd, &r);
	ASSERT_NE(NULL, r.area);
	EXPECT_EQ(FDR_SCHED_AREA_MAGIC, r.area->magic);
	EXPECT_EQ(before.generation, r.area->generation);
	ASSERT_LT(0, slept);
	EXPECT_LE((size_t)slept, blocked_outs(&r, gettid_()));
	for (i = 0; i < r.n; i++) {
		EXPECT_LE(FDR_SCHED_SWITCH_OUT, r.r[i].type);
		EXPECT_GE(FDR_SCHED_WAKEUP, r.r[i].type);
		EXPECT_LE(r.r[i].state, FDR_SCHED_OTHER);
		EXPECT_LT(r.r[i].cpu, r.area->nr_cpus);
		EXPECT_EQ(0, r.r[i].flags);
	}
	ASSERT_EQ(0, fdrt_status(self->fd, &after));
	EXPECT_EQ(before.sched_offset, after.sched_offset);
	EXPECT_EQ(before.sched_size, after.sched_size);
	EXPECT_EQ(FDR_STATE_INITIALIZED, after.state);
	free_recs(&r);
	munmap(map, len);
}

/* max_total_mb counts the scheduling area too. */
TEST_F(dev, max_total_counts_the_area)
{
	long long saved_total = fdrt_param("max_total_mb");
	long long saved_ring = fdrt_param("sched_ring_kb");
	const long page = page_size_();
	int with, without;

	REQUIRE_DEV();
	/* 1 MiB of records per CPU: more than the 1 MiB limit. */
	ASSERT_EQ(0, fdrt_write_param("sched_ring_kb", 1024));
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", 1));
	with = fdrt_init(self->fd, page, 1, 0);
	without = fdrt_init(self->fd, page, 1, FDR_INIT_NO_SCHED);
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", saved_total));
	ASSERT_EQ(0, fdrt_write_param("sched_ring_kb", saved_ring));
	EXPECT_EQ(-ENOMEM, with);
	EXPECT_EQ(0, without);
}

TEST_HARNESS_MAIN
