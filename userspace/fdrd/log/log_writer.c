// SPDX-License-Identifier: MIT
/*
 * log_writer.c - a region's log and side table on disk.
 *
 * The log is written optimistically, placed as if every buffer were
 * valid, and the buffers are validated while the writes are in flight
 * (the idle hook).  Just before the rename, the rest is validated: if a
 * buffer had to be cut or dropped, the file is discarded and written
 * again with the corrected placement (rare: only corrupt buffers pay).
 * The side files (the .threads table, then the .sched file) are written
 * then, before the log's rename, so a reader that sees a log finds them;
 * if any fails, those already written are removed and the log never gets
 * its name.
 *
 * When the grace period validated every buffer already, nothing is left
 * to overlap with the writes, and io_uring's buffered writes would only
 * hand each request to a worker thread (ext4 cannot do them without
 * blocking): then plain pwritev() calls do the same copy for less
 * (sync_if_prechecked; bench/flush has the figures), and the file's
 * create, link and close are plain system calls too (uring_writer.c).
 * The same holds for a flush that reads its buffers from the region's
 * descriptor (fdr record's: uring_source.c).
 *
 * The log's size is known before its first byte, so the writer checks
 * that the filesystem has that many free blocks first: a full disk fails
 * before any byte is copied.  It does not reserve them (fallocate) unless
 * asked (--preallocate): what that costs depends on the kernel, not on
 * the disk (bench/flush, runs H and I: 1.3x faster on one 6.18 machine,
 * 3.4x slower on another, equal on a third), and a default must not
 * depend on which machine measured it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "log_writer.h"
#include "owner_note.h"
#include "side_table.h"

struct write_ctx {
	struct log_layout *l;
	const struct out_dir *dir;
	const char *log_name;
	const struct log_sides *sides;
	const struct uring_write_opts *opts;
	bool relayout;		/* validation changed the placement */
	bool sides_written;	/* log_write_sides() succeeded */
};

/* Validate the buffers whose bytes were just submitted (hot in cache). */
static bool validate_written(void *arg, uint64_t submitted_end)
{
	struct write_ctx *w = arg;
	struct log_layout *l = w->l;

	while (l->nr_validated < l->nr_buffers &&
	       l->buffers[l->nr_validated].file_offset < submitted_end)
		log_layout_validate_step(l);
	return l->nr_validated < l->nr_buffers;
}

/*
 * Validate the buffer about to be written on the copy that will be
 * written (a source's pieces: uring_source.c), so the mapping is never
 * read and the checked bytes are the written ones.  Buffers come in file
 * order; one that is not the next to validate is left to the other hooks.
 */
static void validate_copy(void *arg, const void *mapped, const void *copy, size_t len)
{
	struct write_ctx *w = arg;
	struct log_layout *l = w->l;
	struct log_buffer *b;
	const uint8_t *data;

	if (l->nr_validated == l->nr_buffers)
		return;
	b = &l->buffers[l->nr_validated];
	if (b->data != mapped || b->len != len)
		return;
	data = b->data;
	b->data = copy;
	log_layout_validate_step(l);
	b->data = data;
}

static int write_table(const struct log_layout *l, const struct out_dir *dir,
		       const char *log_name, const char *name,
		       const struct uring_write_opts *opts, char *err, size_t errlen)
{
	struct uring_write_report rep;
	struct iovec table;
	int ret;

	table.iov_base = side_table_render(l, log_name, "/proc", &table.iov_len);
	if (!table.iov_base) {
		snprintf(err, errlen, "out of memory rendering %s", name);
		return -ENOMEM;
	}
	ret = uring_write_file(dir, name, &table, 1, opts, &rep, err, errlen);
	free(table.iov_base);
	return ret;
}

int log_write_sides(const struct log_layout *l, const struct out_dir *dir,
		    const char *log_name, const struct log_sides *s,
		    const struct uring_write_opts *opts, char *err, size_t errlen)
{
	struct uring_write_report rep;
	struct iovec iov = { (void *)s->sched, s->sched_len };
	int ret = 0;

	if (s->table_name)
		ret = write_table(l, dir, log_name, s->table_name, opts, err, errlen);
	if (ret || !s->sched_name || !s->sched)
		return ret;
	ret = uring_write_file(dir, s->sched_name, &iov, 1, opts, &rep, err, errlen);
	if (ret && s->table_name)
		uring_remove_file(dir, s->table_name);
	return ret;
}

void log_remove_sides(const struct out_dir *dir, const struct log_sides *s)
{
	if (s->table_name)
		uring_remove_file(dir, s->table_name);
	if (s->sched_name && s->sched)
		uring_remove_file(dir, s->sched_name);
}

