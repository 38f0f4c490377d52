// SPDX-License-Identifier: GPL-2.0
/*
 * region.c - allocation, layout and lifetime of one INIT's region.
 *
 * The control area is vmalloc memory (the kernel needs it contiguous in
 * its own address space); each buffer is a run of order-0
 * pages from its CPU's NUMA node.  Userspace sees one contiguous range
 * because mmap inserts the page array in offset order.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "fdr_dev.h"
#include "region.h"
#include "sched.h"
#include "tsc.h"

/**
 * fdr_region_layout - the sizes of the region INIT with @cfg would make
 * @cfg: the INIT request
 * @p: the INIT's copy of the parameters
 * @sched: with a scheduling area
 * @l: filled on success (no slot reserved yet)
 *
 * Return: 0, -EINVAL for a malformed size, -ENOMEM for a region larger
 * than max_total_mb or half of RAM, or whose arithmetic overflows.
 */
int fdr_region_layout(const struct fdr_init *cfg,
		      const struct fdr_init_params *p, bool sched,
		      struct fdr_layout *l)
{
	int err;

	memset(l, 0, sizeof(*l));
	l->sched_slot = -1;
	if (!cfg->buffer_size || !IS_ALIGNED(cfg->buffer_size, PAGE_SIZE) ||
	    !cfg->buffers_per_cpu)
		return -EINVAL;

	/* One pool per possible CPU id, so a CPU id indexes its ring. */
	l->nr_cpus = nr_cpu_ids;
	/* The sizes are valid: only an overflow fails here. */
	if (fdr_region_offsets_compute(l->nr_cpus, cfg->buffers_per_cpu,
				       cfg->buffer_size, PAGE_SIZE, &l->off))
		return -ENOMEM;

	if (sched) {
		err = fdr_sched_geometry(p->sched_ring_bytes, &l->sched);
		if (err)
			return err;
	}
	if (check_add_overflow(l->off.map_size, l->sched.size, &l->bytes))
		return -ENOMEM;

	/* Trace buffers are never worth more than half of the machine. */
	if (l->bytes > p->max_total_bytes ||
	    (l->bytes >> PAGE_SHIFT) > totalram_pages() / 2)
		return -ENOMEM;
	return 0;
}

/**
 * fdr_layout_drop_sched - no scheduling area after all
 * @l: a layout with one; no slot was left for it
 *
 * Nor its memory: the region is accounted and allocated without it.
 */
void fdr_layout_drop_sched(struct fdr_layout *l)
{
	l->bytes -= l->sched.size;
	memset(&l->sched, 0, sizeof(l->sched));
	l->sched_slot = -1;
}

/* The node whose memory a buffer of @cpu should use. */
static int fdr_cpu_node(u32 cpu)
{
	int nid = cpu_possible(cpu) ? cpu_to_node(cpu) : NUMA_NO_NODE;

	if (nid != NUMA_NO_NODE && !node_online(nid))
		nid = NUMA_NO_NODE;
	return nid;
}

/*
 * A zeroed page, from @nid if it has one, else from anywhere: a trace
 * on remote memory beats no trace.  No OOM kill, no warning: a failed
 * INIT is an ordinary -ENOMEM for the caller.
 */
static struct page *fdr_alloc_buffer_page(int nid)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
			  __GFP_RETRY_MAYFAIL;
	struct page *page = NULL;

	if (nid != NUMA_NO_NODE)
		page = alloc_pages_node(nid, gfp | __GFP_THISNODE, 0);
	if (!page)
		page = alloc_pages_node(nid, gfp, 0);
	return page;
}

/*
 * Page by page, with a scheduling point and a fatal-signal check after
 * each: a single buffer may be most of RAM, and a killed INIT caller
 * must not wait for all of it.  On error the caller frees what is there.
 */
