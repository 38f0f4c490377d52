/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the files of libfdr share and nobody else sees.
 */
#ifndef FDR_INTERNAL_H
#define FDR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/fdr.h>
#include "fdr.h"

/*
 * Exported from libfdr.so; everything else is hidden (-fvisibility=hidden).
 * No function of the library is instrumented (__FDR_NO_INSTRUMENT, from
 * linux/fdr.h): adapters call it from trace hooks.
 */
#define FDR_API __attribute__((visibility("default"))) __FDR_NO_INSTRUMENT

#define FDR_EMBEDDED_SHM_PREFIX	"/fdr-"
#define FDR_SHM_DIR		"/dev/shm"
#define FDR_EMBEDDED_DEFAULT_BUFFER_SIZE	(64u * 1024)
#define FDR_EMBEDDED_DEFAULT_BUFFERS_PER_CPU	8u
#define FDR_NAME_MAX		200

/* ---- targets (target.c) ---- */

enum fdr_target_kind { FDR_TARGET_DEVICE, FDR_TARGET_EMBEDDED };

struct fdr_target {
	enum fdr_target_kind kind;
	char spec[FDR_NAME_MAX + 16];	/* as given, for messages */
	char path[FDR_NAME_MAX + 16];	/* device node or /dev/shm/fdr-NAME */
	char shm_name[FDR_NAME_MAX + 8];/* "/fdr-NAME" for shm_open */
	char session[FDR_SESSION_NAME_MAX];	/* "DEVICE:NAME"; "" if none */
	/* "DEVICE:NAME@OWNER": the owner a writer expects (else itself) */
	bool has_owner;
	uint32_t owner_uid;
};

int fdr__target_parse(struct fdr_target *t, const char *spec);
/* AT_SECURE: the caller's environment and rights do not count (target.c). */
bool fdr__secure_exec(void);
int fdr__target_allowed(const struct fdr_target *t, char *detail, size_t len);

/* ---- named sessions (session.c) ---- */

/* Bind ctl's open device file to target.session; 0 or -errno. */
int fdr__session_attach(struct fdr_ctl *ctl);
/* A sentence for err if it is about the session (NULL if not). */
const char *fdr__session_strerror(const struct fdr_ctl *ctl, const char *op,
				  int err, char *msg, size_t len);

/* ---- region geometry (layout.c) ---- */

struct fdr_geometry {
	uint64_t buffer_size;
	uint32_t nr_cpus;
	uint32_t buffers_per_cpu;
	uint32_t nr_buffers;
	uint32_t rings_offset;
	uint32_t descs_offset;
	uint64_t control_size;
	uint64_t map_size;
};

size_t fdr__page_size(void);
int fdr__geometry_compute(struct fdr_geometry *g, uint64_t buffer_size,
			  uint32_t buffers_per_cpu, uint32_t nr_cpus);
/* Two views (fdr_region_view) describe the same region. */
bool fdr__view_same_geometry(const struct fdr_region_view *a,
			     const struct fdr_region_view *b);
/* copy_struct_from_user()'s rules for a sized struct (layout.c). */
int fdr__copy_sized(void *dst, size_t ksize, const void *src, size_t usize,
		    size_t min);
int fdr__init_cfg_check(const struct fdr_init *cfg, struct fdr_init *out,
			char *why, size_t len);

/* ---- TSC frequency for the embedded backend (tsc_hz.c) ---- */

uint64_t fdr__tsc_hz(void);
uint32_t fdr__tsc_flags(void);

/* ---- control handle (ctl*.c) ---- */

struct fdr_ctl_ops;

struct fdr_ctl {
	struct fdr_target target;
	const struct fdr_ctl_ops *ops;
	int fd;			/* device, or the shm object; -1 if none */
	dev_t shm_dev;		/* identity of the open shm object */
	ino_t shm_ino;
	struct fdr_control *ectl; /* embedded: writable control area */
	size_t ectl_len;
	uint64_t shm_size;	/* embedded: size of the open object */
	void *map;		/* fdr_ctl_map() mapping */
	size_t map_len;
	bool map_writable;	/* fdr_ctl_map_stream(): map_view holds */
	struct fdr_region_view map_view;	/* its checked view */
	void *sched_map;	/* fdr_ctl_map_sched() mapping */
	size_t sched_len;
	int last_errno;		/* context for fdr_ctl_strerror() */
	bool session_refused;	/* the open failed at the session's ATTACH */
	uint32_t init_flags;	/* of the last fdr_ctl_init(), for its error */
	char detail[320];	/* extra words about the last error */
};

