// SPDX-License-Identifier: MIT
/*
 * test_log_source.c - a log written with its buffers read from the
 * region's descriptor (uring_source.c, fdr record's flush) is byte for
 * byte the log written from the mapping; the bytes validated are the
 * bytes written (a descriptor that holds other bytes than the mapping
 * gives the log of those bytes); a descriptor that cannot be read falls
 * back to the mapping before any byte; an object truncated under the
 * flush gives a log without the missing bytes, not a crash.  The side
 * table's owner notes are read from the descriptor too (the mapping's
 * notes, even absent ones, are never used).  A region larger than the
 * writer's slots (write_behind.c) gives the same log with its writer
 * thread and on one CPU (no thread), with a buffer cut in the middle too;
 * a write that fails on the writer thread fails the flush with its error;
 * a log past the file size limit (ulimit -f) is refused before its first
 * byte and leaves no file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "log_layout.h"
#include "log_writer.h"
#include "out_dir.h"
#include "uring_internal.h"
#include "synth_region.h"
#include "tap.h"

#define BSIZE 65536u
#define NBUF 6u

static void fill(struct synth_region *r)
{
	synth_region_create(r, NBUF, BSIZE, FDR_CTL_CONSTANT_TSC, 3000000000ull);
	for (uint32_t i = 0; i < NBUF; i++)
		synth_fill(r, i, i + 1, 500 + (int32_t)i, 500, 0, 100 * i, 1,
			   i == 2 ? 100000 : 300 * (i + 1));
}

/* Spoil a record in the middle of buffer i (an unknown metadata kind). */
static void spoil(struct synth_region *r, uint32_t i)
{
	memset(synth_buffer(r, i) + 4096, 0xff, 16);
}

/* Lay out from map, write dir/name (and dir/table if not NULL) reading
 * from src (NULL: the map). */
static int write_log_table(const char *dir, const char *name, const char *table,
			   const struct fdr_control *map, size_t len,
			   const struct uring_source *src,
			   struct uring_write_report *rep)
{
	struct uring_write_opts o = { 0 };
	struct log_layout l;
	struct out_dir d;
	const char *why;
	char err[1024] = "";
	int ret;

	log_write_defaults(&o);
	o.source = src;
	if (log_layout_select(map, len, NULL, &l, &why))
		return -1;
	ret = out_dir_open(&d, dir, true, err, sizeof(err));
	if (!ret)
		ret = log_write(&l, &d, name, &(struct log_sides){ .table_name = table },
				&o, rep, err, sizeof(err));
	if (ret)
		tap_diag("log_write %s: %d %s", name, ret, err);
	out_dir_close(&d);
	log_layout_free(&l);
	return ret;
}

static int write_log(const char *dir, const char *name, const struct fdr_control *map,
		     size_t len, const struct uring_source *src,
		     struct uring_write_report *rep)
{
	return write_log_table(dir, name, NULL, map, len, src, rep);
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[512];
	struct stat sb;
	char *buf = NULL;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &sb) || !(buf = malloc((size_t)sb.st_size + 1)) ||
	    read(fd, buf, (size_t)sb.st_size) != sb.st_size) {
		free(buf);
		buf = NULL;
	}
	*len = buf ? (size_t)sb.st_size : 0;
	if (fd >= 0)
		close(fd);
	return buf;
}

static bool same_files(const char *dir, const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(dir, a, &la), *y = slurp(dir, b, &lb);
	bool same = x && y && la == lb && la > 0 && !memcmp(x, y, la);

	if (!same)
		tap_diag("%s: %zu bytes, %s: %zu bytes", a, la, b, lb);
	free(x);
	free(y);
	return same;
}

static bool test_same_bytes(const char *dir, bool spoiled)
{
	struct uring_write_report ra, rb;
	struct synth_region r;
	struct uring_source src;
	const char *a = spoiled ? "spoiled-map.xray" : "map.xray";
	const char *b = spoiled ? "spoiled-fd.xray" : "fd.xray";
	bool ok;

	fill(&r);
	if (spoiled)
		spoil(&r, 3);
	src = (struct uring_source){ r.fd, r.ro, r.len };
	ok = write_log(dir, a, r.ro, r.len, NULL, &ra) == 0 &&
	     write_log(dir, b, r.ro, r.len, &src, &rb) == 0;
	ok = ok && rb.mode_used == URING_WRITE_PREAD && !rb.fallback;
	ok = ok && ra.mode_used != URING_WRITE_PREAD;
	ok = ok && same_files(dir, a, b);
	synth_region_destroy(&r);
	return ok;
}

