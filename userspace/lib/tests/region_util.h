/* SPDX-License-Identifier: MIT */
/*
 * region_util.h - test helpers: make a private embedded region, and read
 * back what writers put in its buffers, record by record, with libfdrread
 * (the logs' reader), which checks the XRay FDR v2 grammar on the way.
 */
#ifndef FDR_REGION_UTIL_H
#define FDR_REGION_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fdr.h>

struct test_region {
	/* the view of c, from STATUS at map time: tr_desc() and tr_buffer()
	 * index with it, as a reader must, not with the page */
	struct fdr_region_view view;
	char target[96];
	struct fdr_ctl *ctl;
	const struct fdr_control *c;	/* read-only map, after tr_map() */
	size_t len;
};

/* A fresh region "embedded:t-TAG-PID", initialized; 0 or -errno. */
int tr_create(struct test_region *tr, const char *tag, uint64_t buffer_size,
	      uint32_t buffers_per_cpu);
/* The same with a whole struct fdr_init (e.g. a latency trigger). */
int tr_create_cfg(struct test_region *tr, const char *tag,
		  const struct fdr_init *cfg);
/* /dev/fdr (or $FDR_TARGET), brought to UNINITIALIZED then initialized. */
int tr_open_device(struct test_region *tr, uint64_t buffer_size,
		   uint32_t buffers_per_cpu);
int tr_open_device_cfg(struct test_region *tr, const struct fdr_init *cfg);
/* Any state -> UNINITIALIZED through the legal transitions. */
int tr_to_uninitialized(struct fdr_ctl *ctl);
int tr_map(struct test_region *tr);
void tr_destroy(struct test_region *tr);

const struct fdr_buffer_desc *tr_desc(const struct test_region *tr,
				      uint32_t i);
const uint8_t *tr_buffer(const struct test_region *tr, uint32_t i);

enum rec_type {
	REC_FN, REC_NEW_BUFFER, REC_WALLTIME, REC_NEW_CPU, REC_TSC_WRAP,
	REC_CALL_ARG, REC_CUSTOM,
};

/* One decoded record; tsc is reconstructed as llvm-xray does (§3.1). */
struct rec {
	enum rec_type type;
	uint32_t fn_kind;	/* FDR_FN_* for REC_FN */
	uint32_t fid;
	uint32_t delta;
	uint64_t tsc;		/* REC_FN: reconstructed; metadata: its TSC */
	uint16_t cpu;
	int32_t tid;		/* REC_NEW_BUFFER */
	uint64_t sec;		/* REC_WALLTIME */
	uint32_t usec;
	uint64_t arg;		/* REC_CALL_ARG */
	int32_t ev_size;	/* REC_CUSTOM */
	const uint8_t *ev_data;
	uint64_t offset;	/* in the buffer */
};

/*
 * Decode `extents` bytes of a buffer as libfdrread reads it in a log
 * (verified first).  Returns the number of records (at most max) or -1
 * with a reason in err (grammar or framing error).
 */
int parse_buffer(const uint8_t *data, uint64_t extents, struct rec *out,
		 int max, char *err, size_t errlen);

/* Indexes of the buffers with extents > 0, in seq order; returns count. */
/* Bytes the owner note takes at the end of each buffer of this size, from
 * this process's executable path (computed here independently of libfdr,
 * from uapi/linux/fdr.h's rules). */
uint64_t tr_note_size(uint64_t buffer_size);
int tr_buffers_by_seq(const struct test_region *tr, uint32_t *idx, int max);

/* This process's writable shared mappings of a whole region of target
 * (the device node, or the shm object of "embedded:NAME"), current or
 * replaced. */
int writable_mappings(const char *target);

/*
 * A long-lived writer (this process, attached to tr's target and holding
 * a buffer) through n re-inits of tr's target, the geometry alternating
 * between two buffer sizes: after each it must record (one Enter, fid i)
 * in the new region, and at the end its writable mappings must be as many
 * as before.  false, with TAP diagnostics, otherwise.
 */
bool tr_follow_reinits(struct test_region *tr, int n);

/*
 * Two child processes record `pairs` Enter/Exit pairs each into tr's
 * region at once (this process detaches first): both must exit 0, every
 * buffer with data must be RELEASED, owned by a child and hold only that
 * child's function ids, and every record of both must be there.
 */
bool tr_two_processes(struct test_region *tr, int pairs);

/* Count REC_FN records of one kind in a record array. */
int count_fn(const struct rec *r, int n, uint32_t kind);

/* Run the calling thread on `cpu` only (migration and pool tests). */
void tr_pin_cpu(int cpu);

/* The clock of the slow and fast calls the trigger tests make. */
uint64_t tr_now_ns(void);		/* CLOCK_MONOTONIC */
void tr_spin_ns(uint64_t ns);		/* busy for ns */
void tr_sleep_ms(unsigned ms);		/* nanosleep */

#endif
