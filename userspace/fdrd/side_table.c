// SPDX-License-Identifier: MIT
/*
 * side_table.c - thread ids of a log -> process, command, executable.
 *
 * The descriptors carry owner_tid/owner_pid; /proc/<pid>/comm and
 * /proc/<pid>/exe are read at flush time (thread_list.c).  A pid can be reused after its
 * process died; the table cannot tell, which Documentation/fdrd.md says.
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

/* Escape backslash, tab and newline so a field stays one field. */
static void put_escaped(FILE *f, const char *s)
{
	for (;;) {
		size_t plain = strcspn(s, "\\\t\n");	/* written in one go */

		fwrite(s, 1, plain, f);
		s += plain;
		if (!*s)
			return;
		fputs(*s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : "\\n", f);
		s++;
	}
}

static void put_finalize(FILE *f, const struct log_layout *l, const char *proc)
{
	const char *sig = l->finalize_signal ? sigabbrev_np((int)l->finalize_signal) : NULL;
	char comm[256];

	thread_list_read_comm(proc, l->finalize_pid, comm, sizeof(comm));
	fprintf(f, "finalize\t%s\tsignal\t%u\t%s%s\tpid\t%d\tcomm\t",
		log_name_reason(l->finalize_reason), l->finalize_signal,
		sig ? "SIG" : "-", sig ? sig : "", l->finalize_pid);
	put_escaped(f, l->finalize_pid > 0 ? comm : UNKNOWN);
	fputc('\n', f);
}

static void put_thread(FILE *f, const struct thread_row *r)
{
	fprintf(f, "thread\t%d\tpid\t%d\tbuffers\t%zu\tcomm\t", r->tid, r->pid,
		r->buffers);
	put_escaped(f, r->proc->comm);
	fputs("\texe\t", f);
	put_escaped(f, r->proc->exe);
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
	put_escaped(f, log_name);
	fprintf(f, "\ngeneration\t%u\n", l->generation);
	put_finalize(f, l, proc_root);
	fprintf(f, "buffers\t%zu\tdropped\t%zu\tcut\t%zu\trecords\t%llu\n",
		l->nr_buffers, dropped, cut, (unsigned long long)l->records);
	for (size_t i = 0; i < threads.nr_rows; i++)
		put_thread(f, &threads.rows[i]);
	thread_list_free(&threads);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
