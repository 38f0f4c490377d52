// SPDX-License-Identifier: MIT
/*
 * thread_table.c - read fdrd's `<log>.threads` side table: which process,
 * command and executable each thread id of a v2 log belongs to (a v2 log
 * itself only has thread ids).  Documentation/fdrd.md has the format.
 *
 * The file is input like the log: every line is checked, values are
 * unescaped (\\ \t \n \xHH) and kept only as complete, bounded strings;
 * lines of kinds this reader does not know are skipped, so the format can
 * grow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define MAX_THREADS	(1u << 20)

struct fdr_thread_table {
	struct fdr_thread_info *rows;
	size_t count;
	uint32_t *by_tid;	/* row indices sorted by tid, file order on ties */
	struct fdr_trigger_info trigger;	/* fid 0: none */
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Unescape s (a whole field) into a new string; NULL if malformed. */
static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *p = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s != '\\') {
			*p++ = *s;
			continue;
		}
		s++;
		if (*s == '\\' || *s == 't' || *s == 'n') {
			*p++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : '\\';
		} else if (*s == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0 &&
			   hexval(s[1]) * 16 + hexval(s[2]) != 0) {	/* no NUL */
			*p++ = (char)(hexval(s[1]) * 16 + hexval(s[2]));
			s += 2;
		} else {
			free(out);
			return NULL;
		}
	}
	*p = '\0';
	return out;
}

static int parse_id(const char *s, int32_t *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

/* Split line at tabs into at most max fields; the count. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return line ? max + 1 : n;
}

/*
 * "finalize trigger signal S NAME pid PID comm COMM tid TID fid FID
 * duration_ns NS [newer fields]": the call whose latency ended the
 * recording.  Another finalize reason, a trigger by hand (fid 0) or a
 * malformed line leaves no trigger: the line only adds to the names, so
 * it never makes the table unreadable.
 */
static void parse_trigger(char **f, size_t n, struct fdr_trigger_info *out)
{
	struct fdr_trigger_info tr;
	char *end;

	if (n < 15 || strcmp(f[0], "finalize") || strcmp(f[1], "trigger") ||
	    strcmp(f[5], "pid") || strcmp(f[9], "tid") || strcmp(f[11], "fid") ||
	    strcmp(f[13], "duration_ns") || parse_id(f[6], &tr.pid) ||
	    parse_id(f[10], &tr.tid) || parse_id(f[12], &tr.fid) || !tr.fid)
		return;
	errno = 0;
	tr.duration_ns = strtoull(f[14], &end, 10);
	if (errno || end == f[14] || *end || f[14][0] == '-')
		return;
	*out = tr;
}

/* "thread TID pid PID buffers N comm COMM exe EXE" */
static int parse_thread(char **f, size_t n, struct fdr_thread_info *row)
{
	int32_t buffers;

	if (n != 10 || strcmp(f[2], "pid") || strcmp(f[4], "buffers") ||
	    strcmp(f[6], "comm") || strcmp(f[8], "exe") ||
	    parse_id(f[1], &row->tid) || parse_id(f[3], &row->pid) ||
	    parse_id(f[5], &buffers))
		return -1;
	row->comm = unescape(f[7]);
	row->exe = unescape(f[9]);
	if (!row->comm || !row->exe) {
		free((char *)row->comm);
		free((char *)row->exe);
		return -1;
	}
	return 0;
}

static int add_line(struct fdr_thread_table *t, char *line, size_t lineno,
		    const char *path, struct fdr_reader_error *err)
{
	char *f[17];
	size_t n = split(line, f, 16);
	struct fdr_thread_info *rows;

	if (lineno == 1)
		return n == 2 && !strcmp(f[0], "fdrd-threads") && !strcmp(f[1], "1") ? 0 :
		       reader_fail(err, 0, "", "%s: line 1: expected \"fdrd-threads<TAB>1\"", path);
	if (!strcmp(f[0], "finalize"))
		parse_trigger(f, n, &t->trigger);
	if (strcmp(f[0], "thread"))
		return 0;	/* log, generation, finalize, buffers, or newer */
	if (t->count == MAX_THREADS)
		return reader_fail(err, 0, "", "%s: more than %u threads", path, MAX_THREADS);
	rows = realloc(t->rows, (t->count + 1) * sizeof(*rows));
	if (!rows)
		return reader_fail(err, 0, "", "%s: out of memory", path);
	t->rows = rows;
	if (parse_thread(f, n, &rows[t->count]))
		return reader_fail(err, 0, "", "%s: line %zu: expected thread<TAB>TID<TAB>pid<TAB>PID"
				   "<TAB>buffers<TAB>N<TAB>comm<TAB>COMM<TAB>exe<TAB>EXE", path, lineno);
	t->count++;
	return 0;
}

static int read_lines(struct fdr_thread_table *t, FILE *f, const char *path,
		      struct fdr_reader_error *err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int r = 0;

	while (r == 0 && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line))
			r = reader_fail(err, 0, "", "%s: line %zu: NUL byte", path, lineno);
		else
			r = add_line(t, line, lineno, path, err);
	}
	free(line);
	if (r == 0 && lineno == 0)
		r = reader_fail(err, 0, "", "%s: empty, expected \"fdrd-threads<TAB>1\"", path);
	return r;
}

