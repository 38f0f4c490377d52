// SPDX-License-Identifier: MIT
/*
 * ctl_test.c - the control API on an embedded region: every transition,
 * legal and illegal, with the device's errnos; bad configs; generations;
 * status; futex wakeups; the layout of the region; error messages.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "region_util.h"
#include "internal.h"	/* fdr__target_parse() */
#include "fdr_size_limit.h"

static struct test_region tr;

static uint32_t state(void)
{
	struct fdr_status st;

	return fdr_ctl_status(tr.ctl, &st) == 0 ? st.state : 99;
}

static bool test_transitions(void)
{
	struct fdr_ctl *c;
	struct fdr_status st;

	CHECK(tr_create(&tr, "ctl", 65536, 2) == 0, "create");
	c = tr.ctl;
	CHECK(state() == FDR_STATE_INITIALIZED, "INITIALIZED after init");
	CHECK(fdr_ctl_init(c, &(struct fdr_init){ .size = 24, .buffer_size = 4096,
			   .buffers_per_cpu = 1 }) == -EBUSY, "init twice");
	CHECK(fdr_ctl_reset(c) == -EBUSY, "reset while INITIALIZED");
	CHECK(fdr_ctl_flush_begin(c) == -EBUSY, "flush_begin while INITIALIZED");
	CHECK(fdr_ctl_flush_done(c) == -EBUSY, "flush_done while INITIALIZED");
	CHECK(fdr_ctl_flush_abort(c) == -EBUSY, "flush_abort while INITIALIZED");
	CHECK(state() == FDR_STATE_INITIALIZED, "refusals changed nothing");
	CHECK(fdr_ctl_finalize(c) == 0, "finalize");
	CHECK(fdr_ctl_status(c, &st) == 0 && st.state == FDR_STATE_FINALIZED &&
	      st.finalize_reason == FDR_FINALIZE_IOCTL &&
	      st.finalize_pid == getpid(), "FINALIZED by ioctl, our pid");
	CHECK(fdr_ctl_finalize(c) == -EBUSY, "finalize twice");
	CHECK(fdr_ctl_flush_done(c) == -EBUSY, "flush_done before begin");
	CHECK(fdr_ctl_flush_begin(c) == 0, "flush_begin");
	CHECK(fdr_ctl_flush_begin(c) == -EBUSY, "flush_begin twice");
	CHECK(fdr_ctl_reset(c) == -EBUSY, "reset while FLUSHING");
	CHECK(fdr_ctl_flush_abort(c) == 0, "flush_abort");
	CHECK(fdr_ctl_status(c, &st) == 0 &&
	      st.flush_state == FDR_FLUSH_NOT_FLUSHING, "NOT_FLUSHING again");
	CHECK(fdr_ctl_flush_begin(c) == 0 && fdr_ctl_flush_done(c) == 0,
	      "flush begin + done");
	CHECK(fdr_ctl_status(c, &st) == 0 && st.flush_state == FDR_FLUSH_FLUSHED,
	      "FLUSHED");
	CHECK(fdr_ctl_flush_begin(c) == 0 && fdr_ctl_flush_done(c) == 0,
	      "a second flush after FLUSHED");
	CHECK(fdr_ctl_reset(c) == 0, "reset");
	CHECK(fdr_ctl_status(c, &st) == 0 && st.state == FDR_STATE_UNINITIALIZED &&
	      st.flush_state == FDR_FLUSH_NOT_FLUSHING &&
	      st.finalize_reason == FDR_FINALIZE_NONE, "UNINITIALIZED, clean");
	CHECK(fdr_ctl_finalize(c) == -EBUSY, "finalize while UNINITIALIZED");
	CHECK(fdr_ctl_reset(c) == -EBUSY, "reset while UNINITIALIZED");
	CHECK(fdr_ctl_flush_begin(c) == -EBUSY, "flush while UNINITIALIZED");
	CHECK(strstr(fdr_ctl_strerror(c, "finalize", -EBUSY),
		     "cannot finalize: the recorder is UNINITIALIZED"),
	      "message: %s", fdr_ctl_strerror(c, "finalize", -EBUSY));
	tr_destroy(&tr);
	return true;
}

