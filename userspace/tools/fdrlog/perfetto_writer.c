// SPDX-License-Identifier: MIT
/*
 * perfetto_writer.c - Perfetto's protobuf trace (convert.h,
 * Documentation/perfetto.md): a stream of TracePackets, written event by
 * event, from the log streamed (fdr_trace_stream: memory does not grow
 * with the log) or from a built trace (what the filters need).
 *
 * Every thread gets a track (a TrackDescriptor with its pid, tid and
 * command; one per process with the process's name, from fdrd's side
 * table as the Chrome writer names them), written before its first
 * event.  Calls are TrackEvent slices, SLICE_BEGIN at the entry and
 * SLICE_END at the exit, on one packet sequence whose function names are
 * interned (InternedData.event_names, sent with the first event that
 * uses them); a call's arguments are debug annotations arg1, arg2, ...
 * (uftrace's names), and with fdr record -A/-R's specs its values typed
 * ("arguments" on the BEGIN, "retval" on the END: struct pending_args).  Custom events, typed events and drop markers are
 * instants, and so is the end of the call whose latency trigger ended the
 * recording (named in the side table's finalize line).  The scheduling file goes in as ftrace events
 * (perfetto_sched.c), from which Perfetto derives its own thread-state
 * tracks and wakeup arrows.
 *
 * Slices on a track must nest, and Perfetto's SLICE_END closes the
 * innermost open slice whatever its name.  The log's exits match as
 * llvm-xray matches them, by call_walk (the reports' matching, linear
 * whatever the log): an exit closes the nearest open call of its
 * function and every call above it (a longjmp, an exception, or what the
 * threshold rewound), so each of those gets its own END; an exit whose
 * entry the ring overwrote has nothing to close and writes nothing.
 * Calls still open at the end stay open (Perfetto shows them as not
 * ended).  Each thread's events come in its order (the log's when
 * streamed, by TSC from a sorted trace); a slice's time never goes back
 * on its track (slice_ns).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arg_spec.h"
#include "array_grow.h"
#include "call_walk.h"
#include "convert.h"
#include "key_index.h"
#include "perfetto.h"

/* Interned ids of the fixed names; a function's is NAME_IID_FUNC + its
 * dense index (first seen, first numbered: small varints). */
enum { NAME_IID_CUSTOM = 1, NAME_IID_TYPED, NAME_IID_DROP, NAME_IID_TRIGGER, NAME_IID_FUNC = 8 };
enum { ARG_IID_DATA = 1, ARG_IID_TYPE, ARG_IID_RECORDS, ARG_IID_DURATION, ARG_IID_ARGUMENTS,
       ARG_IID_RETVAL, ARG_IID_ARG = 8 };
#define RET_BYTES_MAX 128	/* an fdr.rval record: 16 bytes, a string's 67 */

/* A track's -A/-R values waiting for the record that completes them: an
 * entry whose strings come in the thread's next record (fdr.astr), a
 * return value (fdr.rval) for the call the thread's next exit ends. */
struct pending_args {
	bool begin, ret;
	uint64_t tsc;
	int32_t fid;
	uint32_t nargs;
	uint64_t args[FDR_ENTER_ARGS_MAX];
	uint32_t ret_size;
	uint8_t ret_bytes[RET_BYTES_MAX];
};
#define PROCESS_UUID_BASE (1ull << 32)	/* thread tracks count from 1 */
#define SEQUENCE_ID 1

