// SPDX-License-Identifier: MIT
/*
 * snapshot_test.c - a writer indexes its region with the geometry that
 * was checked when it mapped the region, not with what the shared control
 * page says later (issue 15, point 5).  A hook rewrites the page's
 * geometry (control_size, buffer_size, offsets, counts) between the map's
 * checks and the region's first use, as any process that maps the region
 * writable could; the writer must still record into the real buffers.
 * Before the fix it took control_size from the page again and wrote 1 TiB
 * past the mapping (SIGSEGV).  Embedded backend (host); the device takes
 * its geometry from the kernel's STATUS, which the VM tests exercise.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"

extern void (*fdr__test_mapped_hook)(void *addr, size_t len);

static struct fdr_control *page, saved;

/* What a hostile process with the region mapped writable could write. */
static void scribble(void *addr, size_t len)
{
	(void)len;
	page = addr;
	saved = *page;
	page->control_size = 1ull << 40;
	page->buffer_size = 1ull << 30;
	page->nr_cpus = 1u << 20;
	page->buffers_per_cpu = 1u << 20;
	page->nr_buffers = 7;
	page->rings_offset = 0x7fffffc0;
	page->descs_offset = 0x7fffffc0;
}

/* Put the geometry back, so the controllers and the test can read it. */
static void unscribble(void)
{
	page->control_size = saved.control_size;
	page->buffer_size = saved.buffer_size;
	page->nr_cpus = saved.nr_cpus;
	page->buffers_per_cpu = saved.buffers_per_cpu;
	page->nr_buffers = saved.nr_buffers;
	page->rings_offset = saved.rings_offset;
	page->descs_offset = saved.descs_offset;
}

static int record_scribbled(const char *target)
{
	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);	/* keep every call */
	fdr__test_mapped_hook = scribble;
	if (fdr_attach(target))
		return 2;
	for (int i = 0; i < 100; i++) {
		fdr_enter(5);
		fdr_exit(5);
	}
	fdr_thread_release();
	unscribble();
	fdr_detach();
	return page ? 0 : 3;	/* 3: the hook never ran */
}

/* The 200 records of fid 5 are in one buffer of the real geometry. */
static bool recorded(struct test_region *tr, char *why, size_t len)
{
	static struct rec recs[512];
	uint32_t idx[16];
	int n = tr_buffers_by_seq(tr, idx, 16), got, fns = 0;
	char err[256];

	if (n != 1) {
		snprintf(why, len, "%d buffers with data, expected 1", n);
		return false;
	}
	got = parse_buffer(tr_buffer(tr, idx[0]), tr_desc(tr, idx[0])->extents,
			   recs, 512, err, sizeof(err));
	for (int i = 0; i < got; i++)
		fns += recs[i].type == REC_FN && recs[i].fid == 5;
	snprintf(why, len, "%d records, %d of function 5%s%s", got, fns,
		 got < 0 ? ": " : "", got < 0 ? err : "");
	return fns == 200;
}

int main(void)
{
	struct test_region tr;
	char why[300];
	int status;
	pid_t pid;

	tap_plan(2);
	if (tr_create(&tr, "snap", 4096, 4)) {
		tap_ok(false, "create an embedded region");
		return tap_done();
	}
	pid = fork();
	if (pid == 0)
		_exit(record_scribbled(tr.target));
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "geometry rewritten after the map's checks: the writer neither "
	       "crashes nor fails (%s %d)", WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	tap_ok(tr_map(&tr) == 0 && recorded(&tr, why, sizeof(why)),
	       "its records are in the region's real buffer (%s)", why);
	tr_destroy(&tr);
	return tap_done();
}