static bool test_bad_configs(void)
{
	struct fdr_init ok = { .size = sizeof(ok), .buffer_size = 8192,
			       .buffers_per_cpu = 2 };
	struct { struct fdr_init i; uint64_t tail; } big = { ok, 0 };
	struct fdr_init bad;
	struct fdr_ctl *c;

	CHECK(tr_create(&tr, "cfg", 4096, 1) == 0, "create");
	c = tr.ctl;
	CHECK(fdr_ctl_finalize(c) == 0 && fdr_ctl_reset(c) == 0, "to UNINITIALIZED");
	bad = ok; bad.buffer_size = 0;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "size 0");
	bad = ok; bad.buffer_size = 5000;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "not a page multiple");
	bad = ok; bad.buffers_per_cpu = 0;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "0 buffers");
	bad = ok; bad.flags = 1u << 7;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "unknown flag");
	bad = ok; bad.reserved = 1;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "reserved set");
	bad = ok; bad.size = 8;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "struct too small");
	bad = ok; bad.buffer_size = 1ull << 40;
	CHECK(fdr_ctl_init(c, &bad) == -EINVAL, "absurd buffer size");
	bad = ok; bad.buffer_size = 1ull << 30; bad.buffers_per_cpu = 1u << 20;
	CHECK(fdr_ctl_init(c, &bad) == -ENOMEM, "absurd total");
	big.tail = 1;
	big.i.size = sizeof(big);
	CHECK(fdr_ctl_init(c, &big.i) == -E2BIG, "non-zero unknown tail");
	CHECK(state() == FDR_STATE_UNINITIALIZED, "failed inits changed nothing");
	big.tail = 0;
	CHECK(fdr_ctl_init(c, &big.i) == 0, "larger struct with zero tail");
	CHECK(strstr(fdr_ctl_strerror(c, "init", -EINVAL), "bad sizes"),
	      "bad sizes message");
	tr_destroy(&tr);
	return true;
}

/*
 * A region larger than the file size limit (ulimit -f): growing its
 * object would raise SIGXFSZ, which at its default action would end this
 * test (as it would a traced program).  INIT fails with EFBIG and a
 * message naming the limit, and changes nothing; under a limit it fits,
 * the same INIT succeeds.
 */
static bool test_size_limit(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 65536,
				.buffers_per_cpu = 4 };
	struct rlimit old, lim;
	const char *m;
	struct fdr_ctl *c;
	bool edge;
	int ret;

	CHECK(tr_create(&tr, "fsize", 4096, 1) == 0, "create");
	c = tr.ctl;
	CHECK(fdr_ctl_finalize(c) == 0 && fdr_ctl_reset(c) == 0, "to UNINITIALIZED");
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "getrlimit");
	signal(SIGXFSZ, SIG_DFL);
	lim = (struct rlimit){ 64 << 10, old.rlim_max };	/* soft only: restorable */
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit");
	ret = fdr_ctl_init(c, &cfg);
	m = fdr_ctl_strerror(c, "init", ret);
	/* the rule fdrd's writers share: the limit itself fits, a byte more not */
	edge = fdr__size_limit_check(64 << 10) == 0 &&
	       fdr__size_limit_check((64 << 10) + 1) == -EFBIG;
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK(edge, "fdr__size_limit_check at a 64 KiB limit");
	CHECK(ret == -EFBIG && strstr(m, "ulimit -f") && strstr(m, "bytes"), "%d %s", ret, m);
	CHECK(state() == FDR_STATE_UNINITIALIZED, "the failed init changed nothing");
	lim.rlim_cur = 64 << 20;
	if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur)
		lim.rlim_cur = old.rlim_cur;
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit 64 MiB");
	ret = fdr_ctl_init(c, &cfg);
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK(ret == 0 && state() == FDR_STATE_INITIALIZED, "under a limit it fits: %d", ret);
	tr_destroy(&tr);
	return true;
}