struct perfetto {
	struct out_buffer *o;
	const struct fdr_trace *t;	/* the event's (streaming: it alone) */
	const struct symbols *syms;
	const struct fdr_thread_table *threads;
	const struct fdr_sched *sched;
	uint64_t freq;
	struct pb_msg m;
	struct key_index names, tracks, procs;
	struct walk *walk;		/* NULL until the sequence started */
	uint64_t *track_ns;		/* a track's last timestamp, by uuid - 1 */
	size_t cap_track_ns;
	const struct arg_specs *args;	/* fdr record -A/-R's, or NULL */
	struct pending_args *pending;	/* by uuid - 1, with args only */
	size_t cap_pending;
	struct out_buffer text;		/* a call's values, typed (arg_spec.h) */
	const struct fdr_event *ev;	/* the event being written */
	uint64_t track;			/* its thread's */
	uint64_t last_key, last_track;	/* runs of one thread skip the lookup */
	const struct fdr_trigger_info *trigger;	/* from the side table, may be NULL */
	uint64_t trigger_tsc;		/* its call's exit: the last seen */
	uint64_t trigger_track;		/* 0: not seen */
	uint32_t arg_names;		/* arg1 .. arg<arg_names> interned */
	int error;
};

uint64_t perfetto_ns(uint64_t tsc, uint64_t freq)
{
	return (uint64_t)(freq ? (unsigned __int128)tsc * 1000000000u / freq
			  : (unsigned __int128)tsc * 1000u);
}

void perfetto_emit(struct out_buffer *o, struct pb_msg *m)
{
	char *p = out_reserve(o, 12);
	uint64_t n = m->len;

	if (m->error) {
		if (!o->error)
			o->error = m->error;
		pb_reset(m);
		return;
	}
	*p++ = (char)(TRACE_PACKET << 3 | 2);
	o->len++;
	do {
		*p++ = (char)(n >= 0x80 ? (n & 0x7F) | 0x80 : n);
		o->len++;
		n >>= 7;
	} while (n);
	out_bytes(o, m->buf, m->len);
	pb_reset(m);
}

static void interned(struct pb_msg *m, uint32_t field, uint64_t iid, const char *name)
{
	pb_begin(m, field);
	pb_varint(m, INTERNED_IID, iid);
	pb_string(m, INTERNED_NAME, name);
	pb_end(m);
}

/* The sequence's first packet: it clears the interning state and holds
 * the fixed names. */
static void start_sequence(struct perfetto *pf)
{
	struct pb_msg *m = &pf->m;

	pb_varint(m, TP_SEQUENCE_ID, SEQUENCE_ID);
	pb_varint(m, TP_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	pb_begin(m, TP_INTERNED_DATA);
	interned(m, ID_EVENT_NAMES, NAME_IID_CUSTOM, "custom-event");
	interned(m, ID_EVENT_NAMES, NAME_IID_TYPED, "typed-event");
	interned(m, ID_EVENT_NAMES, NAME_IID_DROP, "records dropped");
	interned(m, ID_EVENT_NAMES, NAME_IID_TRIGGER, "trigger");
	interned(m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_DATA, "data");
	interned(m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_TYPE, "type");
	interned(m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_RECORDS, "records");
	interned(m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_DURATION, "duration_ns");
	if (pf->args) {	/* a log without -A/-R values decodes as before */
		interned(m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_ARGUMENTS, "arguments");
		interned(m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_RETVAL, "retval");
	}
	pb_end(m);
	perfetto_emit(pf->o, m);
}

static void process_track(struct perfetto *pf, uint32_t pid)
{
	struct pb_msg *m = &pf->m;
	bool added = false;
	int64_t i = key_index_get(&pf->procs, pid, &added);
	char tmp[32];

	if (i < 0) {
		pf->error = ENOMEM;
		return;
	}
	if (!added)
		return;
	pb_begin(m, TP_TRACK_DESCRIPTOR);
	pb_varint(m, TD_UUID, PROCESS_UUID_BASE + (uint64_t)i);
	pb_begin(m, TD_PROCESS);
	pb_int(m, PD_PID, (int32_t)pid);
	if (pf->threads)
		pb_string(m, PD_PROCESS_NAME, thread_table_process_name(pf->threads, (int32_t)pid,
									tmp, sizeof(tmp)));
	pb_end(m);
	pb_end(m);
	perfetto_emit(pf->o, m);
}

/* The track of thread (pid, tid): its uuid, its descriptor (and its
 * process's) written the first time; 0 when out of memory. */
static uint64_t thread_track(struct perfetto *pf, uint32_t pid, uint32_t tid)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	const struct fdr_thread_info *ti;
	struct pb_msg *m = &pf->m;
	bool added = false;
	int64_t i;

	if (pf->last_track && key == pf->last_key)
		return pf->last_track;
	i = key_index_get(&pf->tracks, key, &added);
	if (i < 0) {
		pf->error = ENOMEM;
		return 0;
	}
	pf->last_key = key;
	pf->last_track = (uint64_t)i + 1;
	if (!added)
		return (uint64_t)i + 1;
	if (array_grow((void **)&pf->track_ns, &pf->cap_track_ns, (size_t)i + 1,
		       sizeof(*pf->track_ns))) {
		pf->error = ENOMEM;
		return 0;
	}
	pf->track_ns[i] = 0;
	if (pf->args) {
		if (array_grow((void **)&pf->pending, &pf->cap_pending, (size_t)i + 1,
			       sizeof(*pf->pending))) {
			pf->error = ENOMEM;
			return 0;
		}
		pf->pending[i] = (struct pending_args){ 0 };
	}
	ti = fdr_thread_table_find(pf->threads, (int32_t)tid);
	process_track(pf, pid);
	pb_begin(m, TP_TRACK_DESCRIPTOR);
	pb_varint(m, TD_UUID, (uint64_t)i + 1);
	pb_begin(m, TD_THREAD);
	pb_int(m, THD_PID, (int32_t)pid);
	pb_int(m, THD_TID, (int32_t)tid);
	if (ti && ti->pid == (int32_t)pid && thread_name_known(ti->comm))
		pb_string(m, THD_THREAD_NAME, ti->comm);
	pb_end(m);
	pb_end(m);
	perfetto_emit(pf->o, m);
	return (uint64_t)i + 1;
}