struct fdr_ctl_ops {
	int (*open)(struct fdr_ctl *ctl);
	int (*init)(struct fdr_ctl *ctl, const struct fdr_init *cfg);
	int (*finalize)(struct fdr_ctl *ctl);
	int (*flush_begin)(struct fdr_ctl *ctl);
	int (*flush_done)(struct fdr_ctl *ctl);
	int (*flush_abort)(struct fdr_ctl *ctl);
	int (*flush_force_abort)(struct fdr_ctl *ctl);
	int (*reset)(struct fdr_ctl *ctl);
	/* trig: checked, in our size */
	int (*trigger)(struct fdr_ctl *ctl, const struct fdr_trigger *trig);
	int (*status)(struct fdr_ctl *ctl, struct fdr_status *st);
	int (*wait)(struct fdr_ctl *ctl, uint32_t state, uint32_t flush_state,
		    int timeout_ms);
	/* state and generation, never blocking (for writers) */
	int (*peek)(struct fdr_ctl *ctl, uint32_t *state, uint32_t *generation);
	/*
	 * map the whole current region; prot is PROT_READ or PROT_READ|WRITE.
	 * view (NULL for readers) gets the view to index with, taken once:
	 * from the kernel's STATUS on the device, from the page otherwise.
	 */
	int (*map)(struct fdr_ctl *ctl, int prot, void **addr, size_t *len,
		   struct fdr_region_view *view);
	/* what this process stores as owner_pid in the current region */
	pid_t (*owner_pid)(struct fdr_ctl *ctl);
	/* map the scheduling area read-only; -ENODATA (detail says why) if none */
	int (*map_sched)(struct fdr_ctl *ctl, void **addr, size_t *len);
};

extern const struct fdr_ctl_ops fdr__device_ops;
extern const struct fdr_ctl_ops fdr__embedded_ops;

/* Map the current region writable, for recording, and its geometry (attach.c). */
/* Remember ret as the last error (fdr_ctl_strerror); returns it. */
int fdr__ctl_note(struct fdr_ctl *ctl, int ret);
void fdr__ctl_unmap_region(struct fdr_ctl *ctl);
int fdr__ctl_map_rw(struct fdr_ctl *ctl, void **addr, size_t *len,
		    struct fdr_region_view *view);
/* This process's owner_pid for the current region (attach.c). */
pid_t fdr__ctl_owner_pid(struct fdr_ctl *ctl);
/* State and generation without taking the controllers' lock. */
int fdr__ctl_peek(struct fdr_ctl *ctl, uint32_t *state, uint32_t *generation);

/* ---- embedded regions (embedded_region.c, reclaim.c) ---- */

int fdr__embedded_refresh(struct fdr_ctl *ctl);
void fdr__embedded_forget(struct fdr_ctl *ctl);
/* cfg: as fdr__init_cfg_check() returned it.  The holdoff's memory
 * (trigger_last_ns, trigger_not_before_tsc) of the object replaced, if
 * any, carries over into a new one. */
int fdr__embedded_create(struct fdr_ctl *ctl, const struct fdr_geometry *g,
			 uint32_t generation, const struct fdr_init *cfg);
/* g: the geometry of cfg, the open object's (as emb_init checked). */
int fdr__embedded_reinit(struct fdr_ctl *ctl, const struct fdr_geometry *g,
			 const struct fdr_init *cfg);
/*
 * FDR_IOC_TRIGGER's transition on an embedded control area, without a
 * lock (a CAS on the state word: a writer fires it from inside a record,
 * maybe in a signal handler): INITIALIZED -> FINALIZED, reason TRIGGER,
 * naming pid and tid.  -EBUSY in another state, -EAGAIN (and
 * triggers_refused counted) inside the holdoff unless BY_HAND.  No
 * malloc, no lock, no syscall but the futex wake.
 */
int fdr__embedded_trigger(struct fdr_control *c, const struct fdr_trigger *trig,
			  pid_t pid, pid_t tid);
/* INITIALIZED -> FINALIZING by CAS (the controllers' FINALIZE, which a
 * writer's trigger may race): false if the state was another. */
bool fdr__embedded_begin_finalize(struct fdr_control *c);
void fdr__futex_wake_all(uint32_t *word);
int fdr__futex_wait(uint32_t *word, uint32_t val, int timeout_ms);
uint64_t fdr__reclaim_dead_writers(struct fdr_control *c, size_t map_len);
void fdr__status_from_control(const struct fdr_control *c, size_t map_len,
			      struct fdr_status *st);

/* ---- small helpers ---- */

uint64_t fdr__monotonic_ns(void);

#endif /* FDR_INTERNAL_H */
