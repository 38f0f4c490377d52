// SPDX-License-Identifier: MIT
/*
 * log_file.c - open a log (mmap'd file or caller's buffer), check its
 * header, and the record walk and verify entry points.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

int reader_fail(struct fdr_reader_error *err, uint64_t offset, const char *record,
		const char *fmt, ...)
{
	char what[160];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err->offset = offset;
	snprintf(err->record, sizeof(err->record), "%s", record);
	if (record[0])
		snprintf(err->message, sizeof(err->message), "offset %llu: %s: %s",
			 (unsigned long long)offset, record, what);
	else
		snprintf(err->message, sizeof(err->message), "offset %llu: %s",
			 (unsigned long long)offset, what);
	return -1;
}

static int check_header(struct fdr_log *log, struct fdr_reader_error *err)
{
	const struct fdr_log_header *h = &log->header;

	if (log->size < FDR_LOG_HEADER_SIZE)
		return reader_fail(err, 0, "header",
				   "truncated: expected a %d-byte file header, found "
				   "%zu bytes", FDR_LOG_HEADER_SIZE, log->size);
	memcpy(&log->header, log->data, sizeof(log->header));
	if (h->type != FDR_LOG_TYPE_FDR)
		return reader_fail(err, 2, "header",
				   "unsupported log type %u%s; expected %d (FDR)", h->type,
				   h->type == FDR_LOG_TYPE_NAIVE ? " (naive/basic mode)" : "",
				   FDR_LOG_TYPE_FDR);
	if (h->version < 1 || h->version > 5)
		return reader_fail(err, 0, "header",
				   "unsupported FDR version %u; expected 1 to 5", h->version);
	return 0;
}

int fdr_log_open_memory(struct fdr_log **out, const void *data, size_t size,
			struct fdr_reader_error *err)
{
	struct fdr_log *log = calloc(1, sizeof(*log));

	*out = NULL;
	if (!log)
		return reader_fail(err, 0, "", "out of memory");
	log->data = data;
	log->size = size;
	if (check_header(log, err)) {
		free(log);
		return -1;
	}
	*out = log;
	return 0;
}

int fdr_log_open_file(struct fdr_log **out, const char *path, struct fdr_reader_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map = NULL;
	int e;

	*out = NULL;
	if (fd < 0 || fstat(fd, &st) < 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return reader_fail(err, 0, "", "cannot open %s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return reader_fail(err, 0, "", "%s is not a regular file", path);
	}
	if (st.st_size > 0) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			e = errno;
			close(fd);
			return reader_fail(err, 0, "", "cannot map %s: %s", path, strerror(e));
		}
		madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	}
	close(fd);
	if (fdr_log_open_memory(out, map ? map : "", (size_t)st.st_size, err)) {
		if (map)
			munmap(map, (size_t)st.st_size);
		return -1;
	}
	(*out)->mapping = map;
	(*out)->mapping_size = (size_t)st.st_size;
	return 0;
}

void fdr_log_close(struct fdr_log *log)
{
	if (!log)
		return;
	if (log->mapping)
		munmap(log->mapping, log->mapping_size);
	free(log);
}

void log_release_pages(const struct fdr_log *log)
{
	if (log->mapping)
		madvise(log->mapping, log->mapping_size, MADV_DONTNEED);
}

const struct fdr_log_header *fdr_log_get_header(const struct fdr_log *log)
{
	return &log->header;
}

int fdr_log_for_each_record(const struct fdr_log *log, fdr_record_fn fn, void *ctx,
			    struct fdr_reader_error *err)
{
	struct producer p;
	struct fdr_record rec;
	int r;

	producer_init(&p, log);
	while ((r = producer_next(&p, &rec, err)) == 1) {
		int stop = fn(&rec, ctx);

		if (stop)
			return stop;
	}
	return r;
}

int fdr_log_verify(const struct fdr_log *log, struct fdr_reader_error *err)
{
	struct block_index ix;

	if (block_index_build(&ix, log, err))
		return -1;
	block_index_free(&ix);
	return 0;
}
