// SPDX-License-Identifier: MIT
/*
 * test_uring_writer.c - the io_uring writer puts exactly the laid-out
 * bytes on disk in every mode, with O_TMPFILE and with the hidden-name
 * fallback, never replaces or follows what is in the directory, and
 * leaves nothing behind when it fails (vanished directory, full
 * filesystem: refused before its first byte, in every mode).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>

#include "log_layout.h"
#include "synth_region.h"
#include "tap.h"
#include "uring_writer.h"

#define BSIZE 65536u
#define NBUF 64u

static char *read_all(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	*len = (size_t)read(fd, buf, (size_t)st.st_size);
	close(fd);
	return buf;
}

/* The expected file: concatenation of the pieces. */
static char *flatten(const struct iovec *iov, size_t n, size_t *len)
{
	size_t total = 0, off = 0;
	char *out;

	for (size_t i = 0; i < n; i++)
		total += iov[i].iov_len;
	out = malloc(total);
	for (size_t i = 0; i < n; i++) {
		memcpy(out + off, iov[i].iov_base, iov[i].iov_len);
		off += iov[i].iov_len;
	}
	*len = total;
	return out;
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return (size_t)-1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* uring_write_file into the directory at path, opened as fdrd does. */
static int write_to(const char *path, const char *name, const struct iovec *iov,
		    size_t n, const struct uring_write_opts *o,
		    struct uring_write_report *rep, char *err, size_t errlen)
{
	struct out_dir d;
	int ret = out_dir_open(&d, path, true, err, errlen);

	if (ret)
		return ret;
	ret = uring_write_file(&d, name, iov, n, o, rep, err, errlen);
	out_dir_close(&d);
	return ret;
}

/* A region with buffers of assorted fill levels, the log's pieces. */
static void make_log(struct synth_region *r, struct log_layout *l,
		     struct iovec **iov, size_t *n)
{
	const char *why;

	synth_region_create(r, NBUF, BSIZE, FDR_CTL_CONSTANT_TSC, 3000000000ull);
	for (uint32_t i = 0; i < NBUF; i++)
		synth_fill(r, i, NBUF - i, 1000 + (int32_t)i, 1000, (uint16_t)(i % 3),
			   100 * i, (int32_t)i + 1, i % 4 == 0 ? 100000 : 7 * i);
	log_layout_build(r->ro, r->len, NULL, l, &why);
	log_layout_iovecs(l, iov, n);
}

static void test_modes(const char *dir, const struct iovec *iov, size_t n)
{
	static const struct { enum uring_write_mode mode; size_t chunk; unsigned depth; bool pre, reg, async, named; }
	cases[] = {
		{ URING_WRITE_VECTORED, 0, 0, false, false, false, false },
		{ URING_WRITE_VECTORED, 4096, 2, false, false, false, false },	/* many small requests */
		{ URING_WRITE_VECTORED, 0, 0, true, false, false, false },
		{ URING_WRITE_VECTORED, 65536, 4, false, true, true, false },	/* registered fd, io-wq */
		{ URING_WRITE_FIXED, 0, 0, false, false, false, false },
		{ URING_WRITE_DIRECT, 0, 0, false, false, false, false },
		{ URING_WRITE_DIRECT, 8192, 3, false, false, false, false },
		{ URING_WRITE_BOUNCE, 0, 0, false, false, false, false },
		{ URING_WRITE_BOUNCE, 12288, 2, false, false, false, false },
		{ URING_WRITE_SYNC, 0, 0, false, false, false, false },
		{ URING_WRITE_SYNC, 0, 0, true, false, false, true },	/* preallocated, hidden name */
		/* no O_TMPFILE: a hidden name, renamed without replacing */
		{ URING_WRITE_VECTORED, 0, 0, false, false, false, true },
		{ URING_WRITE_DIRECT, 8192, 3, false, false, false, true },
	};
	size_t elen, flen;
	char *expect = flatten(iov, n, &elen), *got, name[64], path[512], err[512];

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct uring_write_opts o = { .mode = cases[c].mode,
					      .chunk_bytes = cases[c].chunk,
					      .queue_depth = cases[c].depth,
					      .preallocate = cases[c].pre,
					      .register_file = cases[c].reg,
					      .async = cases[c].async,
					      .no_tmpfile = cases[c].named,
					      .fsync = c == 0 || cases[c].named };
		struct uring_write_report rep;
		int ret;

		snprintf(name, sizeof(name), "mode%zu.xray", c);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		ret = write_to(dir, name, iov, n, &o, &rep, err, sizeof(err));
		got = read_all(path, &flen);
		tap_ok(ret == 0 && got && flen == elen && !memcmp(got, expect, elen),
		       "%s (chunk %zu, depth %u%s%s%s%s%s): %zu bytes identical to the layout; used %s%s%s",
		       uring_write_mode_name(o.mode), cases[c].chunk, cases[c].depth,
		       o.no_tmpfile ? ", hidden name" : "",
		       o.preallocate ? ", preallocate" : "", o.fsync ? ", fsync" : "",
		       o.register_file ? ", registered file" : "", o.async ? ", IOSQE_ASYNC" : "",
		       elen, uring_write_mode_name(rep.mode_used),
		       rep.fallback ? ", fallback: " : "", rep.fallback ? rep.fallback : "");
		if (ret)
			tap_diag("%s", err);
		free(got);
		unlink(path);
	}
	tap_ok(count_entries(dir) == 0, "every mode: nothing but the file was left");
	free(expect);
}

