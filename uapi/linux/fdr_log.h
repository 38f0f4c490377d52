/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * fdr_log.h - the on-disk LLVM XRay FDR log: file header and records.
 *
 * One definition shared by libfdr (the writer), fdrd (the flusher) and the
 * log reader; the kernel module does not include it.  All multi-byte
 * fields are little-endian.
 * The byte-level reference is Documentation/format.md.
 */
#ifndef _UAPI_LINUX_FDR_LOG_H
#define _UAPI_LINUX_FDR_LOG_H

#include <linux/types.h>

#define FDR_LOG_TYPE_NAIVE	0
#define FDR_LOG_TYPE_FDR	1

#define FDR_LOG_FLAG_CONSTANT_TSC	(1u << 0)
#define FDR_LOG_FLAG_NONSTOP_TSC	(1u << 1)

/* The 32-byte file header. */
struct fdr_log_header {
	__u16 version;		/* 1..5; fdrd writes 2 */
	__u16 type;		/* FDR_LOG_TYPE_FDR */
	__u32 flags;		/* FDR_LOG_FLAG_* */
	__u64 cycle_frequency;	/* TSC ticks per second */
	__u64 buffer_size;	/* ThreadBufferSize */
	__u8 reserved[8];	/* zero */
};

/* Metadata record kinds (bits 1..7 of the first byte; bit 0 is 1). */
enum fdr_metadata_kind {
	FDR_MD_NEW_BUFFER	= 0,
	FDR_MD_END_OF_BUFFER	= 1,	/* v1 only */
	FDR_MD_NEW_CPU_ID	= 2,
	FDR_MD_TSC_WRAP		= 3,
	FDR_MD_WALLTIME		= 4,
	FDR_MD_CUSTOM_EVENT	= 5,
	FDR_MD_CALL_ARGUMENT	= 6,
	FDR_MD_BUFFER_EXTENTS	= 7,	/* v2+ */
	FDR_MD_TYPED_EVENT	= 8,
	FDR_MD_PID		= 9,	/* v3+ */
	FDR_MD_NR_KINDS		= 10,
};

#define FDR_MD_FIRST_BYTE(kind)	((__u8)(((kind) << 1) | 1))

/*
 * A metadata record: 16 bytes, packed payload at byte 1.  Its fields are
 * unaligned: read them byte-wise (userspace has the memcpy-based
 * fdr__get_u16/u32/u64 in userspace/internal/fdr_bytes.h).
 */
struct fdr_metadata_record {
	__u8 type_kind;		/* (kind << 1) | 1 */
	__u8 data[15];
};

/* Payload offsets (within data[]) of each metadata kind. */
#define FDR_MD_NEW_BUFFER_TID		0	/* __s32 */
#define FDR_MD_NEW_CPU_ID_CPU		0	/* __u16 */
#define FDR_MD_NEW_CPU_ID_TSC		2	/* __u64 */
#define FDR_MD_TSC_WRAP_TSC		0	/* __u64 */
#define FDR_MD_WALLTIME_SEC		0	/* __u64 */
#define FDR_MD_WALLTIME_USEC		8	/* __u32 */
#define FDR_MD_CUSTOM_EVENT_SIZE	0	/* __s32 */
#define FDR_MD_CUSTOM_EVENT_TSC		4	/* v1-v4: __u64 absolute; v5: __s32 delta */
#define FDR_MD_CUSTOM_EVENT_CPU_V4	12	/* __u16, v4 only */
#define FDR_MD_CALL_ARGUMENT_ARG	0	/* __u64 */
#define FDR_MD_BUFFER_EXTENTS_SIZE	0	/* __u64 */
#define FDR_MD_TYPED_EVENT_SIZE		0	/* __s32 */
#define FDR_MD_TYPED_EVENT_DELTA	4	/* __s32 */
#define FDR_MD_TYPED_EVENT_TYPE		8	/* __u16 */
#define FDR_MD_PID_PID			0	/* __s32 */