/* Geometry of an embedded region: the device's layout exactly. */
static bool test_layout(void)
{
	const struct fdr_control *c;
	struct stat sb;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char path[128];

	CHECK(tr_create(&tr, "layout", 16384, 3) == 0 && tr_map(&tr) == 0,
	      "create + map");
	c = tr.c;
	CHECK(c->magic == FDR_CONTROL_MAGIC && c->abi_version == FDR_ABI_VERSION &&
	      c->header_size == FDR_CONTROL_HEADER_SIZE, "header");
	CHECK(c->flags & FDR_CTL_EMBEDDED, "EMBEDDED flag");
	CHECK(c->flags & FDR_CTL_CRASH_FINALIZE, "crash finalize by default");
	CHECK(c->nr_cpus == (uint32_t)ncpu && c->buffers_per_cpu == 3 &&
	      c->nr_buffers == 3 * c->nr_cpus, "pools: %u cpus", c->nr_cpus);
	CHECK(c->tsc_hz > 100000000ull, "tsc_hz %llu", (unsigned long long)c->tsc_hz);
	CHECK(c->generation == 1, "generation 1");
	CHECK(c->rings_offset == 256 && c->descs_offset % 64 == 0 &&
	      c->descs_offset >= 256 + 64 * c->nr_cpus, "offsets");
	CHECK(c->control_size % 4096 == 0 &&
	      c->control_size >= c->descs_offset + 64ull * c->nr_buffers,
	      "control size");
	for (uint32_t i = 0; i < c->nr_buffers; i++) {
		const struct fdr_buffer_desc *d = tr_desc(&tr, i);

		CHECK((uintptr_t)d % 64 == 0, "desc %u aligned", i);
		CHECK(d->offset == c->control_size + (uint64_t)i * 16384 &&
		      d->offset % 4096 == 0, "buffer %u offset", i);
		CHECK(d->cpu == i / 3 && d->state == FDR_BUF_FREE &&
		      d->extents == 0, "desc %u fresh", i);
	}
	snprintf(path, sizeof(path), "/dev/shm/fdr-t-layout-%d", getpid());
	CHECK(stat(path, &sb) == 0 &&
	      (uint64_t)sb.st_size == c->control_size + c->nr_buffers * 16384ull,
	      "object size = map size");
	tr_destroy(&tr);
	return true;
}

/*
 * fdr_region_view(): the page's geometry and STATUS's (this one's, and a
 * VER2 caller's, which has no offsets) give the same view; a short
 * mapping, a scribbled page and another ABI are refused with a reason.
 */
static bool test_region_view(void)
{
	struct fdr_region_view page, trusted, old, v;
	struct fdr_control copy[2];
	struct fdr_status st;
	long pg = sysconf(_SC_PAGESIZE);

	CHECK(tr_create(&tr, "view", 16384, 2) == 0 && tr_map(&tr) == 0 &&
	      fdr_ctl_status(tr.ctl, &st) == 0, "create + map + status");
	CHECK(st.size == FDR_STATUS_SIZE_VER3 && st.page_size == (uint32_t)pg &&
	      st.rings_offset == tr.c->rings_offset &&
	      st.descs_offset == tr.c->descs_offset &&
	      st.buffers_offset == tr.c->control_size, "STATUS has the offsets");
	CHECK(fdr_region_view(&page, tr.c, tr.len, NULL) == 0 && !page.why,
	      "view of the page");
	CHECK(fdr_region_view(&trusted, tr.c, tr.len, &st) == 0, "view of STATUS");
	st.size = FDR_STATUS_SIZE_VER2;
	st.descs_offset = 64;	/* past a VER2 caller's struct: never read */
	CHECK(fdr_region_view(&old, tr.c, tr.len, &st) == 0, "view of a VER2 STATUS");
	CHECK(!memcmp(&page, &trusted, sizeof(page)) &&
	      !memcmp(&page, &old, sizeof(page)), "all three agree");
	CHECK(page.base == tr.c && page.len == tr.len &&
	      (char *)page.descs == (char *)tr.c + tr.c->descs_offset &&
	      page.buffers == (unsigned char *)tr.c + tr.c->control_size &&
	      page.map_size == tr.len && page.nr_buffers == 2 * page.nr_cpus,
	      "pointers and sizes");
	CHECK(fdr_region_view(&v, tr.c, page.control_size, NULL) == 0 &&
	      v.descs == page.descs && !v.buffers, "the control area alone: no buffers");
	CHECK(fdr_region_view(&v, tr.c, page.control_size - 1, NULL) == -EBADMSG &&
	      v.why && strstr(v.why, "control_size") && !v.descs, "shorter: refused");
	CHECK(fdr_region_view(&v, NULL, tr.len, NULL) == -EINVAL, "no map");
	memcpy(copy, tr.c, sizeof(copy));
	copy[0].descs_offset = 4096 - 32;
	CHECK(fdr_region_view(&v, copy, page.control_size, NULL) == -EBADMSG &&
	      strstr(v.why, "descriptors"), "scribbled descs_offset: %s", v.why);
	memcpy(copy, tr.c, sizeof(copy));
	copy[0].abi_version = FDR_ABI_VERSION + 1;
	CHECK(fdr_region_view(&v, copy, sizeof(copy), NULL) == -EPROTO,
	      "another ABI version");
	tr_destroy(&tr);
	return true;
}

