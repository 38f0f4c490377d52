// SPDX-License-Identifier: MIT
/*
 * sched_file.c - read and check fdrd's `<log>.sched` (Documentation/
 * format.md, "The scheduling file"): the header's magic, version and
 * sizes, and a length of exactly 64 + 32 x nr_records.  The file is input
 * like the log: one field that does not fit makes the whole file unusable
 * (the caller reads the log as if it were absent), while a record of a
 * type this reader does not know is only skipped, so the kernel can add
 * types.  Records are copied out (aligned), so nothing stays mapped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

/* The u16 fields that must hold exactly one value. */
static const struct { unsigned offset; const char *name; uint16_t want; } exact[] = {
	{ 4, "version", FDR_SCHED_VERSION },
	{ 6, "header_size", FDR_SCHED_FILE_SIZE },
	{ 8, "record_size", FDR_SCHED_RECORD_SIZE },
};

static int check_header(const uint8_t *p, const struct fdr_sched_file *h, size_t size,
			struct fdr_reader_error *err)
{
	uint64_t room = (size - FDR_SCHED_FILE_SIZE) / FDR_SCHED_RECORD_SIZE;

	if (h->magic != FDR_SCHED_FILE_MAGIC)
		return reader_fail(err, 0, "sched header", "expected magic %#x, found %#x",
				   FDR_SCHED_FILE_MAGIC, h->magic);
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (fdr__get_u16(p + exact[i].offset) != exact[i].want)
			return reader_fail(err, exact[i].offset, "sched header",
					   "expected %s %u, found %u", exact[i].name,
					   exact[i].want, fdr__get_u16(p + exact[i].offset));
	/* compared as counts, so a huge nr_records cannot overflow a product */
	if (h->nr_records != room || (size - FDR_SCHED_FILE_SIZE) % FDR_SCHED_RECORD_SIZE)
		return reader_fail(err, 24, "sched header", "expected a length of 64 + 32 x "
				   "nr_records (%llu), found %zu bytes",
				   (unsigned long long)h->nr_records, size);
	return 0;
}

static bool known_type(uint8_t type)
{
	return type >= FDR_SCHED_SWITCH_OUT && type <= FDR_SCHED_WAKEUP;
}

/* The records of known types, copied; the others counted in s->skipped. */
static int copy_records(struct fdr_sched *s, const uint8_t *p, struct fdr_reader_error *err)
{
	size_t n = (size_t)s->header.nr_records;

	s->records = malloc((n ? n : 1) * sizeof(*s->records));
	if (!s->records)
		return reader_fail(err, 0, "", "out of memory");
	for (size_t i = 0; i < n; i++, p += FDR_SCHED_RECORD_SIZE) {
		struct fdr_sched_record *r = &s->records[s->count];

		memcpy(r, p, sizeof(*r));
		if (known_type(r->type))
			s->count++;
		else
			s->skipped++;
	}
	return 0;
}

int fdr_sched_open_memory(struct fdr_sched **out, const void *data, size_t size,
			  struct fdr_reader_error *err)
{
	struct fdr_sched *s;

	*out = NULL;
	if (size < FDR_SCHED_FILE_SIZE)
		return reader_fail(err, 0, "sched header", "truncated: expected a %d-byte "
				   "header, found %zu bytes", FDR_SCHED_FILE_SIZE, size);
	s = calloc(1, sizeof(*s));
	if (!s)
		return reader_fail(err, 0, "", "out of memory");
	memcpy(&s->header, data, sizeof(s->header));
	if (check_header(data, &s->header, size, err) ||
	    copy_records(s, (const uint8_t *)data + FDR_SCHED_FILE_SIZE, err)) {
		fdr_sched_close(s);
		return -1;
	}
	if (sched_index_build(s)) {
		fdr_sched_close(s);
		return reader_fail(err, 0, "", "out of memory");
	}
	*out = s;
	return 0;
}

/* The whole file into a new buffer; -1 with errno. */
static int read_all(int fd, uint8_t **buf, size_t *size)
{
	struct stat st;
	size_t got = 0;

	if (fstat(fd, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	*size = (size_t)st.st_size;
	*buf = malloc(*size ? *size : 1);
	if (!*buf)
		return -1;
	while (got < *size) {
		ssize_t r = read(fd, *buf + got, *size - got);

		if (r <= 0) {
			if (r == 0)	/* shrank under us: read what is there */
				break;
			if (errno == EINTR)
				continue;
			free(*buf);
			return -1;
		}
		got += (size_t)r;
	}
	*size = got;
	return 0;
}

int fdr_sched_open(struct fdr_sched **out, const char *path, struct fdr_reader_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e, r;
	uint8_t *buf;
	size_t size;

	*out = NULL;
	if (fd < 0 || read_all(fd, &buf, &size)) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return reader_fail(err, 0, "", "cannot read %s: %s", path, strerror(e));
	}
	close(fd);
	r = fdr_sched_open_memory(out, buf, size, err);
	free(buf);
	return r;
}

void fdr_sched_close(struct fdr_sched *s)
{
	if (!s)
		return;
	free(s->records);
	free(s->state_after);
	free(s->ticks_before);
	free(s->threads);
	free(s);
}

const struct fdr_sched_file *fdr_sched_get_header(const struct fdr_sched *s)
{
	return &s->header;
}

uint64_t fdr_sched_skipped(const struct fdr_sched *s)
{
	return s->skipped;
}
