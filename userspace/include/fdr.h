/* SPDX-License-Identifier: MIT */
/*
 * fdr.h - libfdr, the public interface.
 *
 * Two halves:
 *  - recording: threads append XRay FDR records to buffers mapped from
 *    /dev/fdr (or an embedded shared-memory region), no syscall per record;
 *  - control: what fdrctl and fdrd use to drive the state machine of a
 *    region, the same calls for the kernel device and the embedded backend.
 *
 * Targets name a region: NULL means $FDR_TARGET, else "/dev/fdr";
 * "embedded:NAME" is the shared-memory region /dev/shm/fdr-NAME;
 * "DEVICE:NAME" (e.g. "/dev/fdr:run1") is the named session NAME of the
 * device (Documentation/abi.md, "Sessions"); any other string is a path
 * to a device node, whose default session it addresses.
 *
 * Functions returning int return 0 on success or a negative errno.
 */
#ifndef FDR_H
#define FDR_H

#include <stddef.h>
#include <stdint.h>
#include <linux/fdr.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FDR_DEFAULT_DEVICE	"/dev/fdr"
#define FDR_EMBEDDED_PREFIX	"embedded:"

/* ---- control ---------------------------------------------------------- */

struct fdr_ctl;

/* Open a target for control.  *out is set on success. */
int fdr_ctl_open(struct fdr_ctl **out, const char *target);
void fdr_ctl_close(struct fdr_ctl *ctl);

/* The transitions of uapi/linux/fdr.h; illegal ones return -EBUSY. */
int fdr_ctl_init(struct fdr_ctl *ctl, const struct fdr_init *cfg);
int fdr_ctl_finalize(struct fdr_ctl *ctl);
int fdr_ctl_flush_begin(struct fdr_ctl *ctl);
int fdr_ctl_flush_done(struct fdr_ctl *ctl);
int fdr_ctl_flush_abort(struct fdr_ctl *ctl);
/*
 * FLUSHING -> NOT_FLUSHING whoever began the flush (FLUSH_DONE and
 * FLUSH_ABORT work only on the handle that began it): for an
 * administrator whose flusher hangs.  The device wants CAP_SYS_ADMIN
 * (-EPERM); the embedded backend has no owners and aborts as
 * fdr_ctl_flush_abort().
 */
int fdr_ctl_flush_force_abort(struct fdr_ctl *ctl);
int fdr_ctl_reset(struct fdr_ctl *ctl);
/*
 * FDR_IOC_TRIGGER: INITIALIZED -> FINALIZED, reason FDR_FINALIZE_TRIGGER,
 * naming the caller's thread and trig's function and duration.  -EAGAIN
 * inside the region's holdoff (unless FDR_TRIGGER_BY_HAND: fdrctl
 * trigger), -EBUSY in any other state.  trig NULL: by hand.  Writers
 * never call this: libfdr fires for them when a call lasts the region's
 * trigger_ns.
 */
int fdr_ctl_trigger(struct fdr_ctl *ctl, const struct fdr_trigger *trig);
int fdr_ctl_status(struct fdr_ctl *ctl, struct fdr_status *st);

/*
 * Wait until the state or flush state differs from (state, flush_state),
 * or timeout_ms passes (-1: forever).  poll() on the device, a futex on
 * the state word for the embedded backend.  Returns 0, -ETIMEDOUT or
 * -EINTR.
 */
int fdr_ctl_wait(struct fdr_ctl *ctl, uint32_t state, uint32_t flush_state,
		 int timeout_ms);

/*
 * Map the current region read-only (whole map_size).  The pointer stays
 * valid until fdr_ctl_unmap() or fdr_ctl_close(), even across RESET.
 */
int fdr_ctl_map(struct fdr_ctl *ctl, const struct fdr_control **ctl_area,
		size_t *len);
/*
 * The stream flusher's mapping (FDR_CTL_STREAM regions, while it owns the
 * stream flush): as fdr_ctl_map(), but writable, so that
 * fdr_ctl_stream_free() can hand a written buffer back: RELEASED ->
 * extents 0, FREE.  -EAGAIN: the buffer was not RELEASED (left as it
 * was); -EINVAL: no such buffer; -EBADF: no stream mapping.
 */
int fdr_ctl_map_stream(struct fdr_ctl *ctl, struct fdr_control **ctl_area,
		       size_t *len);
int fdr_ctl_stream_free(struct fdr_ctl *ctl, uint32_t index);
/*
 * A descriptor the bytes of fdr_ctl_map()'s mapping can be read from,
 * with pread() at (address - ctl_area): reading them so costs no page
 * faults on a fresh mapping.  Owned by ctl: do not close it.  -EOPNOTSUPP
 * on the device backend (/dev/fdr has no read), -EBADF without a mapping.
 */
int fdr_ctl_map_fd(struct fdr_ctl *ctl);
/* Unmap both the region (fdr_ctl_map) and the scheduling area. */
void fdr_ctl_unmap(struct fdr_ctl *ctl);