/* A note_copy that decodes as no note (size 0): the mapping is not read. */
static const uint8_t no_note[1];

/*
 * With a source, the side table's owner notes are read through its
 * descriptor too.  Read through the mapping, each note is the first touch
 * of a page (the last of its buffer, which the log's bytes seldom reach):
 * 4096 of them for 256 MiB of 64 KiB buffers, which on a hypervisor with
 * shadow page tables cost more than validating the whole log (bench/flush,
 * run M).  Returns which buffers got a copy here, for notes_free().
 */
static bool *notes_from_source(struct log_layout *l, const struct uring_source *src)
{
	const uint8_t *base = src ? src->base : NULL;
	bool *got;

	if (!src || !l->nr_buffers)
		return NULL;
	got = calloc(l->nr_buffers, sizeof(*got));
	for (size_t i = 0; got && i < l->nr_buffers; i++) {
		struct log_buffer *b = &l->buffers[i];
		uint64_t at;

		if (b->note_copy || !b->data || b->data < base)
			continue;
		at = (uint64_t)(b->data - base);
		if (at > src->len || b->span > src->len - at)
			continue;
		b->note_copy = owner_note_dup_fd(b, l->generation, src->fd, at + b->span,
						 &b->note_len);
		if (!b->note_copy) {
			b->note_copy = no_note;
			b->note_len = 0;
		}
		got[i] = true;
	}
	return got;
}

static void notes_free(struct log_layout *l, bool *got)
{
	for (size_t i = 0; got && i < l->nr_buffers; i++) {
		struct log_buffer *b = &l->buffers[i];

		if (!got[i])
			continue;
		if (b->note_copy != no_note)
			free((void *)b->note_copy);
		b->note_copy = NULL;
		b->note_len = 0;
	}
	free(got);
}

static int before_rename(void *arg, char *err, size_t errlen)
{
	struct write_ctx *w = arg;
	bool *notes;
	int ret;

	while (log_layout_validate_step(w->l))
		;
	if (w->l->changed) {
		w->relayout = true;
		snprintf(err, errlen, "malformed buffers: writing the log again without them");
		return -ECANCELED;
	}
	notes = notes_from_source(w->l, w->opts->source);
	ret = log_write_sides(w->l, w->dir, w->log_name, w->sides, w->opts, err, errlen);
	notes_free(w->l, notes);
	w->sides_written = ret == 0;
	return ret;
}

static int write_log(struct write_ctx *w, const struct uring_write_hooks *hooks,
		     struct uring_write_report *rep, char *err, size_t errlen)
{
	struct iovec *iov;
	size_t nr_iov;
	int ret;

	if (log_layout_iovecs(w->l, &iov, &nr_iov)) {
		snprintf(err, errlen, "out of memory preparing the log");
		return -ENOMEM;
	}
	ret = uring_write_file_hooked(w->dir, w->log_name, iov, nr_iov, w->opts,
				      hooks, rep, err, errlen);
	free(iov);
	return ret;
}

void log_write_defaults(struct uring_write_opts *o)
{
	o->mode = URING_WRITE_VECTORED;
	o->sync_if_prechecked = true;
}

static bool all_prechecked(const struct log_layout *l)
{
	for (size_t i = 0; i < l->nr_buffers; i++)
		if (!l->buffers[i].known)
			return false;
	return true;
}

int log_write(struct log_layout *l, const struct out_dir *dir, const char *log_name,
	      const struct log_sides *sides, const struct uring_write_opts *opts,
	      struct uring_write_report *rep, char *err, size_t errlen)
{
	struct uring_write_opts o = *opts;
	struct write_ctx w = { .l = l, .dir = dir, .log_name = log_name,
			       .sides = sides, .opts = &o };
	struct uring_write_hooks hooks = { validate_written, before_rename, &w,
					   validate_copy };
	int ret;

	/* a source is read with pread and written with pwritev anyway */
	if (o.sync_if_prechecked && o.mode == URING_WRITE_VECTORED &&
	    (o.source || all_prechecked(l)))
		o.mode = URING_WRITE_SYNC;
	ret = write_log(&w, &hooks, rep, err, errlen);
	if (ret && w.relayout) {
		log_layout_finish(l);
		if (!l->nr_buffers)
			return 1;
		hooks.idle = NULL;
		ret = write_log(&w, &hooks, rep, err, errlen);
	}
	if (ret && w.sides_written)
		log_remove_sides(dir, sides);
	return ret;
}
