// SPDX-License-Identifier: MIT
/*
 * side_table.c - thread ids of a log -> process, command, executable.
 *
 * The descriptors carry owner_tid/owner_pid.  Command and executable come
 * from the owner notes libfdr wrote into the thread's buffers while it ran
 * (owner_note.c, thread_list.c): by flush time the writers have usually
 * exited.  Only for a thread none of whose buffers has a valid note (a
 * writer that is not libfdr, or a scribbled note) are /proc/<pid>/comm
 * and /proc/<pid>/exe read at flush time; a pid can be reused after its
 * process died, which the table cannot tell (Documentation/fdrd.md).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log_name.h"
#include "side_table.h"
#include "thread_list.h"

#define UNKNOWN "unknown"

/* Escape backslash, tab and newline so a field stays one field, and any
 * other control byte as \xHH: names come from pages anyone may write. */
void side_table_escape(FILE *f, const char *s)
{
	static const char special[] = "\\\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r"
		"\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f";

	for (;;) {
		size_t plain = strcspn(s, special);	/* written in one go */

		fwrite(s, 1, plain, f);
		s += plain;
		if (!*s)
			return;
		if (*s == '\\' || *s == '\t' || *s == '\n')
			fputs(*s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : "\\n", f);
		else
			fprintf(f, "\\x%02x", (unsigned char)*s);
		s++;
	}
}

/* The command of process pid: its main thread's note (tid == pid), else
 * any of its threads', else /proc. */
static void process_comm(const struct thread_list *t, int32_t pid, const char *proc,
			 char *out, size_t len)
{
	const struct thread_row *any = NULL;

	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct thread_row *r = &t->rows[i];

		if (r->pid == pid && r->note_comm && (r->tid == pid || !any))
			any = r;
	}
	if (any)
		snprintf(out, len, "%s", any->note_comm);
	else
		thread_list_read_comm(proc, pid, out, len);
}

static void put_finalize(FILE *f, const struct log_layout *l, const struct thread_list *t,
			 const char *proc)
{
	const char *sig = l->finalize_signal ? sigabbrev_np((int)l->finalize_signal) : NULL;
	char comm[256];

	process_comm(t, l->finalize_pid, proc, comm, sizeof(comm));
	fprintf(f, "finalize\t%s\tsignal\t%u\t%s%s\tpid\t%d\tcomm\t",
		log_name_reason(l->finalize_reason), l->finalize_signal,
		sig ? "SIG" : "-", sig ? sig : "", l->finalize_pid);
	side_table_escape(f, l->finalize_pid > 0 ? comm : UNKNOWN);
	/*
	 * A trigger adds its thread and call after comm, so that the line
	 * of every other reason stays as it was (readers anchor on it) and
	 * a reader that knows only the older fields ignores the rest.
	 */
	if (l->finalize_reason == FDR_FINALIZE_TRIGGER)
		fprintf(f, "\ttid\t%d\tfid\t%d\tduration_ns\t%llu", l->finalize_tid,
			l->finalize_fid, (unsigned long long)l->finalize_duration_ns);
	fputc('\n', f);
}

static void put_thread(FILE *f, const struct thread_row *r)
{
	fprintf(f, "thread\t%d\tpid\t%d\tbuffers\t%zu\tcomm\t", r->tid, r->pid,
		r->buffers);
	side_table_escape(f, r->note_comm ? r->note_comm : r->proc->comm);
	fputs("\texe\t", f);
	side_table_escape(f, r->note_exe ? r->note_exe : r->proc->exe);
	fputc('\n', f);
}

char *side_table_render(const struct log_layout *l, const char *log_name,
			const char *proc_root, size_t *len)
{
	size_t dropped = 0, cut = 0;
	struct thread_list threads;
	char *text = NULL;
	FILE *f;

	if (thread_list_build(&threads, l, proc_root))
		return NULL;
	f = open_memstream(&text, len);
	if (!f) {
		thread_list_free(&threads);
		return NULL;
	}
	for (size_t i = 0; i < l->nr_problems; i++) {
		dropped += l->problems[i].kept == 0;
		cut += l->problems[i].kept != 0;
	}
	fprintf(f, "fdrd-threads\t1\nlog\t");
	side_table_escape(f, log_name);
	fprintf(f, "\ngeneration\t%u\n", l->generation);
	put_finalize(f, l, &threads, proc_root);
	fprintf(f, "buffers\t%zu\tdropped\t%zu\tcut\t%zu\trecords\t%llu\n",
		l->nr_buffers, dropped, cut, (unsigned long long)l->records);
	if (l->stream)
		fprintf(f, "mode\tstream\nrecords_dropped\t%llu\n",
			(unsigned long long)l->records_dropped);
	else if (l->ring_known)
		fprintf(f, "buffers_recycled\t%llu\nrecords_dropped\t%llu\n",
			(unsigned long long)l->buffers_recycled,
			(unsigned long long)l->records_dropped);
	for (size_t i = 0; i < threads.nr_rows; i++)
		put_thread(f, &threads.rows[i]);
	thread_list_free(&threads);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
