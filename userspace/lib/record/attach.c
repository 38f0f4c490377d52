// SPDX-License-Identifier: MIT
/*
 * attach.c - connect the process to a region and keep following it.
 *
 * fdr_attach() opens the target, maps the region writable and publishes
 * it in fdr__current.  Errors are printed once; recording calls are then
 * no-ops.  When the region leaves INITIALIZED (finalize, reset) writers
 * stop; at most every 10 ms a writer that wants to record asks the
 * target again, and maps the new region once a new INIT happened.
 *
 * A region is never unmapped while the process runs: a thread preempted
 * between its state check and its write must still find memory there.
 * Once a newer region is mapped, the old one is *retired* instead: its
 * address range is replaced in place by private zero pages, which gives
 * the kernel (or the shm object) its memory back, reads as UNINITIALIZED
 * to a late writer, and takes a late write harmlessly.  Region structs
 * live in a static ring whose slots are reused only long after their
 * region was retired.  No malloc on these paths: an instrumented
 * allocator may be what is recording.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "recorder.h"
#include "fdr_env.h"
#include "fdr_detach.h"

#define MAX_REGIONS		64	/* slots of the ring of region structs */
#define RECHECK_INTERVAL_NS	(10ull * 1000 * 1000)

struct fdr_region *fdr__current;
pid_t fdr__pid;
/*
 * g.ctl's device file, for the writers' FDR_IOC_TRIGGER: read without the
 * lock from inside a record, so a plain int set at attach and cleared
 * (before the close) at detach.  No file of its own: the kernel ties our
 * buffers to this one (reclaim at its release), and another open file
 * would outlive fdr_detach() and change that.
 */
int fdr__trigger_fd = -1;
/* >= 0: the threshold of the next fdr_attach(), instead of $FDR_OPTIONS
 * (set by the attach entry, adapters/attach_entry.c, which must not setenv() in a
 * running program). */
long fdr__threshold_us_override = -1;
/* Set by the attach entry around the attach it gives back at a detach:
 * the program said that it waits for an INIT once already. */
bool fdr__attach_quiet;

#ifdef FDR_TEST_HOOKS
/* Runs between the map (and its checks) and the region's first use. */
void (*fdr__test_mapped_hook)(void *addr, size_t len);
#endif

static struct {
	pthread_mutex_t lock;
	struct fdr_ctl *ctl;		/* kept open: the device ties our
					 * buffers to this file for reclaim */
	struct fdr_options opts;
	struct fdr_region regions[MAX_REGIONS];
	unsigned next_slot;
	struct fdr_region *mapped;	/* the newest mapping: never retired */
	uint64_t next_check_ns;
	bool attached;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

__FDR_NO_INSTRUMENT static uint64_t coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Ticks per second for the duration threshold: the region's, else (a
 * kernel that does not know its TSC rate) a calibration done once, and
 * only from fdr_attach(): it sleeps 20 ms, which a recording thread that
 * follows a re-init must not.  Without either, nothing is rewound.
 */
__FDR_NO_INSTRUMENT static uint64_t threshold_hz(const struct fdr_control *c,
					 bool may_sleep)
{
	static uint64_t calibrated;

	if (c->tsc_hz)
		return c->tsc_hz;
	if (!calibrated && may_sleep)
		calibrated = fdr__tsc_hz();
	return calibrated;
}

/* Replace a superseded region's pages in place by private zero pages
 * (see the top of this file).  On failure the old mapping just stays. */
