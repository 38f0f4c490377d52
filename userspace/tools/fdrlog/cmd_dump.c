// SPDX-License-Identifier: MIT
/* cmd_dump.c - `fdr dump [DIR|LOG]`: every record, decoded, with its offset. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "data_source.h"
#include "out_buffer.h"
#include "yaml_scalar.h"

static const char help[] =
	"usage: fdr dump [DIR|LOG]\n"
	"Print the header of the log `fdr record` left in DIR (default ./fdr.data)\n"
	"and every record in file order, one per line:\n"
	"byte offset, record kind, decoded fields.  Stops with exit status 1 at\n"
	"the first record that cannot be decoded.  Does not check record order\n"
	"(use `fdr verify`).  A drop marker (streaming mode) ends with\n"
	"dropped=N: N records of its thread are missing just before it.\n";

/* A drop marker says how many records its thread lost before it. */
static void put_drop_count(struct out_buffer *o, const struct fdr_record *r)
{
	uint64_t records;

	if (fdr_record_drop_marker(r, &records))
		out_printf(o, " dropped=%llu", (unsigned long long)records);
}

static void dump_metadata(struct out_buffer *o, const struct fdr_record *r)
{
	switch (r->kind) {
	case FDR_MD_NEW_BUFFER:
		out_printf(o, " tid=%d", r->id);
		break;
	case FDR_MD_PID:
		out_printf(o, " pid=%d", r->id);
		break;
	case FDR_MD_NEW_CPU_ID:
		out_printf(o, " cpu=%u tsc=%llu", r->cpu, (unsigned long long)r->value);
		break;
	case FDR_MD_TSC_WRAP:
		out_printf(o, " tsc=%llu", (unsigned long long)r->value);
		break;
	case FDR_MD_WALLTIME:
		out_printf(o, " sec=%llu usec=%u", (unsigned long long)r->value, r->usec);
		break;
	case FDR_MD_CALL_ARGUMENT:
		out_printf(o, " arg=%llu", (unsigned long long)r->value);
		break;
	case FDR_MD_BUFFER_EXTENTS:
		out_printf(o, " size=%llu", (unsigned long long)r->value);
		break;
	case FDR_MD_CUSTOM_EVENT:
	case FDR_MD_TYPED_EVENT:
		out_printf(o, " size=%d", r->event_size);
		if (r->kind == FDR_MD_TYPED_EVENT || r->event_delta)
			out_printf(o, " delta=%d", r->event_delta);
		if (r->kind == FDR_MD_TYPED_EVENT)
			out_printf(o, " type=%u", r->event_type);
		else if (!r->event_delta)
			out_printf(o, " tsc=%llu cpu=%u", (unsigned long long)r->value, r->cpu);
		out_str(o, " data=");
		yaml_scalar(o, r->payload, (size_t)r->event_size);
		put_drop_count(o, r);
		break;
	}
}

static int dump_record(const struct fdr_record *r, void *ctx)
{
	struct out_buffer *o = ctx;

	out_printf(o, "%08llx  %s", (unsigned long long)r->offset,
		   fdr_record_kind_name(r->is_metadata, r->kind));
	if (r->is_metadata)
		dump_metadata(o, r);
	else
		out_printf(o, " fid=%u delta=%u", r->func_id, r->delta);
	out_char(o, '\n');
	return 0;
}

/* Print the log at path; the exit status. */
static int dump_log(const char *path)
{
	struct out_buffer o;
	struct fdr_reader_error err;
	const struct fdr_log_header *h;
	struct fdr_log *log = open_log_or_report("dump", path);
	int r;

	if (!log)
		return 1;
	h = fdr_log_get_header(log);
	if (out_init(&o, STDOUT_FILENO)) {
		fprintf(stderr, "fdr dump: out of memory\n");
		fdr_log_close(log);
		return 1;
	}
	out_printf(&o, "header: version=%u type=%u constant-tsc=%u nonstop-tsc=%u "
		   "cycle-frequency=%llu buffer-size=%llu\n", h->version, h->type,
		   h->flags & 1, (h->flags >> 1) & 1,
		   (unsigned long long)h->cycle_frequency, (unsigned long long)h->buffer_size);
	r = fdr_log_for_each_record(log, dump_record, &o, &err);
	out_flush(&o);
	if (r)
		report_log_error("dump", path, &err);
	else if (o.error)
		fprintf(stderr, "fdr dump: writing standard output: %s\n", strerror(o.error));
	r = r || o.error;
	out_release(&o);
	fdr_log_close(log);
	return r ? 1 : 0;
}

int cmd_dump(int argc, char **argv)
{
	struct data_source ds;
	const char *in;
	int r = cmd_parse_plain(argc, argv, "dump", help, &in);

	if (r >= 0)
		return r;
	if (fdr__data_open("dump", in, &ds))
		return 1;
	r = dump_log(ds.log);
	fdr__data_close(&ds);
	return r;
}
