// SPDX-License-Identifier: MIT
/*
 * flush_bench.c - fdrd's log writer against plain write(2) of the same
 * bytes to the same filesystem, interleaved rounds, medians.
 *
 *   flush_bench TARGET DIR ROUNDS
 *
 * TARGET is a finalized region (e.g. embedded:NAME filled by
 * fill_region).  Every variant writes the whole log to DIR and the file is
 * removed before the next.  The fdrd variants include everything fdrd does
 * per flush (log_write, the code fdrd runs): select the buffers, temp
 * file, writes with validation overlapped, side table, rename.  The
 * baseline writes a ready contiguous copy of the log with 1 MiB write(2)
 * calls (the most favourable plain write).  The headline ratio is fdrd's
 * flush's, with fdr record's one-shot flush beside it against write(2)
 * and against sendfile(2) of the region (headline()); the kernel and the
 * file system come first (fs_info.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sendfile.h>
#include <sys/uio.h>

#include <fdr.h>

#include "fs_info.h"
#include "log_layout.h"
#include "log_precheck.h"
#include "log_writer.h"
#include "out_dir.h"
#include "uring_writer.h"

#define MAX_ROUNDS 64
#define WRITE_CHUNK (1u << 20)

struct bench {
	const char *dir;
	struct out_dir out;		/* dir, opened as fdrd opens it */
	const struct fdr_control *ro;	/* fdr_ctl_map: what fdrd gets */
	const struct fdr_control *rw;	/* the same pages, writable (fixed) */
	size_t len;
	char *flat;			/* the log as one contiguous copy */
	struct log_layout layout;	/* validated, for writer_only */
	struct iovec *iov;
	size_t nr_iov;
	uint64_t size;
	bool warm;			/* an untimed write before each variant */
	int shm_fd;			/* the region's shm object, or -1 */
};

struct variant {
	const char *name;
	int kind;		/* 0 write(2) copy, 1 write(2) pieces, 2 fdrd,
				   3 fdrd's writer alone on a validated layout,
				   4 fdrd after its grace-period walk (untimed),
				   5 pwritev of the pieces from the mapping,
				   6 the same calls from the contiguous copy,
				   7 sendfile(2) from the shm object's descriptor */
	struct uring_write_opts o;
	bool defaults;		/* o from log_write_defaults(): fdrd's own */
	int use_rw;
	/* fdr record's one flush: a new read-only mapping each round (1),
	 * its buffers read from the shm descriptor (2: uring_source.c) */
	int fresh;
	double ms[MAX_ROUNDS];
	double cpu_ms[MAX_ROUNDS];	/* user + sys of the process, io-wq included */
	const char *used;
	bool skip;		/* not in FLUSH_ONLY */
};

static double cpu_now_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "flush_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static int open_out(const char *path, int fsync_it)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);

	(void)fsync_it;
	if (fd < 0)
		die(path, errno);
	return fd;
}

static void full_write(int fd, const char *p, size_t len, const char *path)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0)
			die(path, errno);
		p += n;
		len -= (size_t)n;
	}
}

/* Baseline: the ready log bytes, 1 MiB write(2) calls. */
static void plain_copy(struct bench *b, const char *path, int do_fsync)
{
	int fd = open_out(path, do_fsync);

	for (uint64_t off = 0; off < b->size; off += WRITE_CHUNK) {
		size_t n = b->size - off < WRITE_CHUNK ? b->size - off : WRITE_CHUNK;

		full_write(fd, b->flat + off, n, path);
	}
	if (do_fsync && fsync(fd))
		die(path, errno);
	close(fd);
}

/*
 * write(2) straight from the mapping, one call per piece, on the layout
 * built beforehand (untimed): the same bytes from the same memory as fdrd.
 */
static void plain_pieces(struct bench *b, const char *path)
{
	int fd = open_out(path, 0);

	for (size_t i = 0; i < b->nr_iov; i++)
		full_write(fd, b->iov[i].iov_base, b->iov[i].iov_len, path);
	close(fd);
}

