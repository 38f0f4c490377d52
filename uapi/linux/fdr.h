/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fdr.h - the ABI of /dev/fdr, the flight data recorder device.
 *
 * Shared unchanged by the kernel module (kmod/), libfdr, fdrd and fdrctl.
 * Documentation/abi.md is the prose version of this file; keep both true.
 *
 * The device owns one *region* per INIT: a control area followed by
 * nr_buffers trace buffers.  A process maps the region with one mmap()
 * (MAP_SHARED, offset 0, length map_size) or parts of it at page-aligned
 * offsets:
 *
 *   offset 0                   struct fdr_control      (256 bytes)
 *   control.rings_offset       struct fdr_cpu_ring     [nr_cpus]
 *   control.descs_offset       struct fdr_buffer_desc  [nr_buffers]
 *   control.control_size       (page aligned) end of the control area
 *   desc[i].offset             buffer i: buffer_size bytes, page aligned;
 *                              = control_size + i * buffer_size
 *
 * fdr_region_offsets_compute() (at the end) computes these offsets;
 * FDR_IOC_STATUS reports them (since FDR_STATUS_SIZE_VER3).
 *
 * Buffer i belongs to the pool of CPU i / buffers_per_cpu and its pages
 * come from that CPU's NUMA node (desc[i].node).
 *
 * Every struct has explicit padding; reserved fields must be zero.
 * Structs passed to ioctl carry their own size (first field) and are read
 * with copy_struct_from_user(): a larger struct with zero tail is accepted,
 * a non-zero unknown tail fails with E2BIG.
 */
#ifndef _UAPI_LINUX_FDR_H
#define _UAPI_LINUX_FDR_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define FDR_DEVICE_NAME		"fdr"
#define FDR_ABI_VERSION		1
#define FDR_CONTROL_MAGIC	0x46445231u	/* "FDR1" */

/* Log-mode states: the values of XRay's XRayLogInitStatus. */
enum fdr_state {
	FDR_STATE_UNINITIALIZED	= 0,
	FDR_STATE_INITIALIZING	= 1,
	FDR_STATE_INITIALIZED	= 2,
	FDR_STATE_FINALIZING	= 3,
	FDR_STATE_FINALIZED	= 4,
};

/* Flush states: the values of XRay's XRayLogFlushStatus. */
enum fdr_flush_state {
	FDR_FLUSH_NOT_FLUSHING	= 0,
	FDR_FLUSH_FLUSHING	= 1,
	FDR_FLUSH_FLUSHED	= 2,
};

/* Why the region was finalized (fdr_control.finalize_reason). */
enum fdr_finalize_reason {
	FDR_FINALIZE_NONE	= 0,	/* not finalized */
	FDR_FINALIZE_IOCTL	= 1,	/* FDR_IOC_FINALIZE */
	FDR_FINALIZE_CRASH	= 2,	/* a writer died from a fatal signal */
	FDR_FINALIZE_TRIGGER	= 3,	/* FDR_IOC_TRIGGER: a slow call, or by hand */
};

/*
 * Buffer descriptor states (fdr_buffer_desc.state).
 *
 * Flight-recorder mode (the default): a writer takes a FREE or RELEASED
 * buffer (the latter recycles the oldest data) and the flusher writes
 * every buffer with extents after the finalize.
 *
 * Streaming mode (FDR_CTL_STREAM): RELEASED means "full of data the
 * stream flusher has not written yet", and writers take FREE buffers
 * only: none FREE, the record is dropped and counted, never waited for.
 * The stream flusher (the owner of a flush begun while INITIALIZED)
 * writes a RELEASED buffer, then stores extents 0 and state FREE.  After
 * the finalize it writes what is left, HELD buffers included, exactly as
 * in flight-recorder mode.
 */
enum fdr_buffer_state {
	FDR_BUF_FREE		= 0,	/* empty: unused, or already streamed */
	FDR_BUF_HELD		= 1,	/* a thread writes into it */
	FDR_BUF_RELEASED	= 2,	/* holds data; flight recorder: may be
					 * recycled; stream: to be written */
};

/*
 * Control area, cache line 0: the geometry.  Written by the kernel at
 * INIT, never changed afterwards.
 */