/*
 * Map the kernel's scheduling area of the current region read-only
 * (<linux/fdr_sched.h>): [sched_offset, sched_offset + sched_size) of a
 * fresh STATUS; *len is that sched_size.  A mapping of its own, beside
 * fdr_ctl_map()'s: valid until fdr_ctl_unmap_sched(), fdr_ctl_unmap(),
 * fdr_ctl_close() or the next call.  -ENODATA when the region has none
 * (UNINITIALIZED, no FDR_CTL_SCHED: --no-sched or an older fdr.ko, and
 * always on the embedded backend); fdr_ctl_strerror(ctl, "map sched",
 * err) says which.  The area is the kernel's, but check its header
 * against *len before following any of its offsets.
 */
int fdr_ctl_map_sched(struct fdr_ctl *ctl, const void **area, size_t *len);
void fdr_ctl_unmap_sched(struct fdr_ctl *ctl);

/*
 * A mapped region as far as it can be trusted: where its rings,
 * descriptors and buffers lie, each checked to lie inside the mapping.
 *
 * fdr_region_view() takes the geometry from trusted, a STATUS (on the
 * device the kernel's own copy, which no scribbling of the control page
 * changes; the offsets of FDR_STATUS_SIZE_VER3, else the ABI's
 * fdr_region_offsets_compute()), or, when trusted is NULL (the embedded
 * backend: no trusted party), from one read of each geometry word of the
 * control page at map.  Every byte of the mapping is another process's:
 * index only with the view, never with the page again.  map_len may
 * cover the control area alone (buffers NULL then).  The pointers are
 * as writable as the mapping is.  Returns 0, -EINVAL (no view or map),
 * -EBADMSG (the geometry contradicts itself or does not fit map_len) or
 * -EPROTO (trusted NULL: another ABI version); on failure the view is
 * zero but for why, a static sentence naming the check that failed.
 */
struct fdr_region_view {
	void *base;			/* map */
	size_t len;			/* map_len */
	struct fdr_cpu_ring *rings;	/* [nr_cpus] */
	struct fdr_buffer_desc *descs;	/* [nr_buffers] */
	unsigned char *buffers;		/* buffer i at i * buffer_size; or NULL */
	uint64_t buffer_size;
	uint64_t rings_offset;
	uint64_t descs_offset;
	uint64_t control_size;		/* = the offset of buffer 0 */
	uint64_t map_size;		/* the region's whole length */
	uint64_t page_size;
	uint32_t nr_cpus;
	uint32_t buffers_per_cpu;
	uint32_t nr_buffers;
	uint32_t reserved;
	const char *why;		/* NULL, or what did not fit */
};

int fdr_region_view(struct fdr_region_view *view, const void *map,
		    size_t map_len, const struct fdr_status *trusted);

/*
 * Make the named session name (FDR_SESSION_GROUP in flags: gid's members
 * may attach as writers) and bind ctl, opened on a device's default
 * session, to it as its owner.  The session lives while ctl (or a
 * mapping of it) does.  -EOPNOTSUPP on an embedded target.
 */
int fdr_ctl_session_create(struct fdr_ctl *ctl, const char *name,
			   uint32_t flags, uint32_t gid);
/* The index-th session the caller may attach to; -ENOENT past the last. */
int fdr_ctl_session_info(struct fdr_ctl *ctl, uint32_t index,
			 struct fdr_session_info *info);
/*
 * As the owner of ctl's session (DEVICE:NAME): revoke every writer (their
 * mappings stop being the session's memory) and admit none any more.
 * -EPERM for a writer, -EINVAL on the default session.
 */
int fdr_ctl_session_revoke(struct fdr_ctl *ctl);

/* Remove an embedded region's shared-memory object. */
int fdr_ctl_destroy_embedded(const char *target);

/*
 * A sentence naming the cause of err for operation op ("open", "init",
 * "finalize", ...), e.g. "/dev/fdr: no such device (is fdr.ko loaded?)".
 * Returns a pointer to a thread-local buffer.
 */
const char *fdr_ctl_strerror(const struct fdr_ctl *ctl, const char *op,
			     int err);

const char *fdr_state_name(uint32_t state);
const char *fdr_flush_state_name(uint32_t flush_state);

/* ---- recording -------------------------------------------------------- */

/*
 * Attach the process to a target (see above).  On failure the reason is
 * printed once on stderr and every recording call becomes a no-op.
 * Options come from $FDR_OPTIONS ("func_duration_threshold_us=5").
 */
int fdr_attach(const char *target);
void fdr_detach(void);

void fdr_enter(int32_t fid);
void fdr_exit(int32_t fid);
void fdr_tail_exit(int32_t fid);
void fdr_enter_arg(int32_t fid, uint64_t arg);
/* EnterArg and n (at most FDR_ENTER_ARGS_MAX) CallArgument records; n 0:
 * a plain Enter.  Never rewound by the duration threshold. */
#define FDR_ENTER_ARGS_MAX	8
void fdr_enter_args(int32_t fid, const uint64_t *args, unsigned n);
void fdr_custom_event(const void *data, size_t len);

/* Give the calling thread's buffer back (e.g. before a long sleep). */
void fdr_thread_release(void);

#ifdef __cplusplus
}
#endif

#endif /* FDR_H */
