// SPDX-License-Identifier: MIT
/* log_scan.c - see log_scan.h.  Every length is checked before it is
 * used: the input may be hostile (scribbled buffers). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include <fdr_bytes.h>
#include "log_scan.h"

static int fail(struct scan_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log->error, sizeof(log->error), fmt, ap);
	va_end(ap);
	return -1;
}

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap * 2 : 1024;
	void *p;

	if (need <= *cap)
		return true;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static int add_event(struct scan_log *log, uint8_t kind, uint32_t fid,
		     uint64_t off)
{
	if (!grow((void **)&log->ev, &log->cap_ev, log->nr_ev + 1,
		  sizeof(*log->ev)))
		return -ENOMEM;
	log->ev[log->nr_ev++] = (struct scan_event){
		.kind = kind, .fid = fid, .offset = off };
	return 0;
}

/* One metadata record inside a buffer; *len is set to its full size. */
static int scan_metadata(struct scan_log *log, struct scan_buffer *b,
			 const uint8_t *p, size_t left, uint64_t off,
			 size_t *len)
{
	unsigned kind = p[0] >> 1;
	struct scan_event *last = log->nr_ev > b->first ? &log->ev[log->nr_ev - 1] : NULL;
	int32_t size;

	*len = FDR_METADATA_SIZE;
	switch (kind) {
	case FDR_MD_NEW_CPU_ID:
	case FDR_MD_TSC_WRAP:
	case FDR_MD_WALLTIME:
		return 0;
	case FDR_MD_CALL_ARGUMENT:
		if (!last || last->kind != FDR_FN_ENTER_ARG || last->has_arg)
			return fail(log, "offset %llu: CallArgument not after an EnterArg",
				    (unsigned long long)off);
		last->arg = fdr__get_u64(p + 1 + FDR_MD_CALL_ARGUMENT_ARG);
		last->has_arg = 1;
		return 0;
	case FDR_MD_CUSTOM_EVENT:
	case FDR_MD_TYPED_EVENT:
		size = fdr__get_s32(p + 1 + FDR_MD_CUSTOM_EVENT_SIZE);
		if (size < 0 || (size_t)size > left - FDR_METADATA_SIZE)
			return fail(log, "offset %llu: event of %d bytes, %zu left in the buffer",
				    (unsigned long long)off, size, left - FDR_METADATA_SIZE);
		*len += (size_t)size;
		return 0;
	case FDR_MD_NEW_BUFFER:
		return fail(log, "offset %llu: NewBuffer inside a buffer",
			    (unsigned long long)off);
	default:
		return fail(log, "offset %llu: metadata kind %u not allowed in a v2 buffer",
			    (unsigned long long)off, kind);
	}
}

/* The records of one buffer: [p, p + n) at file offset off. */
static int scan_buffer(struct scan_log *log, struct scan_buffer *b,
		       const uint8_t *p, size_t n, uint64_t off)
{
	size_t pos = FDR_METADATA_SIZE;

	if (n < FDR_METADATA_SIZE || p[0] != FDR_MD_FIRST_BYTE(FDR_MD_NEW_BUFFER))
		return fail(log, "offset %llu: buffer does not start with NewBuffer",
			    (unsigned long long)off);
	memcpy(&b->tid, p + 1 + FDR_MD_NEW_BUFFER_TID, 4);
	log->records++;
	while (pos < n) {
		size_t len;
		int ret;

		if (p[pos] & 1) {
			if (n - pos < FDR_METADATA_SIZE)
				return fail(log, "offset %llu: metadata record cut by the buffer end",
					    (unsigned long long)(off + pos));
			ret = scan_metadata(log, b, p + pos, n - pos, off + pos, &len);
		} else {
			uint32_t w0;

			len = FDR_FUNCTION_SIZE;
			if (n - pos < FDR_FUNCTION_SIZE)
				return fail(log, "offset %llu: function record cut by the buffer end",
					    (unsigned long long)(off + pos));
			w0 = fdr__get_u32(p + pos);
			if (FDR_FN_KIND(w0) > FDR_FN_ENTER_ARG)
				return fail(log, "offset %llu: function record kind %u",
					    (unsigned long long)(off + pos), FDR_FN_KIND(w0));
			ret = add_event(log, (uint8_t)FDR_FN_KIND(w0), FDR_FN_ID(w0),
					off + pos);
		}
		if (ret)
			return ret;
		log->records++;
		pos += len;
	}
	return 0;
}

static int scan_header(struct scan_log *log, const uint8_t *p, size_t n)
{
	struct fdr_log_header h;

	if (n < sizeof(h))
		return fail(log, "file of %zu bytes has no 32-byte header", n);
	memcpy(&h, p, sizeof(h));
	if (h.version != 2 || h.type != FDR_LOG_TYPE_FDR)
		return fail(log, "header: version %u type %u, want 2 and FDR",
			    h.version, h.type);
	log->tsc_hz = h.cycle_frequency;
	log->buffer_size = h.buffer_size;
	return 0;
}

int scan_log_bytes(const uint8_t *p, size_t n, struct scan_log *log)
{
	size_t pos = FDR_LOG_HEADER_SIZE;
	int ret;

	memset(log, 0, sizeof(*log));
	ret = scan_header(log, p, n);
	while (ret == 0 && pos < n) {
		struct scan_buffer *b;
		uint64_t ext;

		if (n - pos < FDR_METADATA_SIZE ||
		    p[pos] != FDR_MD_FIRST_BYTE(FDR_MD_BUFFER_EXTENTS))
			return fail(log, "offset %zu: want BufferExtents", pos);
		ext = fdr__get_u64(p + pos + 1 + FDR_MD_BUFFER_EXTENTS_SIZE);
		if (ext > n - pos - FDR_METADATA_SIZE ||
		    (log->buffer_size && ext > log->buffer_size))
			return fail(log, "offset %zu: extents %llu beyond the file or buffer size %llu",
				    pos, (unsigned long long)ext,
				    (unsigned long long)log->buffer_size);
		if (!grow((void **)&log->buf, &log->cap_buf, log->nr_buf + 1,
			  sizeof(*log->buf)))
			return -ENOMEM;
		b = &log->buf[log->nr_buf++];
		*b = (struct scan_buffer){ .offset = pos, .extents = ext,
					   .first = log->nr_ev };
		log->records++;
		pos += FDR_METADATA_SIZE;
		ret = scan_buffer(log, b, p + pos, ext, pos);
		b->count = log->nr_ev - b->first;
		pos += ext;
	}
	if (ret == 0 && log->nr_buf == 0)
		return fail(log, "no buffer after the header");
	return ret;
}

int scan_log_file(const char *path, struct scan_log *log)
{
	struct stat sb;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	memset(log, 0, sizeof(*log));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0 || sb.st_size == 0) {
		ret = sb.st_size == 0 ? -ENODATA : -errno;
		close(fd);
		return ret;
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	ret = scan_log_bytes(p, (size_t)sb.st_size, log);
	munmap(p, (size_t)sb.st_size);
	return ret;
}

void scan_log_free(struct scan_log *log)
{
	free(log->ev);
	free(log->buf);
	memset(log, 0, sizeof(*log));
}