/*
 * pwritev() of the layout's pieces in calls of up to 4 MiB, as fdrd's
 * default writes after its grace period (uring_sync.c), into a plain
 * open()ed file: no io_uring, no O_TMPFILE, no free-space check, no side
 * table.  From the mapping (the same memory as fdrd) or from the
 * contiguous copy cut at the same places (the same calls as fdrd, the
 * baseline's memory): what separates fdrd's default from write(2).
 */
static void plain_pwritev(struct bench *b, const char *path, bool from_copy)
{
	int fd = open_out(path, 0);
	struct iovec call[IOV_MAX];
	uint64_t off = 0;

	for (size_t i = 0; i < b->nr_iov;) {
		size_t k = 0, bytes = 0;
		ssize_t w;

		while (i + k < b->nr_iov && k < IOV_MAX &&
		       (!k || bytes + b->iov[i + k].iov_len <= (4u << 20))) {
			call[k] = b->iov[i + k];
			if (from_copy)
				call[k].iov_base = b->flat + off + bytes;
			bytes += call[k++].iov_len;
		}
		w = pwritev(fd, call, (int)k, (off_t)off);
		if (w != (ssize_t)bytes)
			die(path, w < 0 ? errno : EIO);
		off += bytes;
		i += k;
	}
	close(fd);
}

/*
 * The kernel's own copy of the region into a file: sendfile(2) from the
 * shm object, no user mapping, no validation, the log's size.  No flusher
 * that has not read the region before copies it for less: the floor for
 * fdr record's one-shot flush (the baseline write(2) copies bytes its
 * process already holds).
 */
static void plain_sendfile(struct bench *b, const char *path)
{
	int fd = open_out(path, 0);
	off_t off = 0, end = (off_t)(b->size < b->len ? b->size : b->len);

	while (off < end) {
		ssize_t n = sendfile(fd, b->shm_fd, &off, (size_t)(end - off));

		if (n <= 0)
			die("sendfile", n < 0 ? errno : EIO);
	}
	close(fd);
}

static const char *fdrd_write(struct bench *b, struct variant *v, const char *name,
			      const struct log_precheck *pc)
{
	struct uring_write_report rep;
	struct log_layout l;
	const char *why;
	char err[1024], table[512];
	struct log_sides sides = { .table_name = table };

	const struct fdr_control *map = v->use_rw ? b->rw : b->ro;
	struct uring_write_opts o = v->o;
	struct uring_source src;

	snprintf(table, sizeof(table), "%s.threads", name);
	if (v->fresh) {
		map = mmap(NULL, b->len, PROT_READ, MAP_SHARED, b->shm_fd, 0);
		if (map == MAP_FAILED)
			die("mmap", errno);
		src = (struct uring_source){ b->shm_fd, map, b->len };
		if (v->fresh == 2)
			o.source = &src;
	}
	if (log_layout_select(map, b->len, NULL, &l, &why))
		die("layout", EINVAL);
	if (pc)
		log_precheck_apply(&l, pc);
	if (log_write(&l, &b->out, name, &sides, &o, &rep, err, sizeof(err))) {
		fprintf(stderr, "flush_bench: %s\n", err);
		exit(1);
	}
	log_layout_free(&l);
	if (v->fresh)
		munmap((void *)map, b->len);
	return uring_write_mode_name(rep.mode_used);
}

/* The io_uring writer alone: the layout was built and validated untimed. */
static const char *writer_only(struct bench *b, struct variant *v, const char *name)
{
	struct uring_write_report rep;
	char err[1024];

	if (uring_write_file(&b->out, name, b->iov, b->nr_iov, &v->o, &rep, err, sizeof(err))) {
		fprintf(stderr, "flush_bench: %s\n", err);
		exit(1);
	}
	return uring_write_mode_name(rep.mode_used);
}