#define FDR_CTL_CONSTANT_TSC	(1u << 0)	/* X86_FEATURE_CONSTANT_TSC */
#define FDR_CTL_NONSTOP_TSC	(1u << 1)	/* X86_FEATURE_NONSTOP_TSC */
#define FDR_CTL_EMBEDDED	(1u << 2)	/* shm region, no kernel */
#define FDR_CTL_CRASH_FINALIZE	(1u << 3)	/* a crash finalizes */
#define FDR_CTL_SCHED		(1u << 4)	/* scheduling area (fdr_sched.h) */
#define FDR_CTL_STREAM		(1u << 5)	/* streaming mode (FDR_INIT_STREAM) */
/*
 * The INIT asked for the scheduling view (no FDR_INIT_NO_SCHED) but no
 * slot was left for it (the machine's 16, or the uid's share,
 * max_user_sched): the region records without it, FDR_CTL_SCHED clear.
 * Before this flag such an INIT failed with ENOSPC.
 */
#define FDR_CTL_SCHED_REFUSED	(1u << 6)

struct fdr_control {
	/* line 0: geometry, immutable after INIT */
	__u32 magic;		/* FDR_CONTROL_MAGIC */
	__u16 abi_version;	/* FDR_ABI_VERSION */
	__u16 header_size;	/* sizeof(struct fdr_control) */
	__u32 generation;	/* bumped by every INIT, never 0 */
	__u32 flags;		/* FDR_CTL_* */
	__u64 tsc_hz;		/* tsc_khz * 1000, 0 if unknown */
	__u64 buffer_size;	/* bytes per buffer, page multiple */
	__u32 nr_cpus;		/* pools: one per possible CPU id */
	__u32 buffers_per_cpu;
	__u32 nr_buffers;	/* nr_cpus * buffers_per_cpu */
	__u32 rings_offset;	/* struct fdr_cpu_ring[nr_cpus] */
	__u32 descs_offset;	/* struct fdr_buffer_desc[nr_buffers] */
	__u32 reserved0;
	__u64 control_size;	/* page aligned; buffer 0 starts here */

	/* line 1: the state, written by the kernel (or the embedded owner) */
	__u32 state;		/* enum fdr_state */
	__u32 flush_state;	/* enum fdr_flush_state */
	__u32 finalize_reason;	/* enum fdr_finalize_reason */
	__u32 finalize_signal;	/* fatal signal, for FDR_FINALIZE_CRASH */
	__s32 finalize_pid;	/* process that caused the finalize */
	__s32 finalize_tid;	/* FDR_FINALIZE_TRIGGER: its thread */
	__u64 finalize_time_ns;	/* CLOCK_MONOTONIC of the finalize */
	/* FDR_FINALIZE_TRIGGER: the call that fired, as its writer measured
	 * it (fid 0 and 0 ns for a trigger by hand) */
	__u64 finalize_duration_ns;
	__s32 finalize_fid;
	__u32 reserved1;
	__u64 reserved2[2];

	/*
	 * line 2: acquisition order, bumped by writers once per buffer; the
	 * latency trigger of this region, set at INIT and never changed, and
	 * the end of the trigger holdoff (see FDR_IOC_TRIGGER)
	 */
	__u64 next_seq;		/* atomic; desc.seq = fetch_add(next_seq, 1) */
	__u64 trigger_ns;	/* a call lasting this long fires; 0: none */
	__s32 trigger_fid;	/* only calls of this function; 0: any */
	__u32 trigger_holdoff_ms; /* least time between two triggers */
	/* A writer fires no duration trigger before this TSC (the holdoff
	 * of the last trigger, 0: none); a hint that saves the syscall, the
	 * kernel (or the embedded owner) enforces the holdoff itself. */
	__u64 trigger_not_before_tsc;
	__u64 trigger_last_ns;	/* CLOCK_MONOTONIC of the last trigger that
				 * fired, kept across RESET and INIT (0: none) */
	__u64 reserved3[3];

	/* line 3: counters */
	__u64 buffers_acquired;	/* writers: once per buffer taken */
	__u64 buffers_recycled;	/* writers: a RELEASED buffer with data reused */
	__u64 records_dropped;	/* writers: no buffer free, or event too big */
	__u64 buffers_reclaimed; /* kernel: HELD buffers of dead owners */
	__u64 triggers_fired;	/* FDR_IOC_TRIGGER calls that finalized */
	__u64 triggers_refused;	/* FDR_IOC_TRIGGER calls inside the holdoff */
	__u64 reserved4[2];
};

