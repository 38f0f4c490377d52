/* SPDX-License-Identifier: MIT */
/*
 * perfetto.h - the pieces perfetto_writer.c (threads, calls, events) and
 * perfetto_sched.c (the scheduling file as ftrace events) share: the
 * field numbers of the Perfetto messages written, and the packet framing.
 *
 * Field numbers are those of Perfetto's published schema,
 * github.com/google/perfetto at v54.0-1620-gec5d16b14b (commit
 * ec5d16b14b743ba6063d720956d6d6af6610fd72), files under
 * protos/perfetto/trace/: trace.proto, trace_packet.proto,
 * interned_data/interned_data.proto, track_event/{track_event,
 * debug_annotation,track_descriptor,process_descriptor,
 * thread_descriptor}.proto, ftrace/{ftrace_event_bundle,ftrace_event,
 * sched}.proto.  Protobuf field numbers never change once published, so
 * any Perfetto since 2020 reads them.  Documentation/perfetto.md maps
 * the log onto them.
 */
#ifndef FDRLOG_PERFETTO_H
#define FDRLOG_PERFETTO_H

#include <fdr_reader.h>
#include "out_buffer.h"
#include "pb_writer.h"

enum {
	TRACE_PACKET = 1,			/* Trace.packet */

	TP_FTRACE_EVENTS = 1,			/* TracePacket */
	TP_TIMESTAMP = 8,
	TP_SEQUENCE_ID = 10,			/* trusted_packet_sequence_id */
	TP_TRACK_EVENT = 11,
	TP_INTERNED_DATA = 12,
	TP_SEQUENCE_FLAGS = 13,
	TP_TRACK_DESCRIPTOR = 60,
	SEQ_INCREMENTAL_STATE_CLEARED = 1,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,

	ID_EVENT_NAMES = 2,			/* InternedData */
	ID_DEBUG_ANNOTATION_NAMES = 3,
	INTERNED_IID = 1,			/* EventName, DebugAnnotationName */
	INTERNED_NAME = 2,

	TE_DEBUG_ANNOTATIONS = 4,		/* TrackEvent */
	TE_TYPE = 9,
	TE_NAME_IID = 10,
	TE_TRACK_UUID = 11,
	TE_SLICE_BEGIN = 1,
	TE_SLICE_END = 2,
	TE_INSTANT = 3,

	DA_NAME_IID = 1,			/* DebugAnnotation */
	DA_UINT_VALUE = 3,
	DA_STRING_VALUE = 6,

	TD_UUID = 1,				/* TrackDescriptor */
	TD_PROCESS = 3,
	TD_THREAD = 4,
	PD_PID = 1,				/* ProcessDescriptor */
	PD_PROCESS_NAME = 6,
	THD_PID = 1,				/* ThreadDescriptor */
	THD_TID = 2,
	THD_THREAD_NAME = 5,

	FB_CPU = 1,				/* FtraceEventBundle */
	FB_EVENT = 2,
	FE_TIMESTAMP = 1,			/* FtraceEvent */
	FE_PID = 2,
	FE_SCHED_SWITCH = 4,
	FE_COMMON_FLAGS = 5,
	FE_SCHED_WAKING = 20,
	SS_PREV_COMM = 1,			/* SchedSwitchFtraceEvent */
	SS_PREV_PID = 2,
	SS_PREV_STATE = 4,
	SS_NEXT_COMM = 5,
	SS_NEXT_PID = 6,
	SW_COMM = 1,				/* SchedWakingFtraceEvent */
	SW_PID = 2,
	SW_SUCCESS = 4,
	SW_TARGET_CPU = 5,
};

/* Append m as one Trace.packet to o, and empty m. */
void perfetto_emit(struct out_buffer *o, struct pb_msg *m);

/* Nanoseconds of a TSC, as the Chrome writer computes them (ticks as
 * microseconds when the log has no frequency). */
uint64_t perfetto_ns(uint64_t tsc, uint64_t freq);

/* The scheduling file as ftrace sched_switch/sched_waking events
 * (perfetto_sched.c); threads (may be NULL) names them. */
void perfetto_sched(struct out_buffer *o, struct pb_msg *m, const struct fdr_sched *sched,
		    const struct fdr_thread_table *threads, uint64_t freq);

#endif