static bool test_generations(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 4096,
				.buffers_per_cpu = 1 };
	struct fdr_status st;

	CHECK(tr_create(&tr, "gen", 4096, 1) == 0, "create");
	for (uint32_t g = 2; g <= 4; g++) {
		CHECK(fdr_ctl_finalize(tr.ctl) == 0 && fdr_ctl_reset(tr.ctl) == 0,
		      "finalize + reset");
		cfg.buffers_per_cpu = g % 2 + 1;	/* alternate geometry */
		CHECK(fdr_ctl_init(tr.ctl, &cfg) == 0, "init");
		CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && st.generation == g &&
		      st.buffers_per_cpu == cfg.buffers_per_cpu,
		      "generation %u, want %u", st.generation, g);
	}
	tr_destroy(&tr);
	return true;
}

static void *finalize_later(void *arg)
{
	struct timespec ms = { 0, 50 * 1000 * 1000 };
	struct fdr_ctl *c;

	nanosleep(&ms, NULL);
	if (fdr_ctl_open(&c, arg) == 0)
		fdr_ctl_finalize(c);
	fdr_ctl_close(c);
	return NULL;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool test_wait(void)
{
	pthread_t th;
	uint64_t t0;
	int ret;

	CHECK(tr_create(&tr, "wait", 4096, 1) == 0, "create");
	t0 = now_ms();
	ret = fdr_ctl_wait(tr.ctl, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING, 60);
	CHECK(ret == -ETIMEDOUT && now_ms() - t0 >= 59, "timeout: %d", ret);
	CHECK(fdr_ctl_wait(tr.ctl, FDR_STATE_UNINITIALIZED, 0, 1000) == 0,
	      "different state returns at once");
	pthread_create(&th, NULL, finalize_later, tr.target);
	t0 = now_ms();
	ret = fdr_ctl_wait(tr.ctl, FDR_STATE_INITIALIZED, FDR_FLUSH_NOT_FLUSHING,
			   5000);
	pthread_join(th, NULL);
	CHECK(ret == 0 && state() == FDR_STATE_FINALIZED, "woken by finalize");
	CHECK(now_ms() - t0 < 1000, "promptly: %llu ms",
	      (unsigned long long)(now_ms() - t0));
	tr_destroy(&tr);
	return true;
}

static bool test_errors(void)
{
	struct fdr_ctl *c;
	const char *m;
	int ret;

	ret = fdr_ctl_open(&c, "/nonexistent/fdr");
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -ENOENT && strstr(m, "/nonexistent/fdr") &&
	      strstr(m, "is fdr.ko loaded"), "no device: %s", m);
	fdr_ctl_close(c);
	ret = fdr_ctl_open(&c, "/dev/null");
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -ENOTTY && strstr(m, "not an fdr device"), "not fdr: %s", m);
	fdr_ctl_close(c);
	ret = fdr_ctl_open(&c, "embedded:bad/name");
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -EINVAL && strstr(m, "invalid region name"), "name: %s", m);
	fdr_ctl_close(c);
	CHECK(fdr_ctl_open(&c, "embedded:t-absent") == 0, "absent region opens");
	ret = fdr_ctl_finalize(c);
	m = fdr_ctl_strerror(c, "finalize", ret);
	CHECK(ret == -ENOENT && strstr(m, "fdrctl init --embedded t-absent"),
	      "absent: %s", m);
	fdr_ctl_close(c);
	setenv("FDR_TARGET", "embedded:t-from-env", 1);
	CHECK(fdr_ctl_open(&c, NULL) == 0 &&
	      strstr(fdr_ctl_strerror(c, "status", -ENOENT), "t-from-env"),
	      "$FDR_TARGET is the default");
	fdr_ctl_close(c);
	unsetenv("FDR_TARGET");
	return true;
}