/*
 * Per-CPU ring cursor: the next slot of that CPU's pool to try, and the
 * records writers running on that CPU dropped (no buffer to take, or an
 * event too big for one).  fdr_status.records_dropped is the sum of
 * fdr_control.records_dropped (older writers) and of these.
 */
struct fdr_cpu_ring {
	__u64 next;		/* atomic; slot = next % buffers_per_cpu */
	__u64 records_dropped;	/* atomic; writers on this CPU */
	__u64 reserved[6];
};

/*
 * Buffer descriptor, the "extents header": one cache line per buffer.
 *
 * Acquire (writer, no syscall): pos = fetch_add(ring[cpu].next, 1); try
 * slots in ring order; CAS state FREE->HELD or RELEASED->HELD; then set
 * owner_tid, owner_pid, generation, seq, and store extents = 0.
 * Record: write the bytes into the buffer, then store-release the new
 * extents.  Release: store-release state = RELEASED.
 * The flusher writes, in seq order, every buffer of the current generation
 * with extents > 0: exactly `extents` bytes from the start of the buffer.
 */
struct fdr_buffer_desc {
	__u64 extents;		/* committed bytes, release-stored by the owner */
	__u32 state;		/* enum fdr_buffer_state */
	__u32 cpu;		/* pool this buffer belongs to (kernel) */
	__u32 node;		/* NUMA node of its pages (kernel) */
	__s32 owner_tid;	/* last writer thread */
	__s32 owner_pid;	/* last writer process: fdr_status.owner_pid */
	__u32 generation;	/* generation it was acquired in */
	__u64 seq;		/* acquisition order */
	__u64 offset;		/* mmap offset of the buffer (kernel) */
	__u64 reserved[2];
};

/* FDR_IOC_INIT argument. */
#define FDR_INIT_NO_CRASH_FINALIZE	(1u << 0)	/* a crash does not finalize */
#define FDR_INIT_NO_SCHED		(1u << 1)	/* no scheduling records */
#define FDR_INIT_STREAM			(1u << 2)	/* streaming mode */
#define FDR_INIT_FLAGS_ALL		(FDR_INIT_NO_CRASH_FINALIZE | \
					 FDR_INIT_NO_SCHED | FDR_INIT_STREAM)

struct fdr_init {
	__u32 size;		/* sizeof(struct fdr_init) as the caller knows it */
	__u32 flags;		/* FDR_INIT_* */
	__u64 buffer_size;	/* bytes, a non-zero multiple of the page size */
	__u32 buffers_per_cpu;	/* non-zero */
	__u32 reserved;		/* zero */
	/*
	 * Since FDR_INIT_SIZE_VER1: the latency trigger.  A writer that
	 * records the exit of a call lasting at least trigger_ns (of function
	 * trigger_fid, or of any function when 0) fires FDR_IOC_TRIGGER.
	 * trigger_ns 0: no latency trigger (trigger_fid must be 0 then).
	 * Two triggers are at least trigger_holdoff_ms apart, across RESET
	 * and INIT (0: no holdoff); at most FDR_TRIGGER_HOLDOFF_MAX_MS.
	 */
	__u64 trigger_ns;
	__s32 trigger_fid;	/* >= 0 */
	__u32 trigger_holdoff_ms;
};
#define FDR_INIT_SIZE_VER0	24
#define FDR_INIT_SIZE_VER1	40
#define FDR_TRIGGER_HOLDOFF_MAX_MS	3600000u	/* one hour */