/*
 * io_uring pins registered buffers for writing, so a read-only mapping
 * (what fdr_ctl_map gives) is refused and the writer falls back; the same
 * pages mapped read-write register fine.
 */
static void test_fixed(const char *dir, struct synth_region *r)
{
	struct uring_write_opts o = { .mode = URING_WRITE_FIXED };
	struct uring_write_report rep;
	struct log_layout l;
	struct iovec *iov;
	const char *why;
	char err[512], path[512], *got, *expect;
	size_t n, len, elen;
	int ret;

	log_layout_build(r->ro, r->len, NULL, &l, &why);
	log_layout_iovecs(&l, &iov, &n);
	ret = write_to(dir, "ro.xray", iov, n, &o, &rep, err, sizeof(err));
	tap_ok(ret == 0 && rep.mode_used == URING_WRITE_VECTORED && rep.fallback,
	       "registered buffers on the read-only mapping: fallback to writev (%s)",
	       rep.fallback ? rep.fallback : "no fallback");
	snprintf(path, sizeof(path), "%s/ro.xray", dir);
	unlink(path);
	free(iov);
	log_layout_free(&l);

	log_layout_build(r->ctl, r->len, NULL, &l, &why);
	log_layout_iovecs(&l, &iov, &n);
	ret = write_to(dir, "rw.xray", iov, n, &o, &rep, err, sizeof(err));
	snprintf(path, sizeof(path), "%s/rw.xray", dir);
	got = read_all(path, &len);
	expect = flatten(iov, n, &elen);
	tap_ok(ret == 0 && rep.mode_used == URING_WRITE_FIXED && got && len == elen &&
	       !memcmp(got, expect, elen),
	       "registered buffers on a read-write mapping: WRITE_FIXED, identical bytes (%lu writes)",
	       rep.sqes);
	unlink(path);
	free(got);
	free(expect);
	free(iov);
	log_layout_free(&l);
}

static void put_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		tap_diag("setup: cannot write %s", path);
	close(fd);
}

static bool holds(const char *path, const char *text)
{
	size_t len;
	char *got = read_all(path, &len);
	bool same = got && len == strlen(text) && !memcmp(got, text, len);

	free(got);
	return same;
}

/* A file, or a symlink to one, at the final name: kept, not followed. */
static void test_no_replace(const char *dir, const struct iovec *iov, size_t n)
{
	char path[512], link[600], victim[512], err[512];
	struct uring_write_report rep;
	int ret;

	snprintf(path, sizeof(path), "%s/taken.xray", dir);
	snprintf(link, sizeof(link), "%s/link.xray", dir);
	snprintf(victim, sizeof(victim), "%s.victim", dir);
	for (int named = 0; named < 2; named++) {
		struct uring_write_opts o = { .no_tmpfile = named };
		const char *how = named ? "hidden name" : "O_TMPFILE";
		struct stat st;

		put_file(path, "mine");
		ret = write_to(dir, "taken.xray", iov, n, &o, &rep, err, sizeof(err));
		tap_ok(ret == -EEXIST && holds(path, "mine") && strstr(err, path) &&
		       strstr(err, "never replaces"),
		       "%s: an existing file is never replaced (%s)", how, err);
		unlink(path);
		put_file(victim, "precious");
		if (symlink(victim, link))
			tap_diag("setup: symlink %s", link);
		ret = write_to(dir, "link.xray", iov, n, &o, &rep, err, sizeof(err));
		tap_ok(ret == -EEXIST && holds(victim, "precious") && !lstat(link, &st) &&
		       S_ISLNK(st.st_mode),
		       "%s: a symlink at the final name is neither followed nor replaced", how);
		unlink(link);
		unlink(victim);
		tap_ok(count_entries(dir) == 0, "%s: no temporary file left behind", how);
	}
}