__FDR_NO_INSTRUMENT static void retire(struct fdr_region *r)
{
	mmap(r->base, r->len, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
}

/* Map the target's current region and make it the one writers use. */
__FDR_NO_INSTRUMENT static int map_current(bool may_sleep)
{
	struct fdr_region *r, *old = g.mapped;
	struct fdr_region_view view;
	void *addr;
	size_t len;
	uint64_t hz;
	int ret;

	ret = fdr__ctl_map_rw(g.ctl, &addr, &len, &view);
	if (ret < 0)
		return ret;
#ifdef FDR_TEST_HOOKS
	if (fdr__test_mapped_hook)
		fdr__test_mapped_hook(addr, len);
#endif
	r = &g.regions[g.next_slot];
	g.next_slot = (g.next_slot + 1) % MAX_REGIONS;
	r->ctl = addr;
	r->base = addr;
	r->len = len;
	/*
	 * The view checked when mapping (the kernel's on the device), not
	 * the page again: another process may have rewritten it since.
	 */
	r->rings = view.rings;
	r->descs = view.descs;
	r->buffers = view.buffers;
	r->buffer_size = view.buffer_size;
	r->note_size = fdr__owner_note_size(r->buffer_size);
	r->nr_cpus = view.nr_cpus;
	r->buffers_per_cpu = view.buffers_per_cpu;
	hz = threshold_hz(r->ctl, may_sleep);
	r->tsc_hz = hz;
	r->embedded = g.ctl->target.kind == FDR_TARGET_EMBEDDED;
	/* Written at INIT, never changed: once here, not per record. */
	r->stream = __atomic_load_n(&r->ctl->flags, __ATOMIC_RELAXED) &
		    FDR_CTL_STREAM;
	r->threshold_ticks = (uint64_t)((double)g.opts.threshold_us *
					(double)hz / 1e6);
	/* Each region may number its writers in another pid namespace. */
	fdr__pid = fdr__ctl_owner_pid(g.ctl);
	g.mapped = r;
	__atomic_store_n(&fdr__current, r, __ATOMIC_RELEASE);
	if (old)
		retire(old);
	return 0;
}

__FDR_NO_INSTRUMENT static bool region_live(const struct fdr_region *r,
				    uint32_t generation)
{
	return r && __atomic_load_n(&r->ctl->state, __ATOMIC_ACQUIRE) ==
			    FDR_STATE_INITIALIZED &&
	       r->ctl->generation == generation;
}

/* Called with g.lock held: follow the target to its newest region. */
__FDR_NO_INSTRUMENT static void follow_target(void)
{
	struct fdr_region *cur = __atomic_load_n(&fdr__current, __ATOMIC_ACQUIRE);
	uint32_t state, generation;

	if (!g.ctl || fdr__ctl_peek(g.ctl, &state, &generation) < 0 ||
	    state != FDR_STATE_INITIALIZED || region_live(cur, generation))
		return;
	map_current(false);
}

__FDR_NO_INSTRUMENT struct fdr_region *fdr__region_for_writing(void)
{
	struct fdr_region *r = __atomic_load_n(&fdr__current, __ATOMIC_ACQUIRE);
	uint64_t now;

	if (r && __atomic_load_n(&r->ctl->state, __ATOMIC_ACQUIRE) ==
			 FDR_STATE_INITIALIZED)
		return r;
	if (!__atomic_load_n(&g.attached, __ATOMIC_RELAXED))
		return NULL;
	now = coarse_ns();
	if (now < __atomic_load_n(&g.next_check_ns, __ATOMIC_RELAXED) ||
	    pthread_mutex_trylock(&g.lock))
		return NULL;
	if (now >= g.next_check_ns) {
		__atomic_store_n(&g.next_check_ns, now + RECHECK_INTERVAL_NS,
				 __ATOMIC_RELAXED);
		follow_target();
	}
	pthread_mutex_unlock(&g.lock);
	r = __atomic_load_n(&fdr__current, __ATOMIC_ACQUIRE);
	return r && __atomic_load_n(&r->ctl->state, __ATOMIC_ACQUIRE) ==
			    FDR_STATE_INITIALIZED ? r : NULL;
}

/* A forked child must not write into buffers its parent holds. */
__FDR_NO_INSTRUMENT static void forget_in_child(void)
{
	struct fdr_thread *t = &fdr__thread;

	pthread_mutex_init(&g.lock, NULL);
	fdr__pid = g.ctl ? fdr__ctl_owner_pid(g.ctl) : getpid();
	t->desc = NULL;
	t->ctl = &fdr__no_control;
	t->buf = NULL;
	t->tid = 0;
	t->key_set = 0;
	t->busy = 0;
	fdr__forget_missed();
}

__FDR_NO_INSTRUMENT static void setup_once(void)
{
	fdr__cpu_setup();
	pthread_atfork(NULL, NULL, forget_in_child);
}

FDR_API int fdr_attach(const char *target)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct fdr_ctl *ctl;
	int ret;

	pthread_once(&once, setup_once);
	pthread_mutex_lock(&g.lock);
	if (g.attached) {
		/* Already attached (maybe still waiting for an INIT). */
		ret = __atomic_load_n(&fdr__current, __ATOMIC_ACQUIRE) ? 0 : -ENODATA;
		pthread_mutex_unlock(&g.lock);
		return ret;
	}
	fdr__pid = getpid();
	fdr__owner_process_setup();
	/* Not the caller's to set in a set-user-ID program (fdr__env). */
	fdr__options_parse(&g.opts, fdr__env("FDR_OPTIONS"));
	if (fdr__threshold_us_override >= 0)	/* fdr record -p's, not our env's */
		g.opts.threshold_us = (uint64_t)fdr__threshold_us_override;
	ret = fdr_ctl_open(&ctl, target);
	if (ret < 0) {
		fprintf(stderr, "libfdr: recording disabled: %s\n",
			fdr_ctl_strerror(ctl, "open", ret));
		fdr_ctl_close(ctl);
		pthread_mutex_unlock(&g.lock);
		return ret;
	}
	g.ctl = ctl;
	if (ctl->target.kind == FDR_TARGET_DEVICE)
		__atomic_store_n(&fdr__trigger_fd, ctl->fd, __ATOMIC_RELEASE);
	ret = map_current(true);
	if (ret == -ENOENT && ctl->target.kind == FDR_TARGET_EMBEDDED)
		ret = -ENODATA;	/* an embedded region appears at its INIT */
	if (ret == -ENODATA) {
		/* Not an error to wait for: the next INIT starts recording. */
		if (!fdr__attach_quiet)
			fprintf(stderr, "libfdr: %s is not initialized; recording "
				"starts at its next init\n", ctl->target.spec);
		g.attached = true;
	} else if (ret < 0) {
		fprintf(stderr, "libfdr: recording disabled: %s\n",
			fdr_ctl_strerror(ctl, "map", ret));
		__atomic_store_n(&fdr__trigger_fd, -1, __ATOMIC_RELEASE);
		fdr_ctl_close(ctl);
		g.ctl = NULL;
	} else {
		g.attached = true;
	}
	pthread_mutex_unlock(&g.lock);
	return ret;
}

