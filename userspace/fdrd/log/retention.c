// SPDX-License-Identifier: MIT
/*
 * retention.c - keep at most --max-logs logs and --max-bytes bytes of
 * fdrd's own logs in the output directory (retention.h).
 *
 * Everything is done relative to the flush's directory descriptor
 * (out_dir.h), without following a symlink: a name swapped for one
 * between the listing and the unlink is at worst unlinked itself, never
 * what it points to.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "log_name.h"
#include "retention.h"
#include "side_table.h"

#define MAX_LOGS_LISTED 100000

struct found {
	char *name;
	struct timespec mtime;
	uint64_t bytes;		/* log + side files */
	bool has_sched;
};

static bool ours(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_uid == geteuid();
}

/* The table fdrd writes first: "fdrd-threads\t1\nlog\t<escaped name>\n". */
static bool table_names(int dfd, const char *table, const char *log, uint64_t *bytes)
{
	char want[1024], got[1024];
	size_t want_len = 0;
	struct stat st;
	ssize_t n;
	FILE *f;
	int fd;

	f = fmemopen(want, sizeof(want), "w");
	if (!f)
		return false;
	fputs("fdrd-threads\t1\nlog\t", f);
	side_table_escape(f, log);
	fputc('\n', f);
	want_len = (size_t)ftell(f);
	if (fclose(f) || want_len >= sizeof(want))
		return false;
	fd = openat(dfd, table, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !ours(&st)) {
		close(fd);
		return false;
	}
	n = pread(fd, got, want_len, 0);
	close(fd);
	*bytes += (uint64_t)st.st_size;
	return n == (ssize_t)want_len && !memcmp(got, want, want_len);
}

static int by_age(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strverscmp(x->name, y->name);
}

static void free_found(struct found *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* fdrd's logs in d, oldest first. */
static int list_logs(const struct out_dir *d, const char *pattern,
		     struct found **out, size_t *nr)
{
	struct found *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;

	if (!dir) {
		int err = -errno;

		if (fd >= 0)
			close(fd);
		return err;
	}
	while ((e = readdir(dir)) && n < MAX_LOGS_LISTED) {
		char side[NAME_MAX + 16];
		struct stat st;
		uint64_t bytes;

		if (e->d_name[0] == '.' || !log_name_matches(pattern, e->d_name))
			continue;
		if (fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !ours(&st))
			continue;
		bytes = (uint64_t)st.st_size;
		snprintf(side, sizeof(side), "%s.threads", e->d_name);
		if (!table_names(d->fd, side, e->d_name, &bytes))
			continue;
		snprintf(side, sizeof(side), "%s.sched", e->d_name);
		struct stat ss;
		bool sched = !fstatat(d->fd, side, &ss, AT_SYMLINK_NOFOLLOW) && ours(&ss);

		if (sched)
			bytes += (uint64_t)ss.st_size;
		if (n == cap) {
			struct found *nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));

			if (!nv)
				goto nomem;
			v = nv;
		}
		v[n] = (struct found){ .name = strdup(e->d_name), .mtime = st.st_mtim,
				       .bytes = bytes, .has_sched = sched };
		if (!v[n].name)
			goto nomem;
		n++;
	}
	closedir(dir);
	qsort(v, n, sizeof(*v), by_age);
	*out = v;
	*nr = n;
	return 0;
nomem:
	closedir(dir);
	free_found(v, n);
	return -ENOMEM;
}