/*
 * The drop marker: a CustomEventMarker whose payload is struct
 * fdr_drop_event.  A writer that dropped records because no buffer was
 * free (streaming mode) writes one as the first record of the next
 * buffer it gets: `records` of this thread are missing just before it.
 * Drops with no later buffer are only in the counters.
 */
#define FDR_DROP_EVENT_MAGIC	"fdr.drop"	/* 8 bytes, no NUL */

struct fdr_drop_event {
	char magic[8];		/* FDR_DROP_EVENT_MAGIC */
	__u64 records;		/* records this thread lost here */
};
#define FDR_DROP_EVENT_SIZE	16

/*
 * Strings and return values of `fdr record -A/-R` (Documentation/format.md
 * §2), as custom events of their thread:
 *  - FDR_ARGS_STR_MAGIC, right after an EnterArg's CallArguments: for
 *    each /s argument, struct fdr_args_str and its len bytes (at most
 *    FDR_ARGS_STR_MAX, cut there; the pointer is the CallArgument);
 *  - FDR_ARGS_RET_MAGIC, right before the Exit it belongs to: the return
 *    register as a __u64, then for a /s return value one fdr_args_str.
 */
#define FDR_ARGS_STR_MAGIC	"fdr.astr"	/* 8 bytes, no NUL */
#define FDR_ARGS_RET_MAGIC	"fdr.rval"
#define FDR_ARGS_STR_MAX	64

struct fdr_args_str {
	__u8 index;		/* the argument's position among the CallArguments */
	__u8 flags;		/* FDR_ARGS_STR_* */
	__u8 len;		/* bytes that follow */
};
#define FDR_ARGS_STR_CUT	1	/* longer than FDR_ARGS_STR_MAX */
#define FDR_ARGS_STR_NULL	2	/* the pointer was NULL */
#define FDR_ARGS_STR_FAULT	4	/* the pointer was not readable */

/* Function record kinds (bits 1..3 of word 0; bit 0 is 0). */
enum fdr_function_kind {
	FDR_FN_ENTER		= 0,
	FDR_FN_EXIT		= 1,
	FDR_FN_TAIL_EXIT	= 2,
	FDR_FN_ENTER_ARG	= 3,
};

#define FDR_FN_ID_BITS		28
#define FDR_FN_ID_MASK		((1u << FDR_FN_ID_BITS) - 1)
#define FDR_FN_WORD0(kind, fid)	((((__u32)(fid) & FDR_FN_ID_MASK) << 4) | ((__u32)(kind) << 1))
#define FDR_FN_KIND(word0)	(((word0) >> 1) & 7u)
#define FDR_FN_ID(word0)	((word0) >> 4)

/* A function record: 8 bytes. */
struct fdr_function_record {
	__u32 kind_fid;		/* FDR_FN_WORD0(kind, fid) */
	__u32 tsc_delta;	/* unsigned delta from the previous record */
};

#define FDR_LOG_HEADER_SIZE	32
#define FDR_METADATA_SIZE	16
#define FDR_FUNCTION_SIZE	8

/* NewBuffer + WalltimeMarker: the extents a fresh v2 buffer starts with. */
#define FDR_BUFFER_PREAMBLE_SIZE	(2 * FDR_METADATA_SIZE)

#if defined(__KERNEL__)
static_assert(sizeof(struct fdr_log_header) == FDR_LOG_HEADER_SIZE);
static_assert(sizeof(struct fdr_metadata_record) == FDR_METADATA_SIZE);
static_assert(sizeof(struct fdr_function_record) == FDR_FUNCTION_SIZE);
static_assert(sizeof(struct fdr_drop_event) == FDR_DROP_EVENT_SIZE);
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct fdr_log_header) == FDR_LOG_HEADER_SIZE, "header is 32 bytes");
_Static_assert(sizeof(struct fdr_metadata_record) == FDR_METADATA_SIZE, "metadata is 16 bytes");
_Static_assert(sizeof(struct fdr_function_record) == FDR_FUNCTION_SIZE, "function record is 8 bytes");
_Static_assert(sizeof(struct fdr_drop_event) == FDR_DROP_EVENT_SIZE, "drop event is 16 bytes");
#endif

#endif /* _UAPI_LINUX_FDR_LOG_H */