static int fdr_region_alloc_buffers(struct fdr_region *r)
{
	unsigned long per_buffer = r->buffer_size >> PAGE_SHIFT;
	unsigned long i, p;

	for (i = 0; i < r->nr_buffers; i++) {
		int nid = fdr_cpu_node(i / r->buffers_per_cpu);
		unsigned long first = r->nr_ctl_pages + i * per_buffer;

		for (p = first; p < first + per_buffer; p++) {
			r->pages[p] = fdr_alloc_buffer_page(nid);
			if (!r->pages[p])
				return -ENOMEM;
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return 0;
}

static int fdr_region_alloc_control(struct fdr_region *r)
{
	unsigned long i;

	/* Zeroed: the pages go to userspace.  No warning on failure. */
	r->ctl = __vmalloc(r->control_size, GFP_KERNEL | __GFP_ZERO |
			   __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
	if (!r->ctl)
		return -ENOMEM;
	for (i = 0; i < r->nr_ctl_pages; i++)
		r->pages[i] = vmalloc_to_page((char *)r->ctl + i * PAGE_SIZE);
	return 0;
}

/* Geometry and descriptors; the state line is the state machine's. */
static void fdr_region_fill_control(struct fdr_region *r)
{
	struct fdr_control *c = r->ctl;
	unsigned long per_buffer = r->buffer_size >> PAGE_SHIFT;
	u32 i;

	c->magic = FDR_CONTROL_MAGIC;
	c->abi_version = FDR_ABI_VERSION;
	c->header_size = sizeof(*c);
	c->generation = r->generation;
	c->flags = r->flags;
	c->tsc_hz = fdr_tsc_hz();
	c->buffer_size = r->buffer_size;
	c->nr_cpus = r->nr_cpus;
	c->buffers_per_cpu = r->buffers_per_cpu;
	c->nr_buffers = r->nr_buffers;
	c->rings_offset = r->rings_offset;
	c->descs_offset = r->descs_offset;
	c->control_size = r->control_size;

	for (i = 0; i < r->nr_buffers; i++) {
		struct fdr_buffer_desc *d = fdr_region_desc(r, i);
		struct page *first = r->pages[r->nr_ctl_pages + i * per_buffer];

		d->cpu = i / r->buffers_per_cpu;
		/* Where the pages really are, even after a fallback. */
		d->node = page_to_nid(first);
		d->offset = r->control_size + (u64)i * r->buffer_size;
	}
}

/*
 * Who reads @r's scheduling area, so whom its records may name: a named
 * session's owner, as seen at INIT; the default session's INIT caller,
 * but with no privilege unless only CAP_SYS_ADMIN may open the device
 * (every dev_gid member may map the default session's area).  The
 * capability counts only when the owner itself does the INIT: root
 * INITing a user's session does not lend the user its sight.
 */
static void fdr_region_viewer(struct fdr_region *r, const struct fdr_dev *dev)
{
	kuid_t euid = current_euid();

	if (dev->is_session) {
		r->viewer_uid = dev->owner;
		r->viewer_sees_all = uid_eq(euid, dev->owner) &&
				     perfmon_capable();
	} else {
		r->viewer_uid = euid;
		r->viewer_sees_all = !gid_valid(fdr_param_dev_gid()) &&
				     perfmon_capable();
	}
}

/*
 * The memory.  Pages still mapped by a revoked writer (or a process that
 * forked from one as it was revoked) keep the references vm_insert_page()
 * took, so dropping ours here frees nothing that is mapped.
 */
static void fdr_region_free_pages(struct fdr_region *r)
{
	unsigned long i;

	if (r->pages) {
		for (i = r->nr_ctl_pages; i < r->nr_pages; i++)
			if (r->pages[i])
				__free_page(r->pages[i]);
		kvfree(r->pages);
		r->pages = NULL;
	}
	vfree(r->ctl);
	r->ctl = NULL;
	fdr_sched_free(r);
}

static void fdr_region_free(struct fdr_region *r)
{
	fdr_region_free_pages(r);
	mutex_destroy(&r->mms_lock);
	if (r->pid_ns)
		put_pid_ns(r->pid_ns);
	kfree(r);
}

/**
 * fdr_region_create - allocate and lay out a region for @cfg.
 * @dev: the device the region belongs to
 * @cfg: the INIT request
 * @l: its layout from fdr_region_layout(), the one that was accounted
 * @ctl_flags: FDR_CTL_* bits besides the TSC ones
 * @generation: the generation this INIT starts
 *
 * Return: the region with one reference (and @l's scheduling slot, if
 * any), or an ERR_PTR; on error nothing stays allocated and the slot
 * stays the caller's.
 */
struct fdr_region *fdr_region_create(struct fdr_dev *dev,
				     const struct fdr_init *cfg,
				     const struct fdr_layout *l,
				     u32 ctl_flags, u32 generation)
{
	struct fdr_region *r;
	int err;

	/* Nothing of an empty layout: a page array and pages of size 0. */
	if (!l->off.map_size || !l->off.nr_buffers ||
	    l->off.map_size != l->off.buffers +
			       (u64)l->off.nr_buffers * cfg->buffer_size)
		return ERR_PTR(-EINVAL);

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	kref_init(&r->ref);
	kref_init(&r->pages_ref);
	r->dev = dev;
	r->buffer_size = cfg->buffer_size;
	r->buffers_per_cpu = cfg->buffers_per_cpu;
	r->sched_slot = -1;
	r->nr_cpus = l->nr_cpus;
	r->nr_buffers = l->off.nr_buffers;
	r->rings_offset = l->off.rings;
	r->descs_offset = l->off.descs;
	r->control_size = l->off.buffers;
	r->map_size = l->off.map_size;
	r->nr_pages = r->map_size >> PAGE_SHIFT;
	r->nr_ctl_pages = r->control_size >> PAGE_SHIFT;
	r->flags = ctl_flags | fdr_tsc_flags();
	r->generation = generation;
	r->trigger_ns = cfg->trigger_ns;
	r->trigger_fid = cfg->trigger_fid;
	r->trigger_holdoff_ms = cfg->trigger_holdoff_ms;
	r->pid_ns = get_pid_ns(task_active_pid_ns(current));
	fdr_region_viewer(r, dev);
	mutex_init(&r->mms_lock);
	hash_init(r->mms);

	r->pages = kvcalloc(r->nr_pages, sizeof(*r->pages),
			    GFP_KERNEL | __GFP_NOWARN);
	if (!r->pages) {
		err = -ENOMEM;
		goto fail;
	}
	err = fdr_region_alloc_control(r);
	if (!err)
		err = fdr_region_alloc_buffers(r);
	if (!err && l->sched.size)
		err = fdr_sched_alloc(r, &l->sched);
	if (err)
		goto fail;
	if (r->sched) {
		r->flags |= FDR_CTL_SCHED;
		r->sched_slot = l->sched_slot;
	}
	fdr_region_fill_control(r);
	return r;

fail:
	fdr_region_free(r);
	return ERR_PTR(err);
}

/* The struct and its memory: the device and every mapping. */
void fdr_region_get(struct fdr_region *region)
{
	kref_get(&region->ref);
	kref_get(&region->pages_ref);
}

static void fdr_region_release(struct kref *ref)
{
	fdr_region_free(container_of(ref, struct fdr_region, ref));
}

/* The last user of the memory is gone: it goes, and stops counting. */
static void fdr_region_pages_release(struct kref *ref)
{
	struct fdr_region *r = container_of(ref, struct fdr_region,
					    pages_ref);

	fdr_account_release(r->dev, r->accounted);
	fdr_region_free_pages(r);
}

void fdr_region_put(struct fdr_region *region)
{
	fdr_region_put_pages(region);
	fdr_region_unhold(region);
}

/**
 * fdr_region_hold - a reference to @region's struct alone
 * @region: the region
 *
 * What a revoked writer's mapping holds: the geometry and region->mms
 * stay valid, the memory may go.  Dropped with fdr_region_unhold().
 */
void fdr_region_hold(struct fdr_region *region)
{
	kref_get(&region->ref);
}

/**
 * fdr_region_unhold - drop a fdr_region_hold() reference
 * @region: the region; freed if that was the last reference
 */
void fdr_region_unhold(struct fdr_region *region)
{
	kref_put(&region->ref, fdr_region_release);
}

/**
 * fdr_region_put_pages - drop a memory reference, keep the struct one
 * @region: the region
 *
 * A revoke turns a writer's mapping's fdr_region_get() into a
 * fdr_region_hold() this way; the last memory reference frees the pages
 * and gives the accounting back.
 */
void fdr_region_put_pages(struct fdr_region *region)
{
	kref_put(&region->pages_ref, fdr_region_pages_release);
}