/* FDR_IOC_STATUS argument: the caller sets size; the kernel fills the rest. */
struct fdr_status {
	__u32 size;		/* in: sizeof(struct fdr_status) */
	__u32 state;		/* enum fdr_state */
	__u32 flush_state;	/* enum fdr_flush_state */
	__u32 flags;		/* FDR_CTL_* of the current region */
	__u32 generation;
	__u32 buffers_per_cpu;
	__u64 buffer_size;
	__u32 nr_cpus;
	__u32 nr_buffers;
	__u64 control_size;
	__u64 map_size;		/* control_size + nr_buffers * buffer_size */
	__u64 tsc_hz;
	__u64 default_buffer_size;	/* module parameters */
	__u32 default_buffers_per_cpu;
	__u32 buffers_in_use;	/* descriptors in state HELD */
	__u64 buffers_acquired;
	__u64 buffers_recycled;
	__u64 buffers_reclaimed;
	__u64 records_dropped;
	__u32 finalize_reason;	/* enum fdr_finalize_reason */
	__u32 finalize_signal;
	__s32 finalize_pid;
	/*
	 * What the caller stores in fdr_buffer_desc.owner_pid of the current
	 * region (0 without one): its tgid in the pid namespace of the
	 * region's creator (the INIT caller), or minus its tgid in the
	 * initial namespace if that namespace cannot see it.  Never 0 with a
	 * region; a kernel older than this field leaves it 0 (store getpid()).
	 */
	__s32 owner_pid;
	__u64 reserved[4];
	/*
	 * Since FDR_STATUS_SIZE_VER1.  The scheduling area of the current
	 * region (<linux/fdr_sched.h>), when flags has FDR_CTL_SCHED: mmap
	 * offset (page aligned, past map_size) and length of its read-only
	 * mapping; records the kernel wrote and, of them, the ones the rings
	 * overwrote (oldest first).  All 0 without one.
	 */
	__u64 sched_offset;
	__u64 sched_size;
	__u64 sched_records;
	__u64 sched_overwritten;
	__u64 reserved_v1[4];
	/*
	 * Since FDR_STATUS_SIZE_VER2.  The current region's latency trigger
	 * (fdr_init), what fired it (FDR_FINALIZE_TRIGGER: the caller's
	 * thread, as finalize_pid; fid and duration as the writer claimed
	 * them) and the triggers it took and refused in the holdoff.
	 */
	__u64 trigger_ns;
	__s32 trigger_fid;
	__u32 trigger_holdoff_ms;
	__s32 finalize_tid;
	__s32 finalize_fid;
	__u64 finalize_duration_ns;
	__u64 triggers_fired;
	__u64 triggers_refused;
	__u64 reserved_v2[2];
	/*
	 * Since FDR_STATUS_SIZE_VER3.  Where the parts of the current region
	 * lie in its mapping, as io_uring's io_sqring_offsets: a reader
	 * indexes with these, not with the control page's copies (any
	 * process mapping the region writable can scribble those).  The
	 * kernel's page size (control_size and buffer_size are multiples of
	 * it) is reported always; the offsets are 0 without a region.  An
	 * older kernel leaves them all 0: compute them with
	 * fdr_region_offsets_compute() from the geometry above.
	 */
	__u32 page_size;
	__u32 rings_offset;	/* struct fdr_cpu_ring[nr_cpus] */
	__u32 descs_offset;	/* struct fdr_buffer_desc[nr_buffers] */
	__u32 reserved_v3a;
	__u64 buffers_offset;	/* buffer 0 (= control_size) */
	__u64 reserved_v3[3];
};
#define FDR_STATUS_SIZE_VER0	160
#define FDR_STATUS_SIZE_VER1	224
#define FDR_STATUS_SIZE_VER2	288
#define FDR_STATUS_SIZE_VER3	336

/*
 * FDR_IOC_TRIGGER argument: finalize now because of this call.  A writer
 * whose call lasted the region's trigger_ns sends its function id and
 * duration; `fdrctl trigger` sends zeros and FDR_TRIGGER_BY_HAND, which
 * is not held off (but starts a holdoff).
 */
#define FDR_TRIGGER_BY_HAND	(1u << 0)
#define FDR_TRIGGER_FLAGS_ALL	FDR_TRIGGER_BY_HAND

struct fdr_trigger {
	__u32 size;		/* sizeof(struct fdr_trigger) */
	__u32 flags;		/* FDR_TRIGGER_* */
	__u64 duration_ns;	/* how long the call lasted */
	__s32 fid;		/* its function id */
	__u32 reserved;		/* zero */
};
#define FDR_TRIGGER_SIZE_VER0	24

/*
 * Sessions (Documentation/abi.md, "Sessions").  An open file of /dev/fdr
 * addresses the default session, the machine-wide region every member
 * of dev_gid shares, until FDR_IOC_SESSION_CREATE or _ATTACH binds it,
 * once, to a named session: a recorder of its own (region, state
 * machine, generation, counters) that its creator's uid owns.  Every
 * other ioctl and mmap of that file then addresses only that session.
 */
#define FDR_SESSION_NAME_MAX	64	/* with the NUL: [A-Za-z0-9._-]{1,63} */
/*
 * Names are scoped by owner: a session is (owner uid, name), so two users
 * may both have a session "build" and neither can take, probe or be
 * given the other's.  ATTACH finds the caller's own session of that name,
 * or with FDR_SESSION_OWNER the one owner_uid owns (a writer of a shared
 * session names the owner it expects, and gets no one else's).
 */