static uint32_t event_pid(const struct perfetto *pf, const struct fdr_event *ev)
{
	const struct fdr_thread_info *ti = fdr_thread_table_find(pf->threads, (int32_t)ev->tid);

	return ti ? (uint32_t)ti->pid : ev->pid;
}

/* The interned id of fid's name, added to the packet's interned_data
 * (begun lazily: *open) the first time. */
static uint64_t name_iid(struct perfetto *pf, int32_t fid, bool *open)
{
	bool added = false;
	int64_t i = key_index_get(&pf->names, (uint32_t)fid, &added);
	char tmp[64];
	const char *name = tmp;

	if (i < 0) {
		pf->error = ENOMEM;
		return 0;
	}
	if (added) {
		if (pf->syms)
			name = symbols_name(pf->syms, fid, tmp, sizeof(tmp));
		else
			snprintf(tmp, sizeof(tmp), "#%d", fid);
		if (!*open)
			pb_begin(&pf->m, TP_INTERNED_DATA);
		*open = true;
		interned(&pf->m, ID_EVENT_NAMES, NAME_IID_FUNC + (uint64_t)i, name);
	}
	return NAME_IID_FUNC + (uint64_t)i;
}

/* Intern arg1 .. arg<n> that are not yet. */
static void arg_names(struct perfetto *pf, uint32_t n, bool *open)
{
	char name[16];

	for (; pf->arg_names < n; pf->arg_names++) {
		if (!*open)
			pb_begin(&pf->m, TP_INTERNED_DATA);
		*open = true;
		snprintf(name, sizeof(name), "arg%u", pf->arg_names + 1);
		interned(&pf->m, ID_DEBUG_ANNOTATION_NAMES, ARG_IID_ARG + pf->arg_names, name);
	}
}

static void uint_annotation(struct pb_msg *m, uint64_t name_iid, uint64_t v)
{
	pb_begin(m, TE_DEBUG_ANNOTATIONS);
	pb_varint(m, DA_NAME_IID, name_iid);
	pb_varint(m, DA_UINT_VALUE, v);
	pb_end(m);
}