static void sayf(retention_say say, void *arg, bool error, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void sayf(retention_say say, void *arg, bool error, const char *fmt, ...)
{
	char text[NAME_MAX * 2 + 512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	say(arg, error, text);
}

/* The log, then its table and .sched: 0 or -errno (the log's unlink). */
static int delete_log(const struct out_dir *d, const struct found *f)
{
	char side[NAME_MAX + 16];

	if (unlinkat(d->fd, f->name, 0))
		return -errno;
	snprintf(side, sizeof(side), "%s.threads", f->name);
	unlinkat(d->fd, side, 0);
	if (f->has_sched) {
		snprintf(side, sizeof(side), "%s.sched", f->name);
		unlinkat(d->fd, side, 0);
	}
	return 0;
}

static void limits_text(const struct retention_limits *r, char *out, size_t len)
{
	if (r->max_logs && r->max_bytes)
		snprintf(out, len, "--max-logs %llu, --max-bytes %llu",
			 (unsigned long long)r->max_logs, (unsigned long long)r->max_bytes);
	else if (r->max_logs)
		snprintf(out, len, "--max-logs %llu", (unsigned long long)r->max_logs);
	else
		snprintf(out, len, "--max-bytes %llu", (unsigned long long)r->max_bytes);
}

int retention_apply(const struct out_dir *d, const char *pattern,
		    const struct retention_limits *r, const char *keep,
		    retention_say say, void *arg)
{
	struct found *v = NULL;
	size_t n = 0, i;
	uint64_t total = 0, count;
	char lim[128];
	int ret, deleted = 0;

	if (!retention_limited(r))
		return 0;
	ret = list_logs(d, pattern, &v, &n);
	if (ret) {
		sayf(say, arg, true, "cannot list %s to keep its logs within the limits: %s; "
		     "nothing deleted", d->path, strerror(-ret));
		return ret;
	}
	limits_text(r, lim, sizeof(lim));
	for (i = 0; i < n; i++)
		total += v[i].bytes;
	count = n;
	for (i = 0; i < n; i++) {
		if (!((r->max_logs && count > r->max_logs) ||
		      (r->max_bytes && total > r->max_bytes)))
			break;
		if (!strcmp(v[i].name, keep))
			continue;	/* the newest; said below if over */
		ret = delete_log(d, &v[i]);
		if (ret) {
			sayf(say, arg, true, "cannot delete old log %s/%s (%s): %s",
			     d->path, v[i].name, lim, strerror(-ret));
			continue;
		}
		count--;
		total -= v[i].bytes;
		deleted++;
		sayf(say, arg, false, "deleted the oldest log %s/%s with its side files "
		     "(%llu bytes) to keep %s; %llu logs, %llu bytes left", d->path,
		     v[i].name, (unsigned long long)v[i].bytes, lim,
		     (unsigned long long)count, (unsigned long long)total);
	}
	if (r->max_bytes && total > r->max_bytes && count <= 1)
		sayf(say, arg, false, "kept %s/%s although it alone is %llu bytes, more "
		     "than --max-bytes %llu: the newest log is always kept", d->path, keep,
		     (unsigned long long)total, (unsigned long long)r->max_bytes);
	free_found(v, n);
	return deleted;
}

bool retention_too_big(const struct retention_limits *r, uint64_t bytes,
		       char *why, size_t len)
{
	if (!r->max_bytes || bytes <= r->max_bytes)
		return false;
	snprintf(why, len, "%llu bytes, more than --max-bytes %llu",
		 (unsigned long long)bytes, (unsigned long long)r->max_bytes);
	return true;
}

int retention_parse_size(const char *s, uint64_t *out, const char **why)
{
	unsigned long long v = 0;
	const char *p = s;
	unsigned int shift = 0;

	if (*p < '0' || *p > '9') {
		*why = "not a number (digits, then K, M, G or T)";
		return -1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (unsigned)(*p - '0')) / 10) {
			*why = "too large";
			return -1;
		}
		v = v * 10 + (unsigned)(*p - '0');
	}
	switch (*p) {
	case 'k': case 'K': shift = 10; p++; break;
	case 'm': case 'M': shift = 20; p++; break;
	case 'g': case 'G': shift = 30; p++; break;
	case 't': case 'T': shift = 40; p++; break;
	}
	if (shift && (!strcmp(p, "iB") || !strcmp(p, "B")))
		p += strlen(p);
	else if (!shift && !strcmp(p, "B"))
		p++;
	if (*p) {
		*why = "unknown suffix (K, M, G or T: powers of 1024)";
		return -1;
	}
	if (shift && v > (UINT64_MAX >> shift)) {
		*why = "too large";
		return -1;
	}
	v <<= shift;
	if (!v) {
		*why = "must be more than 0 (no option: no limit)";
		return -1;
	}
	*out = v;
	return 0;
}