/* CREATE: members of gid may attach as writers (default: only the owner). */
#define FDR_SESSION_GROUP	(1u << 0)
/* ATTACH: the session owner_uid owns (default: the caller's euid's). */
#define FDR_SESSION_OWNER	(1u << 1)
#define FDR_SESSION_FLAGS_ALL	FDR_SESSION_GROUP
#define FDR_SESSION_ATTACH_FLAGS_ALL	FDR_SESSION_OWNER

/* FDR_IOC_SESSION_CREATE and _ATTACH argument. */
struct fdr_session {
	__u32 size;		/* sizeof(struct fdr_session) */
	__u32 flags;		/* FDR_SESSION_* */
	__u32 gid;		/* CREATE, FDR_SESSION_GROUP: the writers' group */
	/* ATTACH, FDR_SESSION_OWNER: the owner expected, in the caller's
	 * user namespace; otherwise zero (it was `reserved`) */
	__u32 owner_uid;
	char name[FDR_SESSION_NAME_MAX];	/* NUL-terminated */
};
#define FDR_SESSION_SIZE_VER0	80

/* What the caller may do in the session an FDR_IOC_SESSION_INFO names. */
enum fdr_session_role {
	FDR_ROLE_OWNER		= 0,	/* everything: the owner, CAP_SYS_ADMIN */
	FDR_ROLE_WRITER		= 1,	/* record into it: map it writable,
					 * STATUS, TRIGGER */
};

/*
 * FDR_IOC_SESSION_INFO argument: the caller sets size and index; the
 * kernel fills the rest for the index-th session the caller may attach
 * to (ENOENT past the last).  The default session is not listed.
 */
struct fdr_session_info {
	__u32 size;		/* sizeof(struct fdr_session_info) */
	__u32 index;		/* 0, 1, ... */
	__u32 flags;		/* FDR_SESSION_* it was created with */
	__u32 owner_uid;	/* in the caller's user namespace */
	__u32 gid;		/* FDR_SESSION_GROUP: the writers' group */
	__u32 state;		/* enum fdr_state */
	__u64 live_bytes;	/* memory of its regions still alive */
	__u32 role;		/* enum fdr_session_role: the caller's */
	__u32 reserved;
	char name[FDR_SESSION_NAME_MAX];
};
#define FDR_SESSION_INFO_SIZE_VER0	104

#define FDR_IOC_MAGIC		0xF7

/*
 * Transitions; every one that is illegal in the current state fails with
 * EBUSY and changes nothing (Documentation/abi.md has the table).
 *
 * INIT         UNINITIALIZED -> INITIALIZED (allocates a new region)
 * FINALIZE     INITIALIZED -> FINALIZED (writers stop; poll wakes)
 * FLUSH_BEGIN  FINALIZED, NOT_FLUSHING or FLUSHED -> FLUSHING; and for a
 *              stream region (FDR_CTL_STREAM) INITIALIZED, NOT_FLUSHING
 *              -> FLUSHING: the stream flush, which stays FLUSHING (and
 *              its owner's) through the finalize, however it comes, and
 *              ends with FLUSH_DONE once FINALIZED (FLUSH_DONE while
 *              still INITIALIZED: EBUSY)
 * FLUSH_DONE   FLUSHING -> FLUSHED
 * FLUSH_ABORT  FLUSHING -> NOT_FLUSHING (the flush failed; data untouched;
 *              a stream flush may be begun again by anyone)
 * FLUSH_DONE and FLUSH_ABORT are refused (EBUSY) on any open file but the
 * one that made the FLUSH_BEGIN; that file's release aborts the flush.
 * FLUSH_FORCE_ABORT  FLUSHING -> NOT_FLUSHING whoever began it; needs
 *              CAP_SYS_ADMIN (EPERM otherwise)
 * RESET        FINALIZED and not FLUSHING -> UNINITIALIZED (the region is
 *              freed once the last mapping goes)
 * TRIGGER      INITIALIZED -> FINALIZED, reason FDR_FINALIZE_TRIGGER; fails
 *              with EAGAIN and changes nothing but triggers_refused when
 *              less than trigger_holdoff_ms passed since the last trigger
 *              (unless FDR_TRIGGER_BY_HAND); EBUSY in any other state
 */