/*
 * The firing writer's one syscall.  Inside a record, maybe in a signal
 * handler: no lock, no malloc, nothing of g but the fd.
 */
__FDR_NO_INSTRUMENT int fdr__trigger_send(struct fdr_region *r, int32_t fid,
				  uint64_t duration_ns, int32_t tid)
{
	struct fdr_trigger trig = { .size = sizeof(trig),
				    .duration_ns = duration_ns, .fid = fid };
	int fd;

	if (r->embedded)
		return fdr__embedded_trigger(r->ctl, &trig, fdr__pid, tid);
	fd = __atomic_load_n(&fdr__trigger_fd, __ATOMIC_ACQUIRE);
	if (fd < 0)
		return -EBADF;
	return ioctl(fd, FDR_IOC_TRIGGER, &trig) ? -errno : 0;
}

FDR_API void fdr_detach(void)
{
	pthread_mutex_lock(&g.lock);
	__atomic_store_n(&fdr__current, NULL, __ATOMIC_RELEASE);
	fdr_thread_release();
	g.attached = false;
	/* The mappings stay (other threads may be mid-record), and are not
	 * retired: the other threads give their buffers back through them at
	 * their next record or at their exit; what is still held when the
	 * process dies, the kernel (or the embedded controller) reclaims. */
	g.mapped = NULL;
	__atomic_store_n(&fdr__trigger_fd, -1, __ATOMIC_RELEASE);
	fdr_ctl_close(g.ctl);
	g.ctl = NULL;
	pthread_mutex_unlock(&g.lock);
}

/*
 * Does the calling thread hold g.lock?  Only the attach entry asks: the
 * recorder may have stopped this thread inside a locked section (a
 * writer that follows its target does so every 10 ms while it waits for
 * an INIT) and made it call the entry, which would wait on the lock for
 * ever.  glibc records the owner's tid in every mutex it locks.
 */
__FDR_NO_INSTRUMENT bool fdr__lock_is_mine(void)
{
	return __atomic_load_n(&g.lock.__data.__owner, __ATOMIC_RELAXED) == gettid();
}

/* Is the process attached (recording, or waiting for an INIT)? */
__FDR_NO_INSTRUMENT bool fdr__attached(void)
{
	bool r;

	pthread_mutex_lock(&g.lock);
	r = g.attached;
	pthread_mutex_unlock(&g.lock);
	return r;
}

/*
 * Give back every mapping fdr_attach() ever made (retired ones too), after
 * fdr_detach().  Only for a caller that knows no thread is inside a record
 * or holds a buffer any more: `fdr record -p` stops every thread, checks
 * their busy flags and resets their writers first (-EBUSY: a stopped
 * thread holds the lock; the recorder lets them run and tries again) (adapters/attach_entry.c).
 */
__FDR_NO_INSTRUMENT int fdr__unmap_all(void)
{
	/* every other thread is stopped: one may be stopped holding it */
	if (pthread_mutex_trylock(&g.lock))
		return -EBUSY;
	for (unsigned i = 0; i < MAX_REGIONS; i++) {
		struct fdr_region *r = &g.regions[i];

		if (r->base)
			munmap(r->base, r->len);
		memset(r, 0, sizeof(*r));
	}
	g.next_slot = 0;
	pthread_mutex_unlock(&g.lock);
	return 0;
}

/*
 * After fdr_detach() while other threads may still be inside a record
 * (the recorder died): turn every mapping into private zero pages (see
 * retire()), which gives the region's memory back and takes late writes.
 */
__FDR_NO_INSTRUMENT void fdr__retire_all(void)
{
	pthread_mutex_lock(&g.lock);
	for (unsigned i = 0; i < MAX_REGIONS; i++)
		if (g.regions[i].base)
			retire(&g.regions[i]);
	pthread_mutex_unlock(&g.lock);
}