/*
 * The embedded backend has no kernel, hence no scheduling area: mapping
 * it says so (ENODATA, a sentence naming the backend) and leaves the
 * region's own mapping alone; --no-sched is accepted and changes nothing.
 */
static bool test_no_sched_area(void)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .flags = FDR_INIT_NO_SCHED,
				.buffer_size = 4096, .buffers_per_cpu = 1 };
	const void *area = (const void *)1;
	struct fdr_status st;
	size_t len = 7;
	const char *m;
	int ret;

	CHECK(tr_create(&tr, "nosched", 4096, 1) == 0 && tr_map(&tr) == 0,
	      "create + map");
	CHECK(fdr_ctl_status(tr.ctl, &st) == 0 && !(st.flags & FDR_CTL_SCHED) &&
	      st.sched_offset == 0 && st.sched_size == 0 && st.sched_records == 0 &&
	      st.sched_overwritten == 0, "status: no scheduling fields");
	ret = fdr_ctl_map_sched(tr.ctl, &area, &len);
	m = fdr_ctl_strerror(tr.ctl, "map sched", ret);
	CHECK(ret == -ENODATA && area == (const void *)1 && len == 7,
	      "map_sched: %d, outputs untouched", ret);
	CHECK(strstr(m, tr.target) && strstr(m, "no scheduling area") &&
	      strstr(m, "embedded backend"), "message: %s", m);
	CHECK(fdr_ctl_map_sched(tr.ctl, NULL, &len) == -EINVAL, "NULL area");
	CHECK(tr.c->magic == FDR_CONTROL_MAGIC, "region mapping kept");
	fdr_ctl_unmap_sched(tr.ctl);
	CHECK(tr.c->magic == FDR_CONTROL_MAGIC, "unmap_sched keeps it too");
	CHECK(fdr_ctl_finalize(tr.ctl) == 0 && fdr_ctl_reset(tr.ctl) == 0 &&
	      fdr_ctl_init(tr.ctl, &cfg) == 0, "init with FDR_INIT_NO_SCHED");
	CHECK(fdr_ctl_map_sched(tr.ctl, &area, &len) == -ENODATA, "still none");
	tr_destroy(&tr);
	CHECK(fdr_ctl_map_sched(NULL, &area, &len) == -EBADF, "NULL handle");
	return true;
}

/* Hand-made objects: garbage, and a valid region of another ABI version. */
static bool test_foreign_objects(void)
{
	struct fdr_ctl *c;
	char path[128], target[96], buf[4096] = "not a region at all";
	const char *m;
	size_t len;
	FILE *f;
	int ret;

	snprintf(target, sizeof(target), "embedded:t-junk-%d", getpid());
	snprintf(path, sizeof(path), "/dev/shm/fdr-t-junk-%d", getpid());
	f = fopen(path, "w");
	CHECK(f && fwrite(buf, sizeof(buf), 1, f) == 1 && fclose(f) == 0, "write");
	ret = fdr_ctl_open(&c, target);
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -EBADMSG && strstr(m, "is not an fdr region"), "junk: %s", m);
	fdr_ctl_close(c);
	CHECK(fdr_attach(target) == -EBADMSG, "attach refuses junk");
	unlink(path);

	CHECK(tr_create(&tr, "abi", 4096, 1) == 0 && tr_map(&tr) == 0, "create");
	len = tr.len;
	{
		/* a copy of a real region, with another ABI version */
		char *copy = malloc(len);

		memcpy(copy, tr.c, len);
		((struct fdr_control *)copy)->abi_version = FDR_ABI_VERSION + 1;
		snprintf(path, sizeof(path), "/dev/shm/fdr-t-abi2-%d", getpid());
		snprintf(target, sizeof(target), "embedded:t-abi2-%d", getpid());
		f = fopen(path, "w");
		CHECK(f && fwrite(copy, len, 1, f) == 1 && fclose(f) == 0, "write");
		free(copy);
	}
	ret = fdr_ctl_open(&c, target);
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -EPROTO && strstr(m, "ABI mismatch"), "abi: %s", m);
	fdr_ctl_close(c);
	CHECK(fdr_attach(target) == -EPROTO, "attach refuses another ABI");
	unlink(path);
	tr_destroy(&tr);
	return true;
}