/*
 * The sized structs (INIT, STATUS, TRIGGER) carry their size in their
 * first field, so their numbers are pinned to a fixed size, not sizeof:
 * a struct that grows keeps its ioctl number.  fdr.ko also answers the
 * numbers older headers encoded with sizeof (INIT with
 * FDR_INIT_SIZE_VER1, STATUS with FDR_STATUS_SIZE_VER0 and _VER2).
 */
#define FDR_IOC_INIT		_IOC(_IOC_WRITE, FDR_IOC_MAGIC, 1, \
				     FDR_INIT_SIZE_VER0)
#define FDR_IOC_FINALIZE	_IO(FDR_IOC_MAGIC, 2)
#define FDR_IOC_FLUSH_BEGIN	_IO(FDR_IOC_MAGIC, 3)
#define FDR_IOC_FLUSH_DONE	_IO(FDR_IOC_MAGIC, 4)
#define FDR_IOC_FLUSH_ABORT	_IO(FDR_IOC_MAGIC, 5)
#define FDR_IOC_RESET		_IO(FDR_IOC_MAGIC, 6)
#define FDR_IOC_STATUS		_IOC(_IOC_READ | _IOC_WRITE, FDR_IOC_MAGIC, 7, \
				     FDR_STATUS_SIZE_VER1)
#define FDR_IOC_FLUSH_FORCE_ABORT _IO(FDR_IOC_MAGIC, 8)
#define FDR_IOC_TRIGGER		_IOC(_IOC_WRITE, FDR_IOC_MAGIC, 9, \
				     FDR_TRIGGER_SIZE_VER0)
/*
 * SESSION_CREATE  make the caller's session named name and bind this
 *              file to it as its owner (state UNINITIALIZED: INIT gives it
 *              its region).  EEXIST: the caller (its euid) has a session
 *              of that name already (another user's names are not seen);
 *              EDQUOT: the caller owns max_user_sessions already; EPERM:
 *              FDR_SESSION_GROUP names a group the caller is not in
 *              (without CAP_SYS_ADMIN)
 * SESSION_ATTACH  bind this file to the session name of the caller's euid
 *              (or of owner_uid with FDR_SESSION_OWNER): as owner if the
 *              caller's euid owns it (or CAP_SYS_ADMIN), as writer if it
 *              is a member of the session's group.  ENOENT: no such
 *              session the caller may attach to (one it may not attach to
 *              is not told apart)
 * Both: EINVAL for a malformed name, an unknown flag, CREATE's flag on
 * ATTACH or ATTACH's on CREATE, owner_uid without FDR_SESSION_OWNER or a
 * uid unmapped in the caller's namespace; EBUSY when this file is bound
 * already, or holds the default session's flush.
 * SESSION_INFO    describe one session (struct fdr_session_info)
 * SESSION_REVOKE  the owner's: every file bound to the session as writer
 *              is revoked and the session admits no writer any more (its
 *              group is dropped).  A revoked file gets EPERM from every
 *              ioctl and mmap; its mappings stop being the session's
 *              memory: their pages are replaced by private zero pages
 *              (read as UNINITIALIZED, written harmlessly, no SIGBUS) and
 *              they no longer keep the session's regions' memory.  EINVAL
 *              on the default session; EPERM for a writer.
 * A file bound as writer gets EPERM from INIT, FINALIZE, FLUSH_*, RESET,
 * SESSION_REVOKE and a TRIGGER with FDR_TRIGGER_BY_HAND (its own latency
 * trigger, held off, is allowed), and EACCES from a read-only mmap or one
 * of the scheduling area.  The session goes when the last file bound to
 * it and the last mapping of its regions go; its name is free again then.
 */
#define FDR_IOC_SESSION_CREATE	_IOC(_IOC_WRITE, FDR_IOC_MAGIC, 10, \
				     FDR_SESSION_SIZE_VER0)
#define FDR_IOC_SESSION_ATTACH	_IOC(_IOC_WRITE, FDR_IOC_MAGIC, 11, \
				     FDR_SESSION_SIZE_VER0)
#define FDR_IOC_SESSION_INFO	_IOC(_IOC_READ | _IOC_WRITE, FDR_IOC_MAGIC, \
				     12, FDR_SESSION_INFO_SIZE_VER0)
#define FDR_IOC_SESSION_REVOKE	_IO(FDR_IOC_MAGIC, 13)

