// SPDX-License-Identifier: MIT
/*
 * block_index.c - one pass over the log: cut it into blocks (LLVM's
 * BlockIndexer: a block starts at each NewBuffer, BufferExtents records
 * belong to none), run the state machine on each block, and remember for
 * each block where to replay it from.  Nothing is stored per record.
 */
#include <stdlib.h>
#include "internal.h"

struct indexer {
	struct block_index *ix;
	struct dense_map *map;
	size_t cap;
	struct block cur;
	bool cur_has_records;	/* any record other than BufferExtents */
	enum verifier_state state;
};

static int push_block(struct indexer *in, struct fdr_reader_error *err)
{
	struct block_index *ix = in->ix;
	int64_t group;

	if (in->cur.pid == UINT64_MAX && in->cur.tid == INT32_MAX)
		return reader_fail(err, in->cur.start.off, "Pid",
				   "pid -1 with tid 2147483647 is reserved; expected "
				   "another (pid, tid)");
	group = dense_map_insert(in->map, (struct group_key){ in->cur.pid, in->cur.tid });
	if (group < 0)
		return reader_fail(err, in->cur.start.off, "", "out of memory");
	if (ix->nblocks == in->cap) {
		size_t cap = in->cap ? in->cap * 2 : 64;
		struct block *b = realloc(ix->blocks, cap * sizeof(*b));

		if (!b)
			return reader_fail(err, in->cur.start.off, "", "out of memory");
		ix->blocks = b;
		in->cap = cap;
	}
	in->cur.group = (uint32_t)group;
	ix->blocks[ix->nblocks++] = in->cur;
	return 0;
}

static void start_block(struct indexer *in, const struct producer *at)
{
	memset(&in->cur, 0, sizeof(in->cur));
	in->cur.start = *at;
	in->cur_has_records = false;
	in->state = VS_UNKNOWN;
}

static void note_record(struct indexer *in, const struct fdr_record *rec)
{
	struct block *b = &in->cur;

	if (!rec->is_metadata) {
		in->ix->nevents_max++;
		return;
	}
	switch (rec->kind) {
	case FDR_MD_NEW_BUFFER:
		b->tid = rec->id;
		break;
	case FDR_MD_PID:
		b->pid = (uint64_t)(int64_t)rec->id;	/* as LLVM widens it */
		break;
	case FDR_MD_WALLTIME:
		b->wall_sec = rec->value;
		b->wall_usec = rec->usec;
		break;
	case FDR_MD_CUSTOM_EVENT:
	case FDR_MD_TYPED_EVENT:
		in->ix->nevents_max++;
		break;
	case FDR_MD_CALL_ARGUMENT:
		in->ix->nargs_max++;
		break;
	}
}

static int index_record(struct indexer *in, const struct producer *before,
			const struct fdr_record *rec, struct fdr_reader_error *err)
{
	bool new_buffer = rec->is_metadata && rec->kind == FDR_MD_NEW_BUFFER;

	if (rec->is_metadata && rec->kind == FDR_MD_BUFFER_EXTENTS) {
		in->cur.nrecords++;	/* replayed with its block, never indexed */
		return 0;
	}
	if (new_buffer && in->cur_has_records) {
		if (verifier_finish(in->state, rec->offset, err) || push_block(in, err))
			return -1;
		start_block(in, before);
	}
	if (verifier_step(&in->state, rec, err))
		return -1;
	note_record(in, rec);
	in->cur.nrecords++;
	in->cur_has_records = true;
	return 0;
}

static int index_all(struct indexer *in, const struct fdr_log *log,
		     struct fdr_reader_error *err)
{
	struct producer p, before;
	struct fdr_record rec;
	uint64_t read_since = 0;
	int r;

	producer_init(&p, log);
	start_block(in, &p);
	for (;;) {
		before = p;
		r = producer_next(&p, &rec, err);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		log_pages_read(log, &read_since, p.off - before.off);
		if (index_record(in, &before, &rec, err))
			return -1;
	}
	if (!in->cur_has_records && in->ix->nblocks == 0)
		return reader_fail(err, p.off, "",
				   "no records after the header: expected at least one "
				   "buffer (NewBuffer, WalltimeMarker, NewCPUId, ...)");
	/* LLVM flushes the last block whatever it holds. */
	if (verifier_finish(in->state, p.off, err))
		return -1;
	return push_block(in, err);
}

int block_index_build(struct block_index *ix, const struct fdr_log *log,
		      struct fdr_reader_error *err)
{
	struct indexer in = { .ix = ix };
	int ret = -1;

	memset(ix, 0, sizeof(*ix));
	in.map = dense_map_new();
	if (!in.map)
		return reader_fail(err, 0, "", "out of memory");
	if (index_all(&in, log, err))
		goto out;
	ix->group_order = malloc(sizeof(uint32_t) * (ix->nblocks + 1));
	if (!ix->group_order) {
		reader_fail(err, 0, "", "out of memory");
		goto out;
	}
	if (dense_map_gave_up(in.map)) {
		if (thread_groups_first_seen(ix)) {
			reader_fail(err, 0, "", "out of memory");
			goto out;
		}
	} else {
		ix->ngroups = dense_map_iteration_order(in.map, ix->group_order);
	}
	ret = 0;
out:
	dense_map_free(in.map);
	if (ret)
		block_index_free(ix);
	return ret;
}

void block_index_free(struct block_index *ix)
{
	free(ix->blocks);
	free(ix->group_order);
	memset(ix, 0, sizeof(*ix));
}