/* A packet's header: its time and sequence. */
static void packet_head(struct perfetto *pf, uint64_t ns)
{
	pb_varint(&pf->m, TP_TIMESTAMP, ns);
	pb_varint(&pf->m, TP_SEQUENCE_ID, SEQUENCE_ID);
	pb_varint(&pf->m, TP_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
}

/* The time of a slice's BEGIN or END: never before the track's last one.
 * Perfetto sorts a track's events by time, so a TSC that went backwards
 * in the thread's order (only a crafted log or an unsynchronised TSC
 * has one) would move a BEGIN or END out of the nesting the matching
 * gave; written at the last time instead, it stays in place. */
static uint64_t slice_ns(struct perfetto *pf, uint64_t tsc, uint64_t track)
{
	uint64_t ns = perfetto_ns(tsc, pf->freq), *last = &pf->track_ns[track - 1];

	if (ns < *last)
		ns = *last;
	return *last = ns;
}

/* "name": the values pf->text holds (as fdr replay prints them). */
static void text_annotation(struct perfetto *pf, uint64_t name_iid)
{
	struct pb_msg *m = &pf->m;

	pb_begin(m, TE_DEBUG_ANNOTATIONS);
	pb_varint(m, DA_NAME_IID, name_iid);
	pb_bytes(m, DA_STRING_VALUE, pf->text.buf, pf->text.len);
	pb_end(m);
	pf->text.len = 0;
}

/* ret: the call's fdr.rval record (NULL: none), typed as "retval". */
static void slice_end(struct perfetto *pf, uint64_t tsc, uint64_t track,
		      const struct pending_args *ret)
{
	struct pb_msg *m = &pf->m;

	packet_head(pf, slice_ns(pf, tsc, track));
	pb_begin(m, TP_TRACK_EVENT);
	pb_varint(m, TE_TYPE, TE_SLICE_END);
	pb_varint(m, TE_TRACK_UUID, track);
	if (ret) {
		arg_put_ret_value(&pf->text, arg_specs_find(pf->args, ret->fid), ret->ret_bytes,
				  ret->ret_size);
		text_annotation(pf, ARG_IID_RETVAL);
	}
	pb_end(m);
	perfetto_emit(pf->o, m);
}

/* A call's BEGIN: its argument registers as arg1.., and with a spec
 * (spec, strs: its fdr.astr record or NULL) the values typed as
 * "arguments". */
static void slice_begin(struct perfetto *pf, const struct pending_args *c, uint64_t track,
			const struct arg_spec *spec, const uint8_t *strs, uint32_t strs_size)
{
	struct pb_msg *m = &pf->m;
	bool open = false;
	uint64_t iid;

	packet_head(pf, slice_ns(pf, c->tsc, track));
	iid = name_iid(pf, c->fid, &open);
	arg_names(pf, c->nargs, &open);
	if (open)
		pb_end(m);
	pb_begin(m, TP_TRACK_EVENT);
	pb_varint(m, TE_TYPE, TE_SLICE_BEGIN);
	pb_varint(m, TE_TRACK_UUID, track);
	pb_varint(m, TE_NAME_IID, iid);
	for (uint32_t i = 0; i < c->nargs; i++)
		uint_annotation(m, ARG_IID_ARG + i, c->args[i]);
	if (spec && c->nargs) {
		arg_put_args(&pf->text, spec, c->args, c->nargs, strs, strs_size);
		text_annotation(pf, ARG_IID_ARGUMENTS);
	}
	pb_end(m);
	perfetto_emit(pf->o, m);
}

static bool has_string(const struct arg_spec *spec)
{
	for (unsigned i = 0; spec && i < spec->n; i++)
		if (spec->arg[i].fmt == 's')
			return true;
	return false;
}

/* The entry ev: written now, or, when its spec has strings, when the
 * thread's next record (its fdr.astr) comes (pending_begin). */
static void call_entry(struct perfetto *pf, const struct fdr_event *ev, uint64_t track)
{
	const struct arg_spec *spec = pf->args ? arg_specs_find(pf->args, ev->func_id) : NULL;
	struct pending_args c = { .tsc = ev->tsc, .fid = ev->func_id }, *p;
	const uint64_t *args = fdr_event_args(pf->t, ev, &c.nargs);

	if (c.nargs > FDR_ENTER_ARGS_MAX)
		c.nargs = FDR_ENTER_ARGS_MAX;
	if (c.nargs)	/* a plain Enter has none, and args is NULL */
		memcpy(c.args, args, c.nargs * sizeof(*args));
	if (!has_string(spec) || !c.nargs) {
		slice_begin(pf, &c, track, spec, NULL, 0);
		return;
	}
	p = &pf->pending[track - 1];
	c.ret = p->ret;
	c.ret_size = p->ret_size;
	memcpy(c.ret_bytes, p->ret_bytes, sizeof(c.ret_bytes));
	c.begin = true;
	*p = c;
}

/* Before ev on its track: an entry waiting for its strings is written,
 * with them if ev is its fdr.astr (then 1: ev is used up). */
static int pending_begin(struct perfetto *pf, const struct fdr_event *ev, uint64_t track)
{
	struct pending_args *p = &pf->pending[track - 1];
	uint32_t size = 0;
	const uint8_t *data = ev->kind == FDR_EVENT_CUSTOM ?
			      fdr_event_payload(pf->t, ev, &size) : NULL;
	bool strs = arg_record_kind(data, size) == ARG_RECORD_STR;

	if (!p->begin)
		return 0;
	p->begin = false;
	slice_begin(pf, p, track, arg_specs_find(pf->args, p->fid), strs ? data : NULL,
		    strs ? size : 0);
	return strs;
}

/* An fdr.rval record kept for the exit that follows (1), or not one (0). */
static int keep_return(struct perfetto *pf, const struct fdr_event *ev, uint64_t track)
{
	struct pending_args *p = &pf->pending[track - 1];
	uint32_t size = 0;
	const uint8_t *data = ev->kind == FDR_EVENT_CUSTOM ?
			      fdr_event_payload(pf->t, ev, &size) : NULL;

	if (arg_record_kind(data, size) != ARG_RECORD_RET || size > sizeof(p->ret_bytes))
		return 0;
	p->ret = true;
	p->ret_size = size;
	memcpy(p->ret_bytes, data, size);
	return 1;
}

/* A custom or typed event, or a drop marker: an instant with its data. */
static void instant(struct perfetto *pf, const struct fdr_event *ev, uint64_t track)
{
	struct pb_msg *m = &pf->m;
	uint64_t dropped = 0;
	uint32_t n = 0;
	const uint8_t *data = fdr_event_payload(pf->t, ev, &n);
	bool drop = fdr_event_drop_marker(pf->t, ev, &dropped);

	packet_head(pf, perfetto_ns(ev->tsc, pf->freq));
	pb_begin(m, TP_TRACK_EVENT);
	pb_varint(m, TE_TYPE, TE_INSTANT);
	pb_varint(m, TE_TRACK_UUID, track);
	pb_varint(m, TE_NAME_IID, drop ? NAME_IID_DROP :
		  ev->kind == FDR_EVENT_TYPED ? NAME_IID_TYPED : NAME_IID_CUSTOM);
	if (drop) {
		uint_annotation(m, ARG_IID_RECORDS, dropped);
	} else {
		if (ev->kind == FDR_EVENT_TYPED)
			uint_annotation(m, ARG_IID_TYPE, ev->record_type);
		if (data) {
			pb_begin(m, TE_DEBUG_ANNOTATIONS);
			pb_varint(m, DA_NAME_IID, ARG_IID_DATA);
			pb_bytes(m, DA_STRING_VALUE, data, n);
			pb_end(m);
		}
	}
	pb_end(m);
	perfetto_emit(pf->o, m);
}

/* call_walk's callbacks: an event first, then for an exit an END per
 * frame it closes (the unwound ones above, then its own call). */
static int on_event(void *ctx, const struct fdr_event *ev)
{
	struct perfetto *pf = ctx;
	uint64_t track = thread_track(pf, event_pid(pf, ev), ev->tid);

	pf->ev = ev;
	pf->track = track;
	if (track && pf->args && (pending_begin(pf, ev, track) || keep_return(pf, ev, track)))
		return pf->error || pf->o->error;
	if (track && (ev->kind == FDR_EVENT_ENTER || ev->kind == FDR_EVENT_ENTER_ARG))
		call_entry(pf, ev, track);
	else if (track && ev->kind >= FDR_EVENT_CUSTOM)
		instant(pf, ev, track);
	return pf->error || pf->o->error;
}

/* A frame above the exit's own call (unwound): never its return value. */
static int on_frame_closed(void *ctx, int32_t fid)
{
	struct perfetto *pf = ctx;

	(void)fid;
	slice_end(pf, pf->ev->tsc, pf->track, NULL);
	return pf->o->error != 0;
}

/* Also remembers the latest call of the trigger's function on its
 * thread (by its exit's TSC): the one that ended the recording (the log
 * ends with it). */
static int on_call(void *ctx, const struct call_done *c)
{
	struct perfetto *pf = ctx;
	struct pending_args *ret = pf->args && pf->track ? &pf->pending[pf->track - 1] : NULL;

	if (pf->trigger && (int32_t)c->tid == pf->trigger->tid &&
	    c->frames[c->depth].fid == pf->trigger->fid &&
	    (!pf->trigger_track || pf->ev->tsc >= pf->trigger_tsc)) {
		pf->trigger_tsc = pf->ev->tsc;
		pf->trigger_track = pf->track;
	}
	if (ret && ret->ret) {
		ret->ret = false;
		ret->fid = c->frames[c->depth].fid;
		slice_end(pf, pf->ev->tsc, pf->track, ret);
		return pf->o->error != 0;
	}
	return on_frame_closed(ctx, 0);
}

/* An instant "trigger" at the exit of that call, with the duration its
 * writer measured (the trigger's own, not the log's TSC difference). */
static void trigger_mark(struct perfetto *pf)
{
	struct pb_msg *m = &pf->m;

	if (!pf->trigger_track)
		return;
	packet_head(pf, perfetto_ns(pf->trigger_tsc, pf->freq));
	pb_begin(m, TP_TRACK_EVENT);
	pb_varint(m, TE_TYPE, TE_INSTANT);
	pb_varint(m, TE_TRACK_UUID, pf->trigger_track);
	pb_varint(m, TE_NAME_IID, NAME_IID_TRIGGER);
	uint_annotation(m, ARG_IID_DURATION, pf->trigger->duration_ns);
	pb_end(m);
	perfetto_emit(pf->o, m);
}

/* Tracks for the threads that have no event but a name or a state. */
static void named_threads(struct perfetto *pf)
{
	for (size_t i = 0; i < fdr_thread_table_count(pf->threads); i++) {
		const struct fdr_thread_info *ti = fdr_thread_table_at(pf->threads, i);

		thread_track(pf, (uint32_t)ti->pid, (uint32_t)ti->tid);
	}
	for (size_t i = 0; i < fdr_sched_thread_count(pf->sched); i++) {
		const struct fdr_sched_thread *th = fdr_sched_thread_at(pf->sched, i);
		const struct fdr_thread_info *ti = fdr_thread_table_find(pf->threads, th->tid);

		thread_track(pf, (uint32_t)(ti ? ti->pid : th->pid), (uint32_t)th->tid);
	}
}

/* The first packets, and the matching of calls.  Streaming, not before
 * the first event: the reader has verified the log by then, so a log that
 * does not verify writes nothing, even to standard output. */
static int start(struct perfetto *pf)
{
	static const struct call_walk_ops ops = {
		.call = on_call, .unwound = on_frame_closed, .event = on_event
	};

	pf->walk = call_walk_start(&ops, pf);
	if (!pf->walk)
		return pf->error = ENOMEM;
	start_sequence(pf);
	named_threads(pf);
	return pf->error;
}

/* One event of the log, in its thread's order (fdr_event_fn). */
static int feed(const struct fdr_trace *t, const struct fdr_event *ev, void *ctx)
{
	struct perfetto *pf = ctx;
	int r;

	if (!pf->walk && start(pf))
		return pf->error;
	pf->t = t;
	r = call_walk_step(pf->walk, ev);
	if (r < 0)
		pf->error = ENOMEM;
	return r ? (pf->error ? pf->error : pf->o->error) : 0;
}

static void init(struct perfetto *pf, struct out_buffer *o, const struct fdr_log *log,
		 const struct symbols *syms, const struct arg_specs *args,
		 const struct fdr_thread_table *threads, const struct fdr_sched *sched)
{
	*pf = (struct perfetto){ .o = o, .syms = syms, .threads = threads, .sched = sched,
				 .freq = fdr_log_get_header(log)->cycle_frequency,
				 .trigger = fdr_thread_table_trigger(threads),
				 .text = { .fd = -1 } };
	pb_init(&pf->m);
	key_index_init(&pf->names);
	key_index_init(&pf->tracks);
	key_index_init(&pf->procs);
	if (args && out_init(&pf->text, -1) == 0)
		pf->args = args;
	else if (args)
		pf->error = ENOMEM;
}

/* Entries still waiting for their strings when the log ends. */
static void flush_pending(struct perfetto *pf)
{
	for (size_t i = 0; pf->args && i < pf->tracks.n && !pf->error; i++) {
		struct pending_args *p = &pf->pending[i];

		if (p->begin) {
			p->begin = false;
			slice_begin(pf, p, i + 1, arg_specs_find(pf->args, p->fid), NULL, 0);
		}
	}
}

static void release(struct perfetto *pf);

/* What follows the last event: the trigger, the scheduling file; then
 * the first error, if any, in o->error. */
static void finish(struct perfetto *pf)
{
	if (!pf->walk)
		start(pf);
	flush_pending(pf);
	if (pf->walk && call_walk_finish(pf->walk, 0) < 0)
		pf->error = ENOMEM;
	if (!pf->error)
		trigger_mark(pf);
	if (pf->sched && !pf->error)
		perfetto_sched(pf->o, &pf->m, pf->sched, pf->threads, pf->freq);
	if (pf->error && !pf->o->error)
		pf->o->error = pf->error;
	release(pf);
}

static void release(struct perfetto *pf)
{
	key_index_free(&pf->names);
	key_index_free(&pf->tracks);
	key_index_free(&pf->procs);
	free(pf->track_ns);
	free(pf->pending);
	out_release(&pf->text);
	pb_free(&pf->m);
}

void write_perfetto(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms,
		    const struct arg_specs *args, const struct fdr_thread_table *threads,
		    const struct fdr_sched *sched)
{
	struct perfetto pf;

	init(&pf, o, t->log, syms, args, threads, sched);
	for (size_t i = 0; i < t->count; i++)
		if (feed(t, fdr_trace_at(t, i), &pf))
			break;
	finish(&pf);
}

int write_perfetto_stream(struct out_buffer *o, const struct fdr_log *log,
			  const struct symbols *syms, const struct arg_specs *args,
			  const struct fdr_thread_table *threads, const struct fdr_sched *sched,
			  struct fdr_reader_error *err)
{
	struct perfetto pf;
	int r;

	init(&pf, o, log, syms, args, threads, sched);
	r = fdr_trace_stream(log, feed, &pf, err);
	if (r < 0) {	/* the log's fault, found before the first event */
		if (pf.walk)
			call_walk_finish(pf.walk, -1);
		release(&pf);
		return -1;
	}
	finish(&pf);
	return 0;
}
