// SPDX-License-Identifier: MIT
/*
 * test_trusted_layout.c - on the device fdrd lays the log out from the
 * kernel's STATUS, not from the control page any writer can scribble:
 * a scribbled generation, flags, TSC rate or finalize trigger must not
 * reach the log, and a STATUS whose geometry does not fit the mapping is
 * refused.  Without a trusted status (the embedded backend) the control
 * page is read as before.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/fdr_log.h>

#include "layout_facts.h"
#include "log_layout.h"
#include "log_precheck.h"
#include "side_table.h"
#include "synth_region.h"
#include "tap.h"

#define BSIZE 4096u
#define NR 4u
#define TRUE_HZ 2400000000ull

/* What the kernel would say about r: its geometry, as created, finalized
 * by a crash. */
static struct fdr_status kernel_status(const struct synth_region *r)
{
	struct fdr_status st = {
		.size = sizeof(st),
		.state = FDR_STATE_FINALIZED,
		.flush_state = FDR_FLUSH_FLUSHING,
		.flags = FDR_CTL_CONSTANT_TSC | FDR_CTL_NONSTOP_TSC |
			 FDR_CTL_CRASH_FINALIZE,
		.generation = r->ctl->generation,
		.buffers_per_cpu = NR,
		.buffer_size = BSIZE,
		.nr_cpus = 1,
		.nr_buffers = NR,
		.control_size = r->ctl->control_size,
		.map_size = r->len,
		.tsc_hz = TRUE_HZ,
		.finalize_reason = FDR_FINALIZE_CRASH,
		.finalize_signal = 11,
		.finalize_pid = 812,
	};
	return st;
}

/* Three buffers of the true generation, one empty. */
static void make_region(struct synth_region *r)
{
	synth_region_create(r, NR, BSIZE, FDR_CTL_CONSTANT_TSC | FDR_CTL_NONSTOP_TSC,
			    TRUE_HZ);
	r->ctl->flags &= ~FDR_CTL_EMBEDDED;	/* as the kernel makes it */
	r->ctl->flags |= FDR_CTL_CRASH_FINALIZE;
	r->ctl->finalize_reason = FDR_FINALIZE_CRASH;
	r->ctl->finalize_signal = 11;
	r->ctl->finalize_pid = 812;
	synth_fill(r, 0, 5, 100, 90, 0, 1000, 1, 3);
	synth_fill(r, 2, 6, 101, 90, 0, 2000, 2, 4);
	synth_fill(r, 3, 7, 102, 90, 0, 3000, 3, 5);
}

/* The identity words a hostile process can overwrite. */
static void scribble_identity(struct synth_region *r)
{
	r->ctl->generation = 147709966;
	r->ctl->flags = FDR_CTL_EMBEDDED;
	r->ctl->tsc_hz = ~0ull;
	r->ctl->finalize_reason = ~0u;
	r->ctl->finalize_signal = 1000;
	r->ctl->finalize_pid = -1;
}

static void test_scribbled_identity(void)
{
	struct synth_region r;
	struct fdr_status st;
	struct log_layout l;
	const char *why;
	int ret;

	make_region(&r);
	st = kernel_status(&r);
	scribble_identity(&r);

	ret = log_layout_build(r.ro, r.len, &st, &l, &why);
	tap_ok(ret == 0 && l.nr_buffers == 3 && l.nr_other_generation == 0 &&
	       l.generation == 7,
	       "trusted STATUS: the buffers of the true generation are selected "
	       "(%zu kept, %zu of another generation, generation %u)",
	       l.nr_buffers, l.nr_other_generation, l.generation);
	tap_ok(l.records == (3 + 6) + (3 + 8) + (3 + 10),
	       "trusted STATUS: every record of them (%llu)",
	       (unsigned long long)l.records);
	tap_ok(l.header.cycle_frequency == TRUE_HZ &&
	       l.header.flags == (FDR_LOG_FLAG_CONSTANT_TSC | FDR_LOG_FLAG_NONSTOP_TSC) &&
	       l.header.buffer_size == BSIZE,
	       "trusted STATUS: header has the kernel's TSC rate, flags and buffer size "
	       "(%llu, %u)", (unsigned long long)l.header.cycle_frequency, l.header.flags);
	tap_ok(l.finalize_reason == FDR_FINALIZE_CRASH && l.finalize_signal == 11 &&
	       l.finalize_pid == 812,
	       "trusted STATUS: finalize reason, signal and pid are the kernel's "
	       "(%u, %u, %d)", l.finalize_reason, l.finalize_signal, l.finalize_pid);
	log_layout_free(&l);

	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(ret == 0 && l.nr_buffers == 0 && l.nr_other_generation == 3 &&
	       l.generation == 147709966 && l.header.cycle_frequency == ~0ull &&
	       l.header.flags == 0 && l.finalize_reason == ~0u && l.finalize_pid == -1,
	       "no trusted status: the control page is read as before "
	       "(generation %u, %zu buffers of another generation)",
	       l.generation, l.nr_other_generation);
	log_layout_free(&l);
	synth_region_destroy(&r);
}

