// SPDX-License-Identifier: MIT
/* synth_region.c - see synth_region.h. */
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <linux/fdr_log.h>

#include "synth_region.h"

#define PAGE 4096u

int synth_region_create(struct synth_region *r, uint32_t nr, uint64_t bsize,
			uint32_t flags, uint64_t tsc_hz)
{
	uint64_t descs = 256 + 64;	/* one cpu ring after the header */
	uint64_t control = (descs + (uint64_t)nr * 64 + PAGE - 1) / PAGE * PAGE;
	void *rw, *ro;

	memset(r, 0, sizeof(*r));
	r->len = control + nr * bsize;
	r->fd = memfd_create("synth-region", MFD_CLOEXEC);
	if (r->fd < 0 || ftruncate(r->fd, (off_t)r->len))
		return -1;
	rw = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	ro = mmap(NULL, r->len, PROT_READ, MAP_SHARED, r->fd, 0);
	if (rw == MAP_FAILED || ro == MAP_FAILED)
		return -1;
	r->ctl = rw;
	r->ro = ro;
	r->ctl->magic = FDR_CONTROL_MAGIC;
	r->ctl->abi_version = FDR_ABI_VERSION;
	r->ctl->header_size = sizeof(struct fdr_control);
	r->ctl->generation = 7;
	r->ctl->flags = flags | FDR_CTL_EMBEDDED;
	r->ctl->tsc_hz = tsc_hz;
	r->ctl->buffer_size = bsize;
	r->ctl->nr_cpus = 1;
	r->ctl->buffers_per_cpu = nr;
	r->ctl->nr_buffers = nr;
	r->ctl->rings_offset = 256;
	r->ctl->descs_offset = (uint32_t)descs;
	r->ctl->control_size = control;
	r->ctl->state = FDR_STATE_FINALIZED;
	r->ctl->finalize_reason = FDR_FINALIZE_IOCTL;
	for (uint32_t i = 0; i < nr; i++)
		synth_desc(r, i)->offset = control + i * bsize;
	return 0;
}

void synth_region_destroy(struct synth_region *r)
{
	munmap(r->ctl, r->len);
	munmap((void *)r->ro, r->len);
	close(r->fd);
}

struct fdr_buffer_desc *synth_desc(struct synth_region *r, uint32_t i)
{
	return (struct fdr_buffer_desc *)((uint8_t *)r->ctl + r->ctl->descs_offset) + i;
}

uint8_t *synth_buffer(struct synth_region *r, uint32_t i)
{
	return (uint8_t *)r->ctl + r->ctl->control_size + i * r->ctl->buffer_size;
}

void synth_metadata(uint8_t rec[16], unsigned int kind)
{
	memset(rec, 0, 16);
	rec[0] = FDR_MD_FIRST_BYTE(kind);
}

void synth_function(uint8_t rec[8], unsigned int kind, int32_t fid, uint32_t delta)
{
	uint32_t w0 = FDR_FN_WORD0(kind, fid);

	memcpy(rec, &w0, 4);
	memcpy(rec + 4, &delta, 4);
}

void synth_append(struct synth_region *r, uint32_t i, const void *rec, size_t len)
{
	struct fdr_buffer_desc *d = synth_desc(r, i);

	memcpy(synth_buffer(r, i) + d->extents, rec, len);
	d->extents += len;
}

static void preamble(struct synth_region *r, uint32_t i, int32_t tid,
		     uint16_t cpu, uint64_t tsc)
{
	uint8_t rec[16];
	uint64_t sec = 1700000000;
	uint32_t usec = 250000;

	synth_metadata(rec, FDR_MD_NEW_BUFFER);
	memcpy(rec + 1 + FDR_MD_NEW_BUFFER_TID, &tid, 4);
	synth_append(r, i, rec, 16);
	synth_metadata(rec, FDR_MD_WALLTIME);
	memcpy(rec + 1 + FDR_MD_WALLTIME_SEC, &sec, 8);
	memcpy(rec + 1 + FDR_MD_WALLTIME_USEC, &usec, 4);
	synth_append(r, i, rec, 16);
	synth_metadata(rec, FDR_MD_NEW_CPU_ID);
	memcpy(rec + 1 + FDR_MD_NEW_CPU_ID_CPU, &cpu, 2);
	memcpy(rec + 1 + FDR_MD_NEW_CPU_ID_TSC, &tsc, 8);
	synth_append(r, i, rec, 16);
}

uint8_t *synth_note(struct synth_region *r, uint32_t i, const char *comm,
		    const char *exe)
{
	struct fdr_buffer_desc *d = synth_desc(r, i);
	size_t exe_len = strlen(exe);
	uint32_t size = (uint32_t)((FDR_OWNER_NOTE_MIN + exe_len + 7) / 8 * 8);
	uint8_t *at = synth_buffer(r, i) + r->ctl->buffer_size - size;
	struct fdr_owner_note n = {
		.seq = d->seq, .generation = d->generation, .pid = d->owner_pid,
		.tid = d->owner_tid, .exe_len = (uint16_t)exe_len,
	};
	struct fdr_owner_note_tail tail = { size, FDR_OWNER_NOTE_MAGIC };

	strncpy(n.comm, comm, sizeof(n.comm) - 1);
	memset(at, 0, size);
	memcpy(at, &n, sizeof(n));
	memcpy(at + sizeof(n), exe, exe_len);
	memcpy(at + size - sizeof(tail), &tail, sizeof(tail));
	return at;
}

uint64_t synth_fill(struct synth_region *r, uint32_t i, uint64_t seq,
		    int32_t tid, int32_t pid, uint16_t cpu, uint64_t tsc,
		    int32_t fid, size_t pairs)
{
	struct fdr_buffer_desc *d = synth_desc(r, i);
	uint8_t fn[8];

	d->extents = 0;
	preamble(r, i, tid, cpu, tsc);
	for (size_t p = 0; p < pairs && d->extents + 16 <= r->ctl->buffer_size; p++) {
		synth_function(fn, FDR_FN_ENTER, fid, 1);
		synth_append(r, i, fn, 8);
		synth_function(fn, FDR_FN_EXIT, fid, 2);
		synth_append(r, i, fn, 8);
	}
	d->seq = seq;
	d->owner_tid = tid;
	d->owner_pid = pid;
	d->cpu = cpu;
	d->generation = r->ctl->generation;
	d->state = FDR_BUF_RELEASED;
	return d->extents;
}