/*
 * Without O_TMPFILE the hidden name .NAME.tmp is tried first: a symlink
 * or a hard link planted there is never opened (O_EXCL|O_NOFOLLOW);
 * another hidden name is used, and removed once the file has its name.
 */
static void test_planted_hidden(const char *dir, const struct iovec *iov, size_t n)
{
	struct uring_write_opts o = { .no_tmpfile = true };
	char tmp[512], victim[512], path[512], err[512], *got, *expect;
	struct uring_write_report rep;
	size_t len, elen;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/.p.xray.tmp", dir);
	snprintf(path, sizeof(path), "%s/p.xray", dir);
	snprintf(victim, sizeof(victim), "%s.victim", dir);
	expect = flatten(iov, n, &elen);
	for (int hard = 0; hard < 2; hard++) {
		put_file(victim, "precious");
		if (hard ? link(victim, tmp) : symlink(victim, tmp))
			tap_diag("setup: cannot plant %s", tmp);
		ret = write_to(dir, "p.xray", iov, n, &o, &rep, err, sizeof(err));
		got = read_all(path, &len);
		tap_ok(ret == 0 && holds(victim, "precious") && got && len == elen &&
		       !memcmp(got, expect, elen) && count_entries(dir) == 2,
		       "hidden name: a %s planted at .p.xray.tmp is not written through; "
		       "the file is complete, no other temporary left",
		       hard ? "hard link" : "symlink");
		if (ret)
			tap_diag("%s", err);
		free(got);
		unlink(path);
		unlink(tmp);
		unlink(victim);
	}
	free(expect);
}

/* The directory goes away before fdrd opens it, or while it writes. */
static void test_vanished_dir(const struct iovec *iov, size_t n)
{
	struct uring_write_opts o = { 0 };
	struct uring_write_report rep;
	char dir[] = "/tmp/fdrd-gone-XXXXXX", err[512];
	struct out_dir d;
	int ret;

	mkdtemp(dir);
	rmdir(dir);
	ret = write_to(dir, "x.xray", iov, n, &o, &rep, err, sizeof(err));
	tap_ok(ret == -ENOENT && strstr(err, dir) && strstr(err, "gone"),
	       "vanished output directory: %s", err);
	for (int named = 0; named < 2; named++) {
		mkdtemp(strcpy(dir, "/tmp/fdrd-gone-XXXXXX"));
		out_dir_open(&d, dir, true, err, sizeof(err));
		rmdir(dir);
		o.no_tmpfile = named;
		ret = uring_write_file(&d, "x.xray", iov, n, &o, &rep, err, sizeof(err));
		out_dir_close(&d);
		tap_ok(ret == -ENOENT && strstr(err, dir) && strstr(err, "gone"),
		       "%s: output directory removed after it was opened: %s",
		       named ? "hidden name" : "O_TMPFILE", err);
	}
}

/*
 * Every write that reaches a file on the mount at dir, io_uring's
 * included, as FAN_MODIFY events: how a test sees that no byte was
 * written to a file that is gone.  -1 when fanotify is not available.
 */
static int watch_writes(const char *dir)
{
	int fan = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK | FAN_CLOEXEC,
				O_RDONLY | O_LARGEFILE);

	if (fan < 0)
		return -1;
	if (fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_MODIFY, AT_FDCWD, dir)) {
		close(fan);
		return -1;
	}
	return fan;
}

/* FAN_MODIFY events since the last call (their files' descriptors closed). */
static long writes_seen(int fan)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t len;
	long n = 0;

	while ((len = read(fan, buf, sizeof(buf))) > 0)
		for (struct fanotify_event_metadata *m = (void *)buf; FAN_EVENT_OK(m, len);
		     m = FAN_EVENT_NEXT(m, len)) {
			if (m->fd >= 0)
				close(m->fd);
			n += !!(m->mask & FAN_MODIFY);
		}
	return n;
}

