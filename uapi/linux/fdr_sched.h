/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fdr_sched.h - the kernel's view of the traced threads: context switches
 * and wakeups, as fdr.ko records them and as the ".sched" file next to a
 * log holds them.  Documentation/format.md ("The scheduling file") and
 * Documentation/kmod.md ("Scheduling records") are the prose.
 *
 * While a region is INITIALIZED with FDR_CTL_SCHED set, fdr.ko records,
 * for every thread of every process that maps the region writable (its
 * threads, later threads and fork()ed children included):
 *
 *   SWITCH_OUT  the thread left a CPU, and in which state;
 *   SWITCH_IN   the thread got a CPU;
 *   WAKEUP      the thread was made runnable, by whom (the waker's ids, or
 *               an interrupt).
 *
 * The records go into a kernel-owned *scheduling area*, one ring per
 * possible CPU id, written only by that CPU's probes.  Userspace maps it
 * read-only (PROT_WRITE is refused) at fdr_status.sched_offset, length
 * fdr_status.sched_size:
 *
 *   offset 0                  struct fdr_sched_area      (64 bytes)
 *   area.rings_offset         struct fdr_sched_ring      [nr_cpus]
 *   area.records_offset       struct fdr_sched_record    [nr_cpus][ring_records]
 *
 * Ring c holds the newest min(head, ring_records) records of CPU c:
 * record number n (0-based, n < head) is in slot n % ring_records.  The
 * kernel writes a slot and then store-releases head = n + 1; the oldest
 * records are overwritten (counted: head - ring_records, when positive).
 * A reader that copies a ring while it may still move loads head before
 * (h1) and after (h2) the copy and keeps records [max(0, h2 -
 * ring_records + 1), h1).  Recording stops at FINALIZE; RESET frees it.
 *
 * Ids (pid = thread group id, tid = thread id) are in the pid namespace
 * of the region's creator, as fdr_buffer_desc.owner_pid is; a traced
 * task that namespace cannot see is given as minus its id in the initial
 * namespace (as its owner_pid); another task it cannot see is not named
 * (FDR_SCHED_OTHER_HIDDEN).
 * tsc is the CPU's time stamp counter, the clock of the function records.
 */
#ifndef _UAPI_LINUX_FDR_SCHED_H
#define _UAPI_LINUX_FDR_SCHED_H

#include <linux/types.h>

#define FDR_SCHED_AREA_MAGIC	0x53524446u	/* "FDRS" */
#define FDR_SCHED_FILE_MAGIC	0x46534446u	/* "FDSF" */
#define FDR_SCHED_VERSION	1

/* fdr_sched_record.type */
enum fdr_sched_type {
	FDR_SCHED_SWITCH_OUT	= 1,
	FDR_SCHED_SWITCH_IN	= 2,
	FDR_SCHED_WAKEUP	= 3,
};

/* fdr_sched_record.state of a SWITCH_OUT: what the thread waits for. */
enum fdr_sched_state {
	FDR_SCHED_RUNNABLE	= 0,	/* preempted: waits for a CPU */
	FDR_SCHED_SLEEPING	= 1,	/* TASK_INTERRUPTIBLE */
	FDR_SCHED_DISK		= 2,	/* TASK_UNINTERRUPTIBLE ("D") */
	FDR_SCHED_OTHER		= 3,	/* stopped, traced, dead, ... */
};

/* fdr_sched_record.state of a WAKEUP: who woke the thread. */
enum fdr_sched_waker {
	FDR_SCHED_BY_TASK	= 0,	/* other_pid/other_tid, from task context */
	FDR_SCHED_BY_HARDIRQ	= 1,	/* an interrupt handler (timers too) */
	FDR_SCHED_BY_SOFTIRQ	= 2,	/* a softirq */
};

/*
 * fdr_sched_record.flags: the other thread is not named (other_pid and
 * other_tid are 0).  A record names the other side of a switch or the
 * waker only when the session's owner could see that task: the same uid
 * (real, effective and saved) as the owner and visible in the region's
 * pid namespace, or the owner had CAP_PERFMON (or CAP_SYS_ADMIN) at
 * INIT and the task is visible there.  Otherwise the record keeps only
 * the state: preempted or blocked, woken by an interrupt or by "another
 * process" (FDR_SCHED_BY_TASK with this flag).
 */