/* The descriptor holds a spoiled buffer the mapping does not: the log is
 * the spoiled region's, so validation saw the bytes that were written. */
static bool test_validates_what_it_writes(const char *dir)
{
	struct uring_write_report ra, rb;
	struct synth_region clean, bad;
	struct uring_source src;
	bool ok;

	fill(&clean);
	fill(&bad);
	spoil(&bad, 1);
	src = (struct uring_source){ bad.fd, clean.ro, clean.len };
	ok = write_log(dir, "bad-map.xray", bad.ro, bad.len, NULL, &ra) == 0 &&
	     write_log(dir, "clean-map-bad-fd.xray", clean.ro, clean.len, &src, &rb) == 0;
	ok = ok && same_files(dir, "bad-map.xray", "clean-map-bad-fd.xray");
	synth_region_destroy(&clean);
	synth_region_destroy(&bad);
	return ok;
}

/* A descriptor open for writing only: pread refuses, the map is used. */
static bool test_fallback(const char *dir)
{
	struct uring_write_report ra, rb;
	struct synth_region r;
	struct uring_source src;
	char path[64];
	bool ok;
	int wo;

	fill(&r);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", r.fd);
	wo = open(path, O_WRONLY);
	src = (struct uring_source){ wo, r.ro, r.len };
	ok = wo >= 0 &&
	     write_log(dir, "fb-map.xray", r.ro, r.len, NULL, &ra) == 0 &&
	     write_log(dir, "fb-fd.xray", r.ro, r.len, &src, &rb) == 0;
	ok = ok && rb.fallback && rb.mode_used != URING_WRITE_PREAD;
	/* nothing was written before the fallback: no byte twice */
	ok = ok && rb.bytes == ra.bytes && rb.sqes == ra.sqes;
	ok = ok && same_files(dir, "fb-map.xray", "fb-fd.xray");
	if (wo >= 0)
		close(wo);
	synth_region_destroy(&r);
	return ok;
}

/* The object cut short under the flush: the missing tail reads as zeroes
 * and validation leaves it out; the log is the one of a region whose
 * last buffers were never written. */
static bool test_truncated(const char *dir)
{
	struct uring_write_report rb;
	struct synth_region r, cut;
	struct uring_source src;
	size_t la, lb;
	char *x, *y;
	bool ok;

	fill(&r);
	fill(&cut);
	src = (struct uring_source){ cut.fd, r.ro, r.len };
	ok = ftruncate(cut.fd, (off_t)(cut.len - 2 * BSIZE)) == 0 &&
	     write_log(dir, "cut.xray", r.ro, r.len, &src, &rb) == 0;
	x = slurp(dir, "cut.xray", &la);
	y = slurp(dir, "map.xray", &lb);
	ok = ok && x && y && la < lb && la > 0 && !memcmp(x + 32, y + 32, la - 32);
	free(x);
	free(y);
	synth_region_destroy(&r);
	synth_region_destroy(&cut);
	return ok;
}

/* MANY buffers of 64 KiB: ten times the writer's slots, full and half
 * full, so that runs of buffers are read with one call and broken. */
#define MANY 40u

static void fill_many(struct synth_region *r)
{
	synth_region_create(r, MANY, BSIZE, FDR_CTL_CONSTANT_TSC, 3000000000ull);
	for (uint32_t i = 0; i < MANY; i++)
		synth_fill(r, i, i + 1, 700 + (int32_t)(i % 3), 700, (uint16_t)(i % 2),
			   1000 * i, 1, i % 5 == 4 ? 900 : 100000);
}

/* Run on the first allowed CPU alone when one_cpu (no writer thread). */
static bool pin(bool one_cpu, cpu_set_t *old)
{
	cpu_set_t one;

	if (!one_cpu)
		return true;
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, old)) {
			CPU_SET(c, &one);
			break;
		}
	return !sched_setaffinity(0, sizeof(one), &one);
}

/*
 * The log written from the descriptor is the log of the descriptor's
 * bytes: the mapping's when both are one object, the spoiled object's
 * when only the descriptor's buffer 23 (a later slot) is spoiled - so
 * that validation must have run on the copies, in order, to match.
 */