/*
 * Owner note: the last bytes of every buffer a libfdr writer takes say who
 * wrote it - process and thread id, command and executable - so that a
 * flusher can name the threads of a process that is gone by flush time
 * (/proc no longer has it).  The writer fills it in at acquire, after
 * setting seq and before its first record, and keeps its records in front
 * of it (extents <= buffer_size - size).  The kernel never reads or writes
 * it.  Like every byte of the region it is written by userspace: a reader
 * copies it once and validates every field (magic, size, seq, generation,
 * ids against the descriptor, lengths) before using any.
 *
 *   buffer_size - size     struct fdr_owner_note
 *                          then exe_len bytes of the executable's path
 *                          (no NUL), zero padding
 *   buffer_size - 8        struct fdr_owner_note_tail
 *
 * size is a multiple of 8, at least FDR_OWNER_NOTE_MIN and at most
 * FDR_OWNER_NOTE_MAX and buffer_size / 8; a longer path is cut and flagged.
 */
#define FDR_OWNER_NOTE_MAGIC	0x4f524446u	/* "FDRO" */
#define FDR_OWNER_NOTE_MAX	1024u
#define FDR_OWNER_EXE_TRUNCATED	(1u << 0)	/* the path was cut to fit */

struct fdr_owner_note {
	__u64 seq;		/* the desc.seq of the acquisition */
	__u32 generation;	/* the desc.generation of the acquisition */
	__s32 pid;		/* = desc.owner_pid */
	__s32 tid;		/* = desc.owner_tid */
	__u16 exe_len;		/* bytes of path after this struct */
	__u16 flags;		/* FDR_OWNER_* */
	char comm[16];		/* the thread's command, NUL padded */
};

struct fdr_owner_note_tail {
	__u32 size;		/* bytes of the whole note, tail included */
	__u32 magic;		/* FDR_OWNER_NOTE_MAGIC */
};

#define FDR_OWNER_NOTE_SIZE	40
#define FDR_OWNER_NOTE_MIN	(FDR_OWNER_NOTE_SIZE + 8)

#define FDR_CONTROL_HEADER_SIZE	256
#define FDR_CPU_RING_SIZE	64
#define FDR_BUFFER_DESC_SIZE	64

/*
 * The layout at the top of this file, in the one place the kernel, libfdr
 * and fdrd compute it from: the offsets of the rings, the descriptors and
 * the buffers of a region of nr_cpus pools of buffers_per_cpu buffers of
 * buffer_size bytes, on pages of page_size bytes (a power of two).
 */
struct fdr_region_offsets {
	__u64 rings;		/* struct fdr_cpu_ring[nr_cpus] */
	__u64 descs;		/* struct fdr_buffer_desc[nr_buffers] */
	__u64 buffers;		/* = control_size: buffer 0, page aligned */
	__u64 map_size;		/* buffers + nr_buffers * buffer_size */
	__u32 nr_buffers;	/* nr_cpus * buffers_per_cpu */
	__u32 reserved;
};

/*
 * __FDR_NO_INSTRUMENT - never trace this function: the one spelling for
 * libfdr, its adapters and this header.  A tracer's own code runs inside
 * trace hooks, and traced it would call itself.  no_instrument_function
 * is -finstrument-functions' (GCC and clang), xray_never_instrument
 * -fxray-instrument's (clang only).  Nothing in the kernel.
 */
#if defined(__GNUC__) && !defined(__KERNEL__)
#if defined(__has_attribute)
#if __has_attribute(xray_never_instrument)
#define __FDR_XRAY_NEVER_INSTRUMENT	__attribute__((xray_never_instrument))
#endif
#endif
#ifndef __FDR_XRAY_NEVER_INSTRUMENT
#define __FDR_XRAY_NEVER_INSTRUMENT
#endif
#define __FDR_NO_INSTRUMENT \
	__attribute__((no_instrument_function)) __FDR_XRAY_NEVER_INSTRUMENT
#else
#define __FDR_NO_INSTRUMENT
#endif

/*
 * fdr_region_offsets_compute - fill *o for that geometry.
 * Return: 0, or -1 (*o untouched) when a count or size is 0, buffer_size
 * is not a page multiple or nr_buffers or map_size does not fit its type.
 * No libc, no kernel helper: usable on both sides of the ABI.  Never
 * instrumented: a tracer's own library (libfdr) calls it, maybe from
 * inside a trace hook.
 */