#define FDR_SCHED_OTHER_HIDDEN	(1u << 0)

/*
 * One event, 32 bytes.  tid/pid is the traced thread (the one switched,
 * or the wakee).  other_tid/other_pid: for SWITCH_OUT the thread that
 * got the CPU, for SWITCH_IN the one that left it, for WAKEUP the waker
 * (0/0 when state is not FDR_SCHED_BY_TASK, or with
 * FDR_SCHED_OTHER_HIDDEN); 0 without that flag is the idle task.
 */
struct fdr_sched_record {
	__u64 tsc;
	__u8 type;		/* enum fdr_sched_type */
	__u8 state;		/* enum fdr_sched_state or fdr_sched_waker */
	__u16 cpu;		/* the CPU it happened on */
	__s32 pid;
	__s32 tid;
	__s32 other_pid;
	__s32 other_tid;
	__u32 flags;		/* FDR_SCHED_OTHER_HIDDEN; was reserved (0) */
};

/* The mapped area's header: written by the kernel at INIT, constant. */
struct fdr_sched_area {
	__u32 magic;		/* FDR_SCHED_AREA_MAGIC */
	__u16 version;		/* FDR_SCHED_VERSION */
	__u16 record_size;	/* sizeof(struct fdr_sched_record) */
	__u32 generation;	/* the region's */
	__u32 nr_cpus;		/* rings: one per possible CPU id */
	__u32 ring_records;	/* records per ring */
	__u32 rings_offset;
	__u64 records_offset;
	__u64 tsc_hz;		/* as fdr_control.tsc_hz */
	__u64 reserved[3];
};

/* One CPU's ring cursor, alone on its cache line. */
struct fdr_sched_ring {
	__u64 head;		/* records ever written; store-release */
	__u64 reserved[7];
};

/*
 * The ".sched" file fdrd writes next to a log (<log>.sched): this header,
 * then nr_records records in TSC order (ties in CPU order), every field
 * as in the area.  records_lost counts what the rings overwrote before
 * the flush; a reader treats a thread's time before its first record as
 * unknown when records_lost is not 0.
 */
struct fdr_sched_file {
	__u32 magic;		/* FDR_SCHED_FILE_MAGIC */
	__u16 version;		/* FDR_SCHED_VERSION */
	__u16 header_size;	/* sizeof(struct fdr_sched_file) */
	__u16 record_size;	/* sizeof(struct fdr_sched_record) */
	__u16 reserved0;
	__u32 generation;	/* of the region; = the log's */
	__u64 tsc_hz;
	__u64 nr_records;
	__u64 records_lost;
	__u32 nr_cpus;
	__u32 reserved1;
	__u64 reserved[2];
};

#define FDR_SCHED_RECORD_SIZE	32
#define FDR_SCHED_AREA_SIZE	64
#define FDR_SCHED_RING_SIZE	64
#define FDR_SCHED_FILE_SIZE	64

#if defined(__KERNEL__)
static_assert(sizeof(struct fdr_sched_record) == FDR_SCHED_RECORD_SIZE);
static_assert(sizeof(struct fdr_sched_area) == FDR_SCHED_AREA_SIZE);
static_assert(sizeof(struct fdr_sched_ring) == FDR_SCHED_RING_SIZE);
static_assert(sizeof(struct fdr_sched_file) == FDR_SCHED_FILE_SIZE);
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct fdr_sched_record) == FDR_SCHED_RECORD_SIZE, "sched record");
_Static_assert(sizeof(struct fdr_sched_area) == FDR_SCHED_AREA_SIZE, "sched area");
_Static_assert(sizeof(struct fdr_sched_ring) == FDR_SCHED_RING_SIZE, "sched ring");
_Static_assert(sizeof(struct fdr_sched_file) == FDR_SCHED_FILE_SIZE, "sched file");
#endif

#endif /* _UAPI_LINUX_FDR_SCHED_H */
