// SPDX-License-Identifier: MIT
/*
 * thread_list.c - unique threads of a log and their processes
 * (thread_list.h).
 *
 * Sorting by (tid, pid) groups each thread's buffers, sorting the groups
 * by first buffer restores the log's order: O(n log n), where a search
 * of the rows so far per buffer was quadratic (200,000 threads took
 * minutes).  The pids are sorted too, so /proc is read once per process,
 * not once per thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "owner_note.h"
#include "thread_list.h"

#define UNKNOWN "unknown"

void thread_list_read_comm(const char *proc, int32_t pid, char *out, size_t len)
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

static char *read_exe(const char *proc, int32_t pid)
{
	char path[512], exe[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%d/exe", proc, pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return strdup(UNKNOWN);
	exe[n] = '\0';
	return strdup(exe);
}

static int by_thread(const void *x, const void *y)
{
	const struct thread_row *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

static int by_first(const void *x, const void *y)
{
	const struct thread_row *a = x, *b = y;

	return (a->first > b->first) - (a->first < b->first);
}

static int by_pid(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = ((const struct proc_facts *)y)->pid;

	return (a > b) - (a < b);
}

static int by_proc_pid(const void *x, const void *y)
{
	return by_pid(&((const struct proc_facts *)x)->pid, y);
}

/* r's names from note info; -1 only when out of memory. */
static int set_names(struct thread_row *r, const struct owner_info *info)
{
	r->note_comm = strdup(info->comm);
	if (asprintf(&r->note_exe, "%s%s", info->exe, info->exe_truncated ? "..." : "") < 0)
		r->note_exe = NULL;
	return r->note_comm && r->note_exe ? 0 : -1;
}

/* Does the note name the program of row r (or has r no names yet)? */
static bool same_image(const struct thread_row *r, const struct owner_info *info)
{
	size_t len = strlen(info->exe);

	return !r->note_exe || (!strncmp(r->note_exe, info->exe, len) &&
				!strcmp(r->note_exe + len, info->exe_truncated ? "..." : ""));
}

/*
 * Count the next buffer of the thread whose rows are rows[g..*n), with
 * note info (valid or not), in the row of the program the note names
 * (*cur: that row, on entry the previous buffer's): a thread that exec()ed
 * another program gets one row per program, so that nothing names the
 * second by the first.  A buffer without a valid note joins the row of
 * the buffer before it.  -1 only when out of memory.
 */
static int count_buffer(struct thread_row *rows, size_t g, size_t *n,
			const struct owner_info *info, bool valid, size_t *cur)
{
	size_t i = *cur;

	if (valid && !same_image(&rows[i], info)) {
		for (i = g; i < *n && !same_image(&rows[i], info); i++)
			;
		if (i == *n) {
			rows[*n] = rows[g];
			rows[*n].buffers = 0;
			rows[*n].note_comm = rows[*n].note_exe = NULL;
			(*n)++;
		}
	}
	*cur = i;
	rows[i].buffers++;
	return valid && !rows[i].note_exe ? set_names(&rows[i], info) : 0;
}

static void free_names(struct thread_row *rows, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		free(rows[j].note_comm);
		free(rows[j].note_exe);
		rows[j].note_comm = rows[j].note_exe = NULL;
	}
}

/* One row per buffer, sorted by thread, merged: one row per thread and
 * program image, with the names of its first valid owner note. */
static ssize_t collect(const struct log_layout *l, struct thread_row *rows)
{
	struct owner_info *info = malloc(sizeof(*info));
	size_t n = 0, g = 0, cur = 0;

	if (!info)
		return -1;
	for (size_t i = 0; i < l->nr_buffers; i++)
		rows[i] = (struct thread_row){ l->buffers[i].owner_tid,
					       l->buffers[i].owner_pid, 1, i, NULL, NULL, NULL };
	qsort(rows, l->nr_buffers, sizeof(*rows), by_thread);
	for (size_t i = 0; i < l->nr_buffers; i++) {
		struct thread_row b = rows[i];
		bool valid = owner_note_read(&l->buffers[b.first], l->generation, info);

		if (!n || rows[g].tid != b.tid || rows[g].pid != b.pid) {
			g = cur = n;
			rows[n] = b;
			rows[n++].buffers = 0;
		}
		if (count_buffer(rows, g, &n, info, valid, &cur)) {
			free_names(rows, n);
			free(info);
			return -1;
		}
		if (rows[cur].buffers == 1)
			rows[cur].first = b.first;
	}
	free(info);
	qsort(rows, n, sizeof(*rows), by_first);
	return (ssize_t)n;
}

/* The distinct pids of the rows, sorted, with their /proc facts. */
static int read_procs(struct thread_list *t, const char *proc_root)
{
	size_t n = 0;

	t->procs = calloc(t->nr_rows + 1, sizeof(*t->procs));
	if (!t->procs)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_rows; i++)
		t->procs[i].pid = t->rows[i].pid;
	qsort(t->procs, t->nr_rows, sizeof(*t->procs), by_proc_pid);
	for (size_t i = 0; i < t->nr_rows; i++)
		if (!n || t->procs[n - 1].pid != t->procs[i].pid)
			t->procs[n++].pid = t->procs[i].pid;
	t->nr_procs = n;
	for (size_t i = 0; i < n; i++) {
		thread_list_read_comm(proc_root, t->procs[i].pid, t->procs[i].comm,
				      sizeof(t->procs[i].comm));
		t->procs[i].exe = read_exe(proc_root, t->procs[i].pid);
		if (!t->procs[i].exe)
			return -ENOMEM;
	}
	for (size_t i = 0; i < t->nr_rows; i++)
		t->rows[i].proc = bsearch(&t->rows[i].pid, t->procs, n,
					  sizeof(*t->procs), by_pid);
	return 0;
}

int thread_list_build(struct thread_list *t, const struct log_layout *l,
		      const char *proc_root)
{
	memset(t, 0, sizeof(*t));
	/* rows start zeroed: what collect() leaves past nr_rows is freed too */
	t->rows = calloc(l->nr_buffers + 1, sizeof(*t->rows));
	if (!t->rows)
		return -ENOMEM;
	ssize_t n;

	n = collect(l, t->rows);
	t->nr_rows = n < 0 ? 0 : (size_t)n;
	if (n < 0 || read_procs(t, proc_root)) {
		thread_list_free(t);
		return -ENOMEM;
	}
	return 0;
}

void thread_list_free(struct thread_list *t)
{
	for (size_t i = 0; t->procs && i < t->nr_procs; i++)
		free(t->procs[i].exe);
	for (size_t i = 0; t->rows && i < t->nr_rows; i++) {
		free(t->rows[i].note_comm);
		free(t->rows[i].note_exe);
	}
	free(t->procs);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