static void run_variant(struct bench *b, struct variant *v, int round)
{
	struct log_precheck pc = { 0 };
	char path[4096];
	double t0, c0;

	snprintf(path, sizeof(path), "%s/bench.xray", b->dir);
	/*
	 * On a VM whose host takes back free memory (virtio-balloon free page
	 * reporting, DAMON pageout), the first write into page cache just
	 * freed pays the host's faults: 3 to 10 times the copy.  Writing the
	 * same size just before, untimed, gives every variant the same start.
	 */
	if (b->warm) {
		plain_copy(b, path, 0);
		unlink(path);
	}
	/* fdrd does this while it sleeps the grace period: not timed */
	if (v->kind == 4 && log_precheck_build(b->ro, b->len, NULL, &pc))
		die("precheck", ENOMEM);
	c0 = cpu_now_ms();
	t0 = now_ms();
	if (v->kind == 0)
		plain_copy(b, path, v->o.fsync);
	else if (v->kind == 1)
		plain_pieces(b, path);
	else if (v->kind == 5 || v->kind == 6)
		plain_pwritev(b, path, v->kind == 6);
	else if (v->kind == 7)
		plain_sendfile(b, path);
	else if (v->kind == 2 || v->kind == 4)
		v->used = fdrd_write(b, v, "bench.xray", v->kind == 4 ? &pc : NULL);
	else
		v->used = writer_only(b, v, "bench.xray");
	v->ms[round] = now_ms() - t0;
	v->cpu_ms[round] = cpu_now_ms() - c0;
	log_precheck_free(&pc);
	unlink(path);
	strcat(path, ".threads");
	unlink(path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, sizeof(double) * (size_t)n);
	qsort(s, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void map_region(struct bench *b, struct fdr_ctl *ctl, const char *target)
{
	char shm[512];
	int fd, ret = fdr_ctl_map(ctl, &b->ro, &b->len);

	if (ret)
		die(fdr_ctl_strerror(ctl, "map", ret), -ret);
	/* the registered-buffer variant needs writable pages: map the shm again */
	snprintf(shm, sizeof(shm), "/dev/shm/fdr-%s", target + strlen(FDR_EMBEDDED_PREFIX));
	fd = open(shm, O_RDWR);
	b->rw = fd < 0 ? NULL : mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b->rw == MAP_FAILED)
		b->rw = NULL;
	b->shm_fd = fd;	/* kept: fdr record's variants map it afresh */
}

static void flatten(struct bench *b)
{
	struct log_layout l;
	struct iovec *iov;
	const char *why;
	uint64_t off = 0;
	size_t n;

	if (log_layout_build(b->ro, b->len, NULL, &l, &why) || log_layout_iovecs(&l, &iov, &n))
		die("layout", EINVAL);
	b->size = l.file_size;
	b->flat = malloc(b->size);
	if (!b->flat)
		die("malloc", ENOMEM);
	for (size_t i = 0; i < n; i++) {
		memcpy(b->flat + off, iov[i].iov_base, iov[i].iov_len);
		off += iov[i].iov_len;
	}
	b->layout = l;
	b->iov = iov;
	b->nr_iov = n;
	printf("log: %zu buffers, %llu bytes (%.1f MiB), %llu records\n", l.nr_buffers,
	       (unsigned long long)b->size, (double)b->size / (1 << 20),
	       (unsigned long long)l.records);
}

/* Layout and validation alone: how much of fdrd's time is CPU, not I/O. */
static double layout_ms(struct bench *b)
{
	double best = 1e9;

	for (int i = 0; i < 3; i++) {
		struct log_layout l;
		const char *why;
		double t0 = now_ms();

		log_layout_build(b->ro, b->len, NULL, &l, &why);
		if (now_ms() - t0 < best)
			best = now_ms() - t0;
		log_layout_free(&l);
	}
	return best;
}

/*
 * fdrd's whole flush over queue depths, request sizes, and inline vs
 * IOSQE_ASYNC submission, interleaved.
 */
static void sweep(struct bench *b, int rounds)
{
	static const unsigned int depths[] = { 1, 4, 16 };
	static const size_t chunks[] = { 64 << 10, 256 << 10, 1 << 20 };
	struct variant v[18];
	int nv = 0;

	memset(v, 0, sizeof(v));
	for (int a = 0; a < 2; a++)
		for (size_t d = 0; d < 3; d++)
			for (size_t c = 0; c < 3; c++) {
				v[nv].kind = 2;
				v[nv].o.queue_depth = depths[d];
				v[nv].o.chunk_bytes = chunks[c];
				v[nv].o.async = a;
				nv++;
			}
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < nv; k++)
			run_variant(b, &v[(k + r) % nv], r);
	printf("\nBatching (fdrd's flush, writev): median ms by queue depth and request size\n\n"
	       "| submission | depth | 64 KiB | 256 KiB | 1 MiB |\n|---|---:|---:|---:|---:|\n");
	for (int k = 0; k < nv; k += 3)
		printf("| %s | %u | %.1f | %.1f | %.1f |\n", v[k].o.async ? "IOSQE_ASYNC" : "inline",
		       v[k].o.queue_depth, median(v[k].ms, rounds), median(v[k + 1].ms, rounds),
		       median(v[k + 2].ms, rounds));
}