static __inline__ __FDR_NO_INSTRUMENT int
fdr_region_offsets_compute(__u32 nr_cpus,
			   __u32 buffers_per_cpu, __u64 buffer_size,
			   __u64 page_size, struct fdr_region_offsets *o)
{
	__u64 nr = (__u64)nr_cpus * buffers_per_cpu;
	__u64 descs, descs_end, buffers;

	if (!nr || !page_size || (page_size & (page_size - 1)) ||
	    !buffer_size || (buffer_size & (page_size - 1)) ||
	    nr > 0xffffffffu)
		return -1;
	/* Below 2^39 with nr < 2^32: no overflow up to here. */
	descs = FDR_CONTROL_HEADER_SIZE + (__u64)nr_cpus * FDR_CPU_RING_SIZE;
	descs_end = descs + nr * FDR_BUFFER_DESC_SIZE;
	if (page_size > ~(__u64)0 - descs_end)
		return -1;
	buffers = (descs_end + page_size - 1) & ~(page_size - 1);
	if (buffer_size > (~(__u64)0 - buffers) / nr)
		return -1;
	o->rings = FDR_CONTROL_HEADER_SIZE;
	o->descs = descs;
	o->buffers = buffers;
	o->map_size = buffers + nr * buffer_size;
	o->nr_buffers = (__u32)nr;
	o->reserved = 0;
	return 0;
}

/*
 * fdr_name_char_ok - a character of a session name: [A-Za-z0-9._-].
 * fdr_session_name_ok - the rule FDR_IOC_SESSION_CREATE and _ATTACH
 * apply: 1 to FDR_SESSION_NAME_MAX - 1 such characters, the first a
 * letter or a digit, NUL-terminated within FDR_SESSION_NAME_MAX bytes.
 * Return: 1 if @name is one, else 0.  No libc: both sides use it.
 */
static __inline__ __FDR_NO_INSTRUMENT int fdr_name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
}

static __inline__ __FDR_NO_INSTRUMENT int
fdr_session_name_ok(const char *name)
{
	unsigned int i;

	if (name[0] == '.' || name[0] == '-' || name[0] == '_')
		return 0;
	for (i = 0; i < FDR_SESSION_NAME_MAX; i++) {
		if (!name[i])
			return i > 0;
		if (!fdr_name_char_ok(name[i]))
			return 0;
	}
	return 0;
}

#if defined(__KERNEL__)
static_assert(sizeof(struct fdr_control) == FDR_CONTROL_HEADER_SIZE);
static_assert(sizeof(struct fdr_cpu_ring) == FDR_CPU_RING_SIZE);
static_assert(sizeof(struct fdr_buffer_desc) == FDR_BUFFER_DESC_SIZE);
static_assert(sizeof(struct fdr_init) == FDR_INIT_SIZE_VER1);
static_assert(sizeof(struct fdr_status) == FDR_STATUS_SIZE_VER3);
static_assert(sizeof(struct fdr_trigger) == FDR_TRIGGER_SIZE_VER0);
static_assert(sizeof(struct fdr_owner_note) == FDR_OWNER_NOTE_SIZE);
static_assert(sizeof(struct fdr_session) == FDR_SESSION_SIZE_VER0);
static_assert(sizeof(struct fdr_session_info) == FDR_SESSION_INFO_SIZE_VER0);
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct fdr_control) == FDR_CONTROL_HEADER_SIZE, "control header");
_Static_assert(sizeof(struct fdr_cpu_ring) == FDR_CPU_RING_SIZE, "cpu ring");
_Static_assert(sizeof(struct fdr_buffer_desc) == FDR_BUFFER_DESC_SIZE, "buffer desc");
_Static_assert(sizeof(struct fdr_init) == FDR_INIT_SIZE_VER1, "fdr_init");
_Static_assert(sizeof(struct fdr_status) == FDR_STATUS_SIZE_VER3, "fdr_status");
_Static_assert(sizeof(struct fdr_trigger) == FDR_TRIGGER_SIZE_VER0, "fdr_trigger");
_Static_assert(sizeof(struct fdr_owner_note) == FDR_OWNER_NOTE_SIZE, "owner note");
_Static_assert(sizeof(struct fdr_session) == FDR_SESSION_SIZE_VER0, "fdr_session");
_Static_assert(sizeof(struct fdr_session_info) == FDR_SESSION_INFO_SIZE_VER0, "fdr_session_info");
#endif

#endif /* _UAPI_LINUX_FDR_H */
