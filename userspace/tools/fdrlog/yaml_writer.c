// SPDX-License-Identifier: MIT
/*
 * yaml_writer.c - the YAML of `llvm-xray convert -f yaml`, byte for byte:
 * header fields padded to a 17-column key, one flow mapping per record,
 * "args" only when there are arguments, "thread"/"process" only when
 * non-zero, "data" always.
 */
#include "convert.h"
#include "yaml_scalar.h"

static const char *const kind_names[] = {
	"function-enter", "function-exit", "function-tail-exit",
	"function-enter-arg", "custom-event", "typed-event",
};

static void write_header(struct out_buffer *o, const struct fdr_log_header *h)
{
	out_str(o, "---\nheader:\n  version:         ");
	out_u64(o, h->version);
	out_str(o, "\n  type:            ");
	out_u64(o, h->type);
	out_str(o, "\n  constant-tsc:    ");
	out_str(o, (h->flags & FDR_LOG_FLAG_CONSTANT_TSC) ? "true" : "false");
	out_str(o, "\n  nonstop-tsc:     ");
	out_str(o, (h->flags & FDR_LOG_FLAG_NONSTOP_TSC) ? "true" : "false");
	out_str(o, "\n  cycle-frequency: ");
	out_u64(o, h->cycle_frequency);
	out_char(o, '\n');
}

static void write_function_name(struct out_buffer *o, const struct symbols *syms,
				int32_t fid)
{
	char tmp[64];
	const char *name;

	if (!syms) {
		/* to_string(id) is always numeric, hence single-quoted. */
		out_char(o, '\'');
		out_i64(o, fid);
		out_char(o, '\'');
		return;
	}
	name = symbols_name(syms, fid, tmp, sizeof(tmp));
	yaml_scalar(o, name, strlen(name));
}

static void write_args(struct out_buffer *o, const struct fdr_trace *t,
		       const struct fdr_event *ev)
{
	uint32_t n;
	const uint64_t *args = fdr_event_args(t, ev, &n);

	if (!n)
		return;
	out_str(o, "args: [ ");
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			out_str(o, ", ");
		out_u64(o, args[i]);
	}
	out_str(o, " ], ");
}

static void write_record(struct out_buffer *o, const struct fdr_trace *t,
			 const struct fdr_event *ev, const struct symbols *syms)
{
	uint32_t size;
	const uint8_t *data;

	out_str(o, "  - { type: ");
	out_u64(o, ev->record_type);
	out_str(o, ", func-id: ");
	out_i64(o, ev->func_id);
	out_str(o, ", function: ");
	write_function_name(o, syms, ev->func_id);
	out_str(o, ", ");
	write_args(o, t, ev);
	out_str(o, "cpu: ");
	out_u64(o, ev->cpu);
	if (ev->tid) {
		out_str(o, ", thread: ");
		out_u64(o, ev->tid);
	}
	if (ev->pid) {
		out_str(o, ", process: ");
		out_u64(o, ev->pid);
	}
	out_str(o, ", kind: ");
	out_str(o, kind_names[ev->kind]);
	out_str(o, ", tsc: ");
	out_u64(o, ev->tsc);
	out_str(o, ", data: ");
	data = fdr_event_payload(t, ev, &size);
	if (size)
		yaml_scalar(o, data, size);
	else
		out_str(o, "''");
	out_str(o, " }\n");
}

void write_yaml(struct out_buffer *o, const struct fdr_trace *t, const struct symbols *syms)
{
	write_header(o, fdr_log_get_header(t->log));
	if (t->count == 0) {
		out_str(o, "records:         []\n...\n");
		return;
	}
	out_str(o, "records:\n");
	for (size_t i = 0; i < t->count; i++)
		write_record(o, t, fdr_trace_at(t, i), syms);
	out_str(o, "...\n");
}