/*
 * A trigger: what fired it (tid, fid, duration) comes from STATUS VER2
 * too, never from a control page scribbled to blame another thread or
 * function; side table and log message read the layout's copy.
 */
static void test_scribbled_trigger(void)
{
	struct synth_region r;
	struct fdr_status st;
	struct log_layout l;
	const char *why;
	size_t len;
	char *text;
	int ret;

	make_region(&r);
	st = kernel_status(&r);
	st.finalize_reason = FDR_FINALIZE_TRIGGER;
	st.finalize_signal = 0;
	st.finalize_pid = 812;
	st.finalize_tid = 813;
	st.finalize_fid = 12;
	st.finalize_duration_ns = 20300000;
	r.ctl->finalize_reason = FDR_FINALIZE_TRIGGER;
	r.ctl->finalize_signal = 0;
	r.ctl->finalize_pid = 666;
	r.ctl->finalize_tid = 667;
	r.ctl->finalize_fid = 99;
	r.ctl->finalize_duration_ns = 1;

	ret = log_layout_build(r.ro, r.len, &st, &l, &why);
	tap_ok(ret == 0 && l.finalize_reason == FDR_FINALIZE_TRIGGER &&
	       l.finalize_pid == 812 && l.finalize_tid == 813 && l.finalize_fid == 12 &&
	       l.finalize_duration_ns == 20300000,
	       "trusted STATUS: the trigger's pid, tid, fid and duration are the kernel's "
	       "(%d, %d, %d, %llu)", l.finalize_pid, l.finalize_tid, l.finalize_fid,
	       (unsigned long long)l.finalize_duration_ns);
	text = side_table_render(&l, "t.xray", "/nonexistent", &len);
	tap_ok(text && strstr(text, "\nfinalize\ttrigger\tsignal\t0\t-\tpid\t812\tcomm\tunknown"
				    "\ttid\t813\tfid\t12\tduration_ns\t20300000\n"),
	       "side table: the kernel's trigger, not the scribbled page's");
	if (text && !strstr(text, "\tfid\t12\t"))
		tap_diag("%s", text);
	free(text);
	log_layout_free(&l);

	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(l.finalize_tid == 667 && l.finalize_fid == 99 && l.finalize_duration_ns == 1,
	       "no trusted status (embedded): the trigger from the control page (%d, %d, %llu)",
	       l.finalize_tid, l.finalize_fid, (unsigned long long)l.finalize_duration_ns);
	log_layout_free(&l);
	synth_region_destroy(&r);
}

/* With STATUS the control page's header is never looked at. */
static void test_scribbled_geometry(void)
{
	struct synth_region r;
	struct fdr_status st;
	struct log_layout l;
	const char *why;
	int ret;

	make_region(&r);
	st = kernel_status(&r);
	r.ctl->magic = 0x0BADF00D;
	r.ctl->nr_buffers = ~0u;
	r.ctl->descs_offset = (uint32_t)r.len - 8;
	r.ctl->control_size = ~0ull;
	r.ctl->buffer_size = 1ull << 40;

	ret = log_layout_build(r.ro, r.len, &st, &l, &why);
	tap_ok(ret == 0 && l.nr_buffers == 3 && l.nr_descs == NR,
	       "trusted STATUS: a scribbled header geometry does not matter "
	       "(%zu buffers, %u descriptors)", l.nr_buffers, l.nr_descs);
	log_layout_free(&l);
	ret = log_layout_build(r.ro, r.len, NULL, &l, &why);
	tap_ok(ret < 0 && why && strstr(why, "magic"),
	       "no trusted status: the scribbled header is refused (%s)", why ? why : "-");
	synth_region_destroy(&r);
}

/* Refused, and the reason says the kernel's numbers did not fit. */
static void expect_misfit(struct synth_region *r, const struct fdr_status *st,
			  size_t len, const char *reason, const char *what)
{
	struct log_layout l;
	const char *why = NULL;
	int ret = log_layout_build(r->ro, len, st, &l, &why);

	tap_ok(ret < 0 && why && strstr(why, "STATUS") && strstr(why, reason),
	       "trusted STATUS with %s refused (%s)", what, why ? why : "accepted");
	if (!ret)
		log_layout_free(&l);
}

static void expect_fit(struct synth_region *r, const struct fdr_status *st,
		       const char *what)
{
	struct log_layout l;
	const char *why = NULL;
	int ret = log_layout_build(r->ro, r->len, st, &l, &why);

	tap_ok(ret == 0 && l.nr_buffers == 3 && l.nr_descs == NR,
	       "trusted STATUS: %s lays out (%s)", what, ret ? why : "3 buffers");
	if (!ret)
		log_layout_free(&l);
}