static int by_tid(const void *a, const void *b, void *table)
{
	const struct fdr_thread_table *t = table;
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int32_t tx = t->rows[x].tid, ty = t->rows[y].tid;

	return tx != ty ? (tx < ty ? -1 : 1) : (x < y ? -1 : x > y);
}

/* The index fdr_thread_table_find() searches. */
static int index_tids(struct fdr_thread_table *t)
{
	t->by_tid = malloc((t->count + 1) * sizeof(*t->by_tid));
	if (!t->by_tid)
		return -1;
	for (size_t i = 0; i < t->count; i++)
		t->by_tid[i] = (uint32_t)i;
	qsort_r(t->by_tid, t->count, sizeof(*t->by_tid), by_tid, t);
	return 0;
}

int fdr_thread_table_load(struct fdr_thread_table **out, const char *path,
			  struct fdr_reader_error *err)
{
	struct fdr_thread_table *t = calloc(1, sizeof(*t));
	FILE *f;
	int r;

	*out = NULL;
	if (!t)
		return reader_fail(err, 0, "", "%s: out of memory", path);
	f = fopen(path, "re");
	if (!f) {
		r = errno;
		free(t);
		return reader_fail(err, 0, "", "cannot open %s: %s", path, strerror(r));
	}
	r = read_lines(t, f, path, err);
	fclose(f);
	if (r == 0 && index_tids(t))
		r = reader_fail(err, 0, "", "%s: out of memory", path);
	if (r) {
		fdr_thread_table_free(t);
		return -1;
	}
	*out = t;
	return 0;
}

void fdr_thread_table_free(struct fdr_thread_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++) {
		free((char *)t->rows[i].comm);
		free((char *)t->rows[i].exe);
	}
	free(t->rows);
	free(t->by_tid);
	free(t);
}

size_t fdr_thread_table_count(const struct fdr_thread_table *t)
{
	return t ? t->count : 0;
}

const struct fdr_thread_info *fdr_thread_table_at(const struct fdr_thread_table *t,
						  size_t i)
{
	return t && i < t->count ? &t->rows[i] : NULL;
}

const struct fdr_thread_info *fdr_thread_table_find(const struct fdr_thread_table *t,
						    int32_t tid)
{
	size_t lo = 0, hi = t ? t->count : 0;

	while (lo < hi) {	/* the first row with this tid */
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[t->by_tid[mid]].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t && lo < t->count && t->rows[t->by_tid[lo]].tid == tid ?
	       &t->rows[t->by_tid[lo]] : NULL;
}

const struct fdr_trigger_info *fdr_thread_table_trigger(const struct fdr_thread_table *t)
{
	return t && t->trigger.fid ? &t->trigger : NULL;
}