/*
 * FLUSH_ONLY=6,24: the rows (numbered from 1 in the table) to run besides
 * those the headline needs (the first four and the sendfile floor, the
 * last): a side-by-side comparison of a few variants in many rounds.
 */
static void select_variants(struct variant *v, int nv, const char *only)
{
	if (!only || !*only)
		return;
	for (int k = 4; k < nv; k++)
		v[k].skip = v[k].kind != 7;
	for (const char *p = only; *p; p += strcspn(p, ","), p += !!*p) {
		int row = atoi(p);

		if (row >= 1 && row <= nv)
			v[row - 1].skip = false;
	}
}

/* The median over the rounds of a's time ÷ b's in the same round. */
static double paired_ratio(const struct variant *a, const struct variant *b, int rounds)
{
	double r[MAX_ROUNDS];

	for (int i = 0; i < rounds; i++)
		r[i] = a->ms[i] / b->ms[i];
	return median(r, rounds);
}

static const struct variant *find_kind(const struct variant *v, int nv, int kind)
{
	for (int k = 0; k < nv; k++)
		if (v[k].kind == kind && !v[k].skip)
			return &v[k];
	return NULL;
}

/*
 * The headline first: bench/report.py takes the first "ratio" line.  Its
 * figure is fdrd's flush after its grace period (row 2) against write(2)
 * (row 1): the flush issue 38 measured.  Each ratio is the median of the
 * rounds' own ratios (both ran in the same round, side by side), which a
 * burst of other work in one round moves less than a ratio of medians.
 * fdr record's one-shot flush (row 4) is given against write(2) and
 * against the sendfile(2) floor (README.md, run N says why that one).
 */
static void headline(const struct bench *b, const struct variant *v, int nv, int rounds)
{
	const struct variant *floor = find_kind(v, nv, 7);
	bool has_rec = !v[3].skip && v[3].fresh && b->shm_fd >= 0 && v[3].used;
	double base_cpu = median(v[0].cpu_ms, rounds);

	printf("ratio %.2f (fdrd's flush after its grace period ÷ plain write(2), "
	       "throughput; median of %d interleaved rounds' ratios): %.0f ms for %.1f MiB "
	       "against %.0f ms (target: ratio >= 0.95, < 1000 ms); write(2)'s CPU time "
	       "÷ fdrd's %.2f; fdrd with every buffer walked during the flush (grace 0): %.2f",
	       paired_ratio(&v[0], &v[1], rounds), rounds, median(v[1].ms, rounds),
	       (double)b->size / (1 << 20), median(v[0].ms, rounds),
	       base_cpu / median(v[1].cpu_ms, rounds), paired_ratio(&v[0], &v[2], rounds));
	if (has_rec)
		printf("; fdr record's one-shot flush %.0f ms: %.2f of write(2)",
		       median(v[3].ms, rounds), paired_ratio(&v[0], &v[3], rounds));
	if (has_rec && floor)
		printf(", %.2f of sendfile(2) from the region's object (%.0f ms, itself "
		       "%.2f of write(2))", paired_ratio(floor, &v[3], rounds),
		       median(floor->ms, rounds), paired_ratio(&v[0], floor, rounds));
	printf("\n\n");
}