static void test_status_misfit(void)
{
	struct synth_region r;
	struct fdr_status st, bad;

	make_region(&r);
	st = kernel_status(&r);
	expect_misfit(&r, &st, r.len - 1, "buffers outside the mapping",
		      "a mapping one byte short");
	bad = st;
	bad.nr_buffers = NR + 1;
	expect_misfit(&r, &bad, r.len, "nr_buffers is not nr_cpus * buffers_per_cpu",
		      "one buffer more than the mapping holds");
	bad = st;
	bad.buffer_size = 1ull << 40;
	expect_misfit(&r, &bad, r.len, "map_size is not control_size",
		      "a 1 TiB buffer size");
	bad = st;
	bad.buffer_size = 1000;
	expect_misfit(&r, &bad, r.len, "page multiple", "buffer_size 1000");
	bad = st;
	bad.control_size = r.len + BSIZE;
	expect_misfit(&r, &bad, r.len, "control_size outside the mapping",
		      "a control area larger than the mapping");
	bad = st;
	bad.nr_cpus = 1u << 30;
	expect_misfit(&r, &bad, r.len, "nr_cpus * buffers_per_cpu overflows",
		      "2^30 CPU rings before the descriptors");
	bad = st;
	bad.nr_buffers = 1u << 30;
	expect_misfit(&r, &bad, r.len, "descriptors outside the control area",
		      "2^30 descriptors");
	synth_region_destroy(&r);
}

/* A VER3 STATUS names the offsets, which are checked like the rest; an
 * older one (smaller size) gets the ABI's, whatever lies past its size. */
static void test_status_offsets(void)
{
	struct synth_region r;
	struct fdr_status st, bad;

	make_region(&r);
	st = kernel_status(&r);
	st.page_size = BSIZE;
	st.rings_offset = r.ctl->rings_offset;
	st.descs_offset = r.ctl->descs_offset;
	st.buffers_offset = r.ctl->control_size;
	expect_fit(&r, &st, "a VER3 STATUS with the offsets");
	bad = st;
	bad.size = FDR_STATUS_SIZE_VER2;
	bad.descs_offset = 12345;
	bad.buffers_offset = 7;
	expect_fit(&r, &bad, "a VER2 STATUS (nothing read past its size)");
	bad = st;
	bad.descs_offset = (uint32_t)r.ctl->control_size - 64;
	expect_misfit(&r, &bad, r.len, "descriptors outside the control area",
		      "descriptors at the end of the control area");
	bad = st;
	bad.rings_offset = 64;
	expect_misfit(&r, &bad, r.len, "rings outside the control area",
		      "rings inside the header");
	bad = st;
	bad.buffers_offset = st.control_size + BSIZE;
	expect_misfit(&r, &bad, r.len, "buffers_offset", "buffers_offset past control_size");
	bad = st;
	bad.page_size = 3000;
	expect_misfit(&r, &bad, r.len, "page size", "a page size of 3000");
	synth_region_destroy(&r);
}

/* The grace-period walks use the same facts, and so are reused. */
static void test_precheck_trusted(void)
{
	struct synth_region r;
	struct fdr_status st;
	struct log_precheck pc;
	struct log_layout l;
	const char *why;
	size_t reused = 0;
	int ret;

	make_region(&r);
	st = kernel_status(&r);
	scribble_identity(&r);
	r.ctl->nr_buffers = 1;
	ret = log_precheck_build(r.ro, r.len, &st, &pc);
	tap_ok(ret == 0 && pc.nr == NR,
	       "precheck sized from STATUS, not the scribbled nr_buffers (%u)", pc.nr);
	if (log_layout_select(r.ro, r.len, &st, &l, &why) == 0) {
		reused = log_precheck_apply(&l, &pc);
		log_layout_free(&l);
	}
	tap_ok(reused == 3, "grace-period walks of the true generation reused (%zu)",
	       reused);
	log_precheck_free(&pc);
	synth_region_destroy(&r);
}

static void test_which_status(void)
{
	struct fdr_status dev = { .flags = FDR_CTL_CONSTANT_TSC };
	struct fdr_status emb = { .flags = FDR_CTL_EMBEDDED | FDR_CTL_CONSTANT_TSC };

	tap_ok(layout_trusted_status(&dev) == &dev && !layout_trusted_status(&emb) &&
	       !layout_trusted_status(NULL),
	       "the device's STATUS is trusted, the embedded backend's is not");
}

int main(void)
{
	test_scribbled_identity();
	test_scribbled_trigger();
	test_scribbled_geometry();
	test_status_offsets();
	test_status_misfit();
	test_precheck_trusted();
	test_which_status();
	return tap_done();
}