/* "DEVICE:NAME" targets, and what the session calls say without a device. */
static bool test_session_targets(void)
{
	struct fdr_target t;
	struct fdr_ctl *c;
	const char *m;
	int ret;

	CHECK(fdr__target_parse(&t, "/dev/fdr:run-1.a") == 0 &&
	      !strcmp(t.path, "/dev/fdr") && !strcmp(t.session, "run-1.a"),
	      "device and session: %s, %s", t.path, t.session);
	CHECK(!t.has_owner, "no owner named: the caller's own session");
	CHECK(fdr__target_parse(&t, "/dev/fdr:run-1.a@1001") == 0 &&
	      !strcmp(t.path, "/dev/fdr") && !strcmp(t.session, "run-1.a") &&
	      t.has_owner && t.owner_uid == 1001,
	      "session of an owner: %s, %s, %u", t.path, t.session,
	      t.owner_uid);
	CHECK(fdr__target_parse(&t, "/dev/fdr:a@root") == 0 && t.has_owner &&
	      t.owner_uid == 0, "owner by name");
	CHECK(fdr__target_parse(&t, "/dev/fdr:a@") == -EINVAL &&
	      fdr__target_parse(&t, "/dev/fdr:a@12x") == -EINVAL &&
	      fdr__target_parse(&t, "/dev/fdr:a@no-such-user-fdr") == -EINVAL &&
	      fdr__target_parse(&t, "/dev/fdr:@5") == -EINVAL,
	      "bad owners");
	CHECK(fdr__target_parse(&t, "/dev/fdr") == 0 && !t.session[0],
	      "no session");
	CHECK(fdr__target_parse(&t, "/tmp/a:b/fdr") == 0 &&
	      !strcmp(t.path, "/tmp/a:b/fdr") && !t.session[0],
	      "a colon inside the path is the path's");
	CHECK(fdr__target_parse(&t, "/dev/fdr:.x") == -EINVAL &&
	      fdr__target_parse(&t, "/dev/fdr:") == -EINVAL &&
	      fdr__target_parse(&t, ":x") == -EINVAL, "bad session names");
	ret = fdr_ctl_open(&c, "/dev/fdr:-x");
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -EINVAL && strstr(m, "invalid session name"), "%s", m);
	fdr_ctl_close(c);
	/* A character device that is not fdr refuses the ATTACH. */
	ret = fdr_ctl_open(&c, "/dev/null:run1");
	m = fdr_ctl_strerror(c, "open", ret);
	CHECK(ret == -ENOTTY && strstr(m, "predates sessions"), "%s", m);
	fdr_ctl_close(c);
	CHECK(fdr_ctl_open(&c, "embedded:t-nosession") == 0, "embedded opens");
	ret = fdr_ctl_session_create(c, "x", 0, 0);
	m = fdr_ctl_strerror(c, "session create", ret);
	CHECK(ret == -EOPNOTSUPP && strstr(m, "no sessions"), "%s", m);
	fdr_ctl_close(c);
	return true;
}

int main(void)
{
	tap_plan(11);
	tap_ok(test_transitions(), "every transition, legal and illegal");
	tap_ok(test_bad_configs(), "bad configs are refused and change nothing");
	tap_ok(test_size_limit(), "a region past ulimit -f: EFBIG, the limit named, no SIGXFSZ");
	tap_ok(test_layout(), "embedded region has the device's layout");
	tap_ok(test_region_view(), "the region view: page and STATUS agree, misfits refused");
	tap_ok(test_generations(), "generations count across reset and re-init");
	tap_ok(test_wait(), "wait: timeout and futex wakeup");
	tap_ok(test_errors(), "error messages name the cause");
	tap_ok(test_foreign_objects(), "junk and another ABI version are refused, with reasons");
	tap_ok(test_no_sched_area(), "embedded: no scheduling area, said why; --no-sched accepted");
	tap_ok(test_session_targets(), "DEVICE:NAME targets; session calls refused with reasons");
	return tap_done();
}