static unsigned long long free_blocks(const char *dir)
{
	struct statvfs s;

	return statvfs(dir, &s) ? 0 : (unsigned long long)s.f_bfree;
}

static bool idle_called;

static bool note_idle(void *ctx, uint64_t submitted_end)
{
	(void)ctx;
	(void)submitted_end;
	idle_called = true;
	return false;
}

/* Every way a log is written: fdrd's modes, the hidden name, fdr record's
 * flush from the region's descriptor. */
static const struct { enum uring_write_mode mode; bool pre, named, source; } cases[] = {
	{ URING_WRITE_VECTORED, false, false, false },
	{ URING_WRITE_SYNC, false, false, false },
	{ URING_WRITE_SYNC, true, false, false },	/* --preallocate */
	{ URING_WRITE_DIRECT, false, false, false },
	{ URING_WRITE_BOUNCE, false, false, false },
	{ URING_WRITE_VECTORED, false, true, false },	/* hidden name */
	{ URING_WRITE_SYNC, false, false, true },	/* fdr record's flush */
};

/*
 * A full disk, in every way a log is written (fdrd's modes, the hidden
 * name, fdr record's flush from the region's descriptor): the free-space
 * check refuses the file before its first byte.  The filesystem is one
 * page short of the log, so a writer that found out at a write would
 * have written nearly all of it first: no write reached it (fanotify), the
 * writer reported none (no byte, no request, no idle call), and nothing is
 * left (no entry, every block free again).
 */
static void test_enospc(struct synth_region *r, const struct iovec *iov, size_t n,
			size_t total)
{
	const struct uring_source src = { r->fd, r->ro, r->len };
	struct uring_write_hooks hooks = { .idle = note_idle };
	char dir[] = "/tmp/fdrd-full-XXXXXX", err[512], opts[64], path[512], *got, *expect;
	unsigned long long before;
	size_t len, elen;
	int ret, fan;

	mkdtemp(dir);
	snprintf(opts, sizeof(opts), "size=%zuk", (total / 4096 - 1) * 4);
	if (mount("fdrd-test", dir, "tmpfs", 0, opts)) {
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
			tap_skip("cannot mount tmpfs (not root?)", "ENOSPC before any byte");
		tap_skip("cannot mount tmpfs (not root?)", "retry after freeing space");
		rmdir(dir);
		return;
	}
	fan = watch_writes(dir);
	if (fan < 0)
		tap_diag("fanotify unavailable (%s): writes not watched", strerror(errno));
	before = free_blocks(dir);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct uring_write_opts o = { .mode = cases[c].mode, .preallocate = cases[c].pre,
					      .no_tmpfile = cases[c].named,
					      .source = cases[c].source ? &src : NULL };
		struct uring_write_report rep;
		struct out_dir d;
		long writes;

		idle_called = false;
		ret = out_dir_open(&d, dir, true, err, sizeof(err));
		if (!ret) {
			memset(&rep, 0xff, sizeof(rep));
			ret = uring_write_file_hooked(&d, "full.xray", iov, n, &o, &hooks, &rep,
						      err, sizeof(err));
			out_dir_close(&d);
		}
		writes = fan < 0 ? 0 : writes_seen(fan);
		tap_ok(ret == -ENOSPC && strstr(err, dir) &&
		       strstr(err, "cannot find room for") && strstr(err, "nothing was written") &&
		       rep.bytes == 0 && rep.sqes == 0 && !idle_called && writes == 0 &&
		       count_entries(dir) == 0 && free_blocks(dir) == before,
		       "ENOSPC %s%s%s%s: refused before any byte (%ld writes seen, %llu bytes "
		       "reported), nothing left (%llu of %llu blocks free): %s",
		       uring_write_mode_name(o.mode), o.preallocate ? ", preallocate" : "",
		       o.no_tmpfile ? ", hidden name" : "", o.source ? ", from the descriptor" : "",
		       writes, (unsigned long long)rep.bytes, free_blocks(dir), before, err);
	}
	snprintf(opts, sizeof(opts), "size=%zuk", total / 1024 + 64);
	mount("fdrd-test", dir, "tmpfs", MS_REMOUNT, opts);
	ret = write_to(dir, "full.xray", iov, n, &(struct uring_write_opts){ 0 }, &(struct uring_write_report){ 0 },
		       err, sizeof(err));
	snprintf(path, sizeof(path), "%s/full.xray", dir);
	got = read_all(path, &len);
	expect = flatten(iov, n, &elen);
	tap_ok(ret == 0 && got && len == elen && !memcmp(got, expect, elen) &&
	       (fan < 0 || writes_seen(fan) > 0),
	       "after more space the same pieces write completely (and the watch saw the writes)");
	if (fan >= 0)
		close(fan);
	free(got);
	free(expect);
	umount(dir);
	rmdir(dir);
}