static bool test_many_slots(const char *dir, bool one_cpu, bool spoiled)
{
	struct uring_write_report ra, rb;
	struct synth_region r, fdr;
	struct uring_source src;
	char a[64], b[64];
	cpu_set_t old;
	bool ok;

	snprintf(a, sizeof(a), "many-%d-%d-map.xray", one_cpu, spoiled);
	snprintf(b, sizeof(b), "many-%d-%d-fd.xray", one_cpu, spoiled);
	fill_many(&r);
	fill_many(&fdr);
	if (spoiled)
		spoil(&fdr, 23);
	src = (struct uring_source){ fdr.fd, r.ro, r.len };
	if (sched_getaffinity(0, sizeof(old), &old))
		return false;
	ok = pin(one_cpu, &old);
	ok = ok && write_log(dir, a, fdr.ro, fdr.len, NULL, &ra) == 0 &&
	     write_log(dir, b, r.ro, r.len, &src, &rb) == 0;
	sched_setaffinity(0, sizeof(old), &old);
	ok = ok && rb.mode_used == URING_WRITE_PREAD && !rb.fallback;
	ok = ok && rb.bytes == ra.bytes && rb.bytes > 8 * BSIZE;
	ok = ok && same_files(dir, a, b);
	synth_region_destroy(&r);
	synth_region_destroy(&fdr);
	return ok;
}

/* Entries of dir besides . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return d ? n : -1;
}

/* The file size limit before log_write, restored after. */
static struct rlimit saved_fsize;

/* The copied hook: once the first piece is read and checked, the limit
 * drops to 1 MiB, so the writes after it fail (EFBIG) on the writer
 * thread, past the writer's check of the whole file. */
static void lower_limit(void *ctx, const void *mapped, const void *copy, size_t len)
{
	struct rlimit lim = { 1u << 20, saved_fsize.rlim_max };
	bool *lowered = ctx;

	(void)mapped;
	(void)copy;
	(void)len;
	if (!*lowered)
		*lowered = !setrlimit(RLIMIT_FSIZE, &lim);
}

/* A write that fails on the writer thread fails the flush with its error. */
static bool test_write_fails(const char *dir)
{
	struct uring_write_report rep = { 0 };
	struct synth_region r;
	struct uring_source src;
	struct log_layout l;
	struct iovec *iov = NULL;
	bool lowered = false;
	struct uring_write_hooks hooks = { .ctx = &lowered, .copied = lower_limit };
	const char *why;
	char path[512];
	size_t n = 0;
	int fd, ret = 0;
	bool ok;

	snprintf(path, sizeof(path), "%s/efbig.xray", dir);
	fill_many(&r);
	src = (struct uring_source){ r.fd, r.ro, r.len };
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ok = fd >= 0 && !getrlimit(RLIMIT_FSIZE, &saved_fsize) &&
	     !log_layout_select(r.ro, r.len, NULL, &l, &why);
	ok = ok && !log_layout_iovecs(&l, &iov, &n);
	signal(SIGXFSZ, SIG_IGN);	/* on one CPU the calling thread writes */
	if (ok)
		ret = uring_write_sourced(fd, iov, n, &src, &hooks, &rep);
	ok = ok && !setrlimit(RLIMIT_FSIZE, &saved_fsize);
	signal(SIGXFSZ, SIG_DFL);
	if (ret != -EFBIG)
		tap_diag("writes past a limit lowered mid-flush: %d, expected %d", ret, -EFBIG);
	ok = ok && lowered && ret == -EFBIG && l.file_size > (2u << 20);
	free(iov);
	log_layout_free(&l);
	if (fd >= 0)
		close(fd);
	unlink(path);
	synth_region_destroy(&r);
	return ok;
}

/* A log larger than the file size limit (1 MiB), SIGXFSZ at its default
 * action: refused before any byte, no file left, and no signal (it would
 * have ended this test). */
