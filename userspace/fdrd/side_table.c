// SPDX-License-Identifier: MIT
/*
 * side_table.c - thread ids of a log -> process, command, executable.
 *
 * The descriptors carry owner_tid/owner_pid.  Command and executable come
 * from the owner note libfdr wrote into the thread's buffers while it ran
 * (owner_note.c): by flush time the writers have usually exited.  Only for
 * a thread none of whose buffers has a valid note (a writer that is not
 * libfdr, or a scribbled note) are /proc/<pid>/comm and /proc/<pid>/exe
 * read at flush time; a pid can be reused after its process died, which
 * the table cannot tell (Documentation/fdrd.md says so).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log_name.h"
#include "owner_note.h"
#include "side_table.h"

#define UNKNOWN "unknown"

struct thread_row {
	int32_t tid, pid;
	size_t buffers;
	bool noted;		/* note holds a valid owner note */
	struct owner_info note;
};

/* Escape backslash, tab and newline so a field stays one field, and any
 * other control byte as \xHH: names come from pages anyone may write. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			fputs("\\\\", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void read_comm(const char *proc, int32_t pid, char *out, size_t len)
{
	char path[512];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/comm", proc, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, out, len - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(out, len, UNKNOWN);
		return;
	}
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';	/* comm ends with a newline */
}

static void read_exe(const char *proc, int32_t pid, char *out, size_t len)
{
	char path[512];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%d/exe", proc, pid);
	n = readlink(path, out, len - 1);
	if (n <= 0)
		snprintf(out, len, UNKNOWN);
	else
		out[n] = '\0';
}

/* Unique (tid, pid) pairs in order of first buffer (seq order). */
static size_t collect_threads(const struct log_layout *l, struct thread_row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nr_buffers; i++) {
		const struct log_buffer *b = &l->buffers[i];
		size_t j;

		for (j = 0; j < n; j++)
			if (rows[j].tid == b->owner_tid && rows[j].pid == b->owner_pid)
				break;
		if (j == n) {
			rows[n] = (struct thread_row){ .tid = b->owner_tid, .pid = b->owner_pid };
			n++;
		}
		rows[j].buffers++;
		if (!rows[j].noted)
			rows[j].noted = owner_note_read(b, l->generation, &rows[j].note);
	}
	return n;
}

/* The command of process pid: the main thread's note (tid == pid), else
 * any of its threads', else /proc. */
static void process_comm(const struct thread_row *rows, size_t n, int32_t pid,
			 const char *proc, char *out, size_t len)
{
	const struct thread_row *any = NULL;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].pid != pid || !rows[i].noted)
			continue;
		if (rows[i].tid == pid || !any)
			any = &rows[i];
	}
	if (any)
		snprintf(out, len, "%s", any->note.comm);
	else
		read_comm(proc, pid, out, len);
}

static void put_finalize(FILE *f, const struct log_layout *l,
			 const struct thread_row *rows, size_t n, const char *proc)
{
	const char *sig = l->finalize_signal ? sigabbrev_np((int)l->finalize_signal) : NULL;
	char comm[256];

	process_comm(rows, n, l->finalize_pid, proc, comm, sizeof(comm));
	fprintf(f, "finalize\t%s\tsignal\t%u\t%s%s\tpid\t%d\tcomm\t",
		log_name_reason(l->finalize_reason), l->finalize_signal,
		sig ? "SIG" : "-", sig ? sig : "", l->finalize_pid);
	put_escaped(f, l->finalize_pid > 0 ? comm : UNKNOWN);
	fputc('\n', f);
}

static void put_thread(FILE *f, const struct thread_row *r, const char *proc)
{
	char comm[256], exe[4096];

	if (r->noted) {
		snprintf(comm, sizeof(comm), "%s", r->note.comm);
		snprintf(exe, sizeof(exe), "%s%s", r->note.exe,
			 r->note.exe_truncated ? "..." : "");
	} else {
		read_comm(proc, r->pid, comm, sizeof(comm));
		read_exe(proc, r->pid, exe, sizeof(exe));
	}
	fprintf(f, "thread\t%d\tpid\t%d\tbuffers\t%zu\tcomm\t", r->tid, r->pid,
		r->buffers);
	put_escaped(f, comm);
	fputs("\texe\t", f);
	put_escaped(f, exe);
	fputc('\n', f);
}

char *side_table_render(const struct log_layout *l, const char *log_name,
			const char *proc_root, size_t *len)
{
	struct thread_row *rows = calloc(l->nr_buffers + 1, sizeof(*rows));
	size_t nr_rows, dropped = 0, cut = 0;
	char *text = NULL;
	FILE *f;

	if (!rows)
		return NULL;
	f = open_memstream(&text, len);
	if (!f) {
		free(rows);
		return NULL;
	}
	for (size_t i = 0; i < l->nr_problems; i++) {
		dropped += l->problems[i].kept == 0;
		cut += l->problems[i].kept != 0;
	}
	fprintf(f, "fdrd-threads\t1\nlog\t");
	put_escaped(f, log_name);
	fprintf(f, "\ngeneration\t%u\n", l->generation);
	nr_rows = collect_threads(l, rows);
	put_finalize(f, l, rows, nr_rows, proc_root);
	fprintf(f, "buffers\t%zu\tdropped\t%zu\tcut\t%zu\trecords\t%llu\n",
		l->nr_buffers, dropped, cut, (unsigned long long)l->records);
	for (size_t i = 0; i < nr_rows; i++)
		put_thread(f, &rows[i], proc_root);
	free(rows);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