int main(int argc, char **argv)
{
	struct variant v[] = {
		{ .name = "write(2), 1 MiB calls from a contiguous copy", .kind = 0 },
		{ .name = "fdrd's default: buffers walked during the grace period (untimed), "
			  "a free-space check, then pwritev of up to 4 MiB from fdrd's thread",
		  .kind = 4, .defaults = true },
		{ .name = "fdrd's default, every buffer walked during the flush: free-space "
			  "check, io_uring writev, depth 4, 256 KiB requests, validation overlapped",
		  .kind = 2, .defaults = true },
		{ .name = "fdr record's flush (a new mapping, every buffer walked during the "
			  "flush): buffers read from the region's descriptor into a reused buffer",
		  .kind = 2, .defaults = true, .fresh = 2 },
		{ .name = "fdr record's flush before issue 38.1: the same, written from the "
			  "new mapping", .kind = 2, .defaults = true, .fresh = 1 },
		{ .name = "the default before issue 38: the log's size reserved (fdrd "
			  "--preallocate: fallocate), buffers walked during the grace period",
		  .kind = 4, .o = { .sync_if_prechecked = true, .preallocate = true } },
		{ .name = "the default before issue 38 (fdrd --preallocate), every buffer "
			  "walked during the flush", .kind = 2,
		  .o = { .sync_if_prechecked = true, .preallocate = true } },
		{ .name = "fdrd --io=pwritev (fallocate), every buffer walked during the flush",
		  .kind = 2, .o = { .mode = URING_WRITE_SYNC, .preallocate = true } },
		{ .name = "fdrd --io=writev --no-preallocate (io_uring for every write), buffers "
			  "walked during the grace period", .kind = 4 },
		{ .name = "fdrd --io=pwritev --no-preallocate, every buffer walked during the flush",
		  .kind = 2, .o = { .mode = URING_WRITE_SYNC } },
		{ .name = "write(2), one call per piece from the mapping (layout untimed)", .kind = 1 },
		{ .name = "fdrd's io_uring writer alone (layout validated beforehand)", .kind = 3 },
		{ .name = "fdrd: bounce (validate + copy to registered buffers), 4 x 256 KiB", .kind = 2,
		  .o = { .mode = URING_WRITE_BOUNCE } },
		{ .name = "fdrd: writev, depth 1, 256 KiB requests", .kind = 2,
		  .o = { .queue_depth = 1, .chunk_bytes = 256 << 10 } },
		{ .name = "fdrd: writev, depth 32, 1 MiB requests", .kind = 2,
		  .o = { .queue_depth = 32, .chunk_bytes = 1 << 20 } },
		{ .name = "fdrd: writev, depth 128, 4 MiB requests", .kind = 2,
		  .o = { .queue_depth = 128, .chunk_bytes = 4 << 20 } },
		{ .name = "fdrd: writev + registered file", .kind = 2, .o = { .register_file = true } },
		{ .name = "fdrd: writev + IOSQE_ASYNC", .kind = 2, .o = { .async = true } },
		{ .name = "fdrd: registered buffers (read-only map, as fdrd has)", .kind = 2,
		  .o = { .mode = URING_WRITE_FIXED } },
		{ .name = "fdrd: registered buffers (writable map, for comparison)", .kind = 2,
		  .o = { .mode = URING_WRITE_FIXED }, .use_rw = 1 },
		{ .name = "fdrd: O_DIRECT via registered bounce buffers", .kind = 2,
		  .o = { .mode = URING_WRITE_DIRECT } },
		{ .name = "write(2) copy + fsync", .kind = 0, .o = { .fsync = true } },
		{ .name = "fdrd: writev + --fsync", .kind = 2, .o = { .fsync = true } },
		{ .name = "fdrd's default after the grace-period walk, a hidden name instead "
			  "of O_TMPFILE", .kind = 4, .o = { .sync_if_prechecked = true, .no_tmpfile = true } },
		{ .name = "pwritev of the pieces from the mapping in calls of up to 4 MiB, "
			  "into a plain open()ed file (fdrd's calls without its io_uring, "
			  "O_TMPFILE, free-space check, side table)", .kind = 5 },
		{ .name = "the same calls from the contiguous copy (the baseline's memory)",
		  .kind = 6 },
		{ .name = "sendfile(2) of the region's shm object, the log's size: the "
			  "kernel's own copy, the floor for a flusher that has never read the "
			  "region (fdr record)", .kind = 7 },
	};
	int nv = (int)(sizeof(v) / sizeof(v[0])), rounds;
	const char *quick = getenv("FLUSH_QUICK"), *warm = getenv("FLUSH_WARM");
	struct bench b = { 0 };
	struct fdr_ctl *ctl;
	double base, base_fsync = 0;
	bool has_floor;
	char dir_err[512];
	int ret;

	if (argc != 4)
		return fprintf(stderr, "usage: flush_bench TARGET DIR ROUNDS\n"), 2;
	b.dir = argv[2];
	b.warm = !warm || atoi(warm);
	for (int k = 0; k < nv; k++)
		if (v[k].defaults)
			log_write_defaults(&v[k].o);
	if (out_dir_open(&b.out, b.dir, false, dir_err, sizeof(dir_err)))
		return fprintf(stderr, "flush_bench: %s\n", dir_err), 1;
	rounds = atoi(argv[3]);
	if (rounds < 1 || rounds > MAX_ROUNDS)
		return fprintf(stderr, "flush_bench: ROUNDS 1..%d\n", MAX_ROUNDS), 2;
	ret = fdr_ctl_open(&ctl, argv[1]);
	if (ret)
		die(fdr_ctl_strerror(ctl, "open", ret), -ret);
	map_region(&b, ctl, argv[1]);
	has_floor = v[nv - 1].kind == 7;
	if (quick && atoi(quick) > 0 && atoi(quick) < nv - 1) {
		/* only the first variants, at least the headline's four, and
		 * the floor moved up after them: quicker runs */
		int keep = atoi(quick) < 4 ? 4 : atoi(quick);

		v[keep] = v[nv - 1];
		nv = keep + has_floor;
	}
	select_variants(v, nv, getenv("FLUSH_ONLY"));
	fs_info_print(stdout, b.dir);
	flatten(&b);
	printf("layout + validation alone: %.1f ms\n\n", layout_ms(&b));
	for (int r = 0; r < rounds; r++)	/* interleaved, order rotated each round */
		for (int k = 0; k < nv; k++)
			if (!v[(k + r) % nv].skip &&
			    (!v[(k + r) % nv].use_rw || b.rw) &&	/* needs a writable view */
			    ((!v[(k + r) % nv].fresh && v[(k + r) % nv].kind != 7) ||
			     b.shm_fd >= 0))
				run_variant(&b, &v[(k + r) % nv], r);
	base = median(v[0].ms, rounds);
	headline(&b, v, nv, rounds);
	printf("| variant | median ms | MiB/s | throughput ÷ write(2) | CPU ms | mode used |\n"
	       "|---|---:|---:|---:|---:|---|\n");
	for (int k = 0; k < nv; k++)
		if (v[k].kind == 0 && v[k].o.fsync)
			base_fsync = median(v[k].ms, rounds);
	for (int k = 0; k < nv; k++) {
		double m = median(v[k].ms, rounds);
		double ref = v[k].o.fsync ? base_fsync : base;

		if (v[k].skip || (v[k].use_rw && !b.rw) ||
		    ((v[k].fresh || v[k].kind == 7) && b.shm_fd < 0))
			continue;
		printf("| %s | %.1f | %.0f | %.2f× | %.0f | %s |\n", v[k].name, m,
		       (double)b.size / (1 << 20) / (m / 1e3), ref / m,
		       median(v[k].cpu_ms, rounds), v[k].used ? v[k].used : "-");
	}
	if (getenv("FLUSH_SWEEP") && atoi(getenv("FLUSH_SWEEP")))
		sweep(&b, rounds);
	free(b.flat);
	fdr_ctl_close(ctl);
	out_dir_close(&b.out);
	return 0;
}