static bool test_size_limit(const char *dir)
{
	struct rlimit old, lim;
	struct uring_write_report rb;
	struct synth_region r;
	struct uring_source src;
	char sub[512];
	int ret;
	bool ok;

	snprintf(sub, sizeof(sub), "%s/efbig", dir);
	fill_many(&r);
	src = (struct uring_source){ r.fd, r.ro, r.len };
	ok = mkdir(sub, 0700) == 0 && !getrlimit(RLIMIT_FSIZE, &old);
	lim = (struct rlimit){ 1u << 20, old.rlim_max };	/* soft only: restorable */
	ok = ok && !setrlimit(RLIMIT_FSIZE, &lim);
	ret = ok ? write_log(sub, "big.xray", r.ro, r.len, &src, &rb) : 0;
	ok = ok && !setrlimit(RLIMIT_FSIZE, &old);
	if (ret != -EFBIG)
		tap_diag("log_write with RLIMIT_FSIZE 1 MiB: %d, expected %d", ret, -EFBIG);
	if (entries(sub))
		tap_diag("%d entries left in %s", entries(sub), sub);
	ok = ok && ret == -EFBIG && rb.bytes == 0 && entries(sub) == 0;
	rmdir(sub);
	synth_region_destroy(&r);
	return ok;
}

/* Buffer i's note names comm (none if comm is NULL), for every buffer. */
static void fill_noted(struct synth_region *r, const char *comm)
{
	fill(r);
	for (uint32_t i = 0; comm && i < NBUF; i++)
		synth_note(r, i, comm, "/opt/prog");
}

/*
 * The table written with the mapping's notes being `mapped` and the
 * descriptor's `read` is the table of the descriptor's region alone, and
 * not the mapping's (so that the check can fail).
 */
static bool notes_from(const char *dir, const char *tag, const char *mapped,
		       const char *read)
{
	struct uring_write_report r1, r2, r3;
	struct synth_region map, fd;
	struct uring_source src;
	char sub[3][512], t[3][64];
	bool ok = true;

	fill_noted(&map, mapped);
	fill_noted(&fd, read);
	/* one directory each: the table names its log */
	for (int i = 0; i < 3; i++) {
		snprintf(sub[i], sizeof(sub[i]), "%s/%s-%d", dir, tag, i);
		snprintf(t[i], sizeof(t[i]), "%s-%d/x.xray.threads", tag, i);
		ok = ok && mkdir(sub[i], 0700) == 0;
	}
	src = (struct uring_source){ fd.fd, map.ro, map.len };
	ok = ok && write_log_table(sub[0], "x.xray", "x.xray.threads", map.ro, map.len,
				   &src, &r1) == 0;
	ok = ok && write_log_table(sub[1], "x.xray", "x.xray.threads", fd.ro, fd.len,
				   NULL, &r2) == 0;
	ok = ok && write_log_table(sub[2], "x.xray", "x.xray.threads", map.ro, map.len,
				   NULL, &r3) == 0;
	ok = ok && r1.mode_used == URING_WRITE_PREAD;
	ok = ok && same_files(dir, t[0], t[1]) && !same_files(dir, t[0], t[2]);
	synth_region_destroy(&map);
	synth_region_destroy(&fd);
	return ok;
}

int main(void)
{
	char dir[] = "/tmp/fdrd-source-XXXXXX", cmd[600];

	tap_plan(13);
	if (!mkdtemp(dir))
		return 1;
	tap_ok(test_same_bytes(dir, false), "source: the same log as from the mapping");
	tap_ok(test_same_bytes(dir, true), "source: the same log with a spoiled buffer cut");
	tap_ok(test_validates_what_it_writes(dir), "source: validates the bytes it writes");
	tap_ok(test_fallback(dir), "source: an unreadable descriptor falls back to the mapping");
	tap_ok(test_truncated(dir), "source: a truncated object gives a log without its tail");
	tap_ok(notes_from(dir, "notes", "mapped", "read"),
	       "source: the side table's owner notes are the descriptor's");
	tap_ok(notes_from(dir, "none", "mapped", NULL),
	       "source: no note in the descriptor, the mapping's is not used");
	tap_ok(test_many_slots(dir, false, false),
	       "source: a region of many slots, writer thread: the mapping's log");
	tap_ok(test_many_slots(dir, false, true),
	       "source: the same, the descriptor's buffer 23 of 40 spoiled: cut");
	tap_ok(test_many_slots(dir, true, false),
	       "source: a region of many slots on one CPU (no thread): the mapping's log");
	tap_ok(test_many_slots(dir, true, true),
	       "source: the same, the descriptor's buffer 23 of 40 spoiled: cut");
	tap_ok(test_write_fails(dir),
	       "source: a write failing on the writer thread (a file size limit lowered "
	       "mid-flush) fails the flush with its error");
	tap_ok(test_size_limit(dir),
	       "source: a log past the file size limit is refused before any byte, no "
	       "file left, no SIGXFSZ");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? tap_done() : 1;
}