/*
 * A file size limit (ulimit -f) a page short of the log, SIGXFSZ at its
 * default action: a writer that found out at a write would have been
 * killed by the signal, after writing nearly all of it.  Each way refuses
 * the file before its first byte, names the limit, and leaves nothing;
 * a limit of exactly the log's size lets it through.
 */
static void test_size_limit(struct synth_region *r, const struct iovec *iov, size_t n,
			    size_t total)
{
	const struct uring_source src = { r->fd, r->ro, r->len };
	char dir[] = "/tmp/fdrd-fsize-XXXXXX", err[512];
	struct rlimit old, lim;
	bool set;

	mkdtemp(dir);
	signal(SIGXFSZ, SIG_DFL);
	set = !getrlimit(RLIMIT_FSIZE, &old);
	for (size_t c = 0; c <= sizeof(cases) / sizeof(cases[0]); c++) {
		bool exact = c == sizeof(cases) / sizeof(cases[0]);
		struct uring_write_opts o = { 0 };
		struct uring_write_report rep;
		struct out_dir d;
		int ret;

		if (!exact)
			o = (struct uring_write_opts){ .mode = cases[c].mode,
						       .preallocate = cases[c].pre,
						       .no_tmpfile = cases[c].named,
						       .source = cases[c].source ? &src : NULL };
		lim = (struct rlimit){ exact ? total : total - 4096, old.rlim_max };
		ret = set && !setrlimit(RLIMIT_FSIZE, &lim) ? 0 : -errno;
		if (!ret)
			ret = out_dir_open(&d, dir, true, err, sizeof(err));
		if (!ret) {
			memset(&rep, 0xff, sizeof(rep));
			ret = uring_write_file(&d, exact ? "exact.xray" : "big.xray", iov, n,
					       &o, &rep, err, sizeof(err));
			out_dir_close(&d);
		}
		if (set)
			setrlimit(RLIMIT_FSIZE, &old);
		if (exact) {
			tap_ok(ret == 0 && count_entries(dir) == 1,
			       "file size limit of exactly the log's size: written (%d)", ret);
			continue;
		}
		tap_ok(ret == -EFBIG && strstr(err, "ulimit -f") &&
		       strstr(err, "nothing was written") && rep.bytes == 0 && rep.sqes == 0 &&
		       count_entries(dir) == 0,
		       "file size limit %s%s%s%s: refused before any byte, nothing left: %s",
		       uring_write_mode_name(o.mode), o.preallocate ? ", preallocate" : "",
		       o.no_tmpfile ? ", hidden name" : "", o.source ? ", from the descriptor" : "",
		       err);
	}
	snprintf(err, sizeof(err), "%s/exact.xray", dir);
	unlink(err);
	rmdir(dir);
}

int main(void)
{
	struct synth_region r;
	struct log_layout l;
	struct iovec *iov;
	char dir[] = "/tmp/fdrd-writer-XXXXXX";
	size_t n;

	if (!mkdtemp(dir))
		return 1;
	make_log(&r, &l, &iov, &n);
	tap_diag("log: %zu buffers, %llu bytes", l.nr_buffers, (unsigned long long)l.file_size);
	test_modes(dir, iov, n);
	test_fixed(dir, &r);
	test_no_replace(dir, iov, n);
	test_planted_hidden(dir, iov, n);
	test_vanished_dir(iov, n);
	test_enospc(&r, iov, n, l.file_size);
	test_size_limit(&r, iov, n, l.file_size);
	free(iov);
	log_layout_free(&l);
	synth_region_destroy(&r);
	rmdir(dir);
	return tap_done();
}
