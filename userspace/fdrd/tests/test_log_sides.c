// SPDX-License-Identifier: MIT
/*
 * test_log_sides.c - log_write puts the .threads and .sched files next to
 * the log, byte for byte, before the log gets its name; when any name is
 * taken no file of the flush is left (the one planted there untouched);
 * without .sched bytes only the log and .threads appear.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "log_layout.h"
#include "log_writer.h"
#include "out_dir.h"
#include "synth_region.h"
#include "tap.h"

#define BSIZE 4096u
#define NBUF 3u

static const struct uring_write_opts opts = {
	.mode = URING_WRITE_VECTORED, .queue_depth = 4, .chunk_bytes = 65536,
};

static void make_layout(struct synth_region *r, struct log_layout *l)
{
	const char *why;

	synth_region_create(r, NBUF, BSIZE, FDR_CTL_CONSTANT_TSC, 3000000000ull);
	for (uint32_t i = 0; i < NBUF; i++)
		synth_fill(r, i, i + 1, 500 + (int32_t)i, 500, 0, 100 * i, 1, 5);
	log_layout_select(r->ro, r->len, NULL, l, &why);
}

/* The whole file dir/name, or NULL. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[512];
	struct stat sb;
	char *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	fstat(fd, &sb);
	buf = malloc((size_t)sb.st_size + 1);
	*len = (size_t)read(fd, buf, (size_t)sb.st_size);
	close(fd);
	return buf;
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;

	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static bool remove_dir(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0;
}

static int write_in(const char *dir, struct log_layout *l, const struct log_sides *s,
		    char *err, size_t errlen)
{
	struct uring_write_report rep;
	struct out_dir d;
	int ret = out_dir_open(&d, dir, true, err, errlen);

	if (!ret)
		ret = log_write(l, &d, "x.xray", s, &opts, &rep, err, errlen);
	out_dir_close(&d);
	return ret;
}

static bool test_sched_next_to_log(void)
{
	static const char sched[] = "FDSF pretend sched bytes \0 with a NUL";
	struct log_sides s = { "x.xray.threads", "x.xray.sched", sched, sizeof(sched) };
	char dir[] = "/tmp/fdrd-sides-XXXXXX", err[1024] = "";
	struct synth_region r;
	struct log_layout l;
	size_t len = 0;
	char *got;

	CHECK(mkdtemp(dir), "mkdtemp");
	make_layout(&r, &l);
	CHECK(write_in(dir, &l, &s, err, sizeof(err)) == 0, "log_write: %s", err);
	got = slurp(dir, "x.xray.sched", &len);
	CHECK(got && len == sizeof(sched) && !memcmp(got, sched, len),
	      ".sched holds the bytes given (%zu bytes)", len);
	free(got);
	got = slurp(dir, "x.xray.threads", &len);
	CHECK(got && len > 13 && !memcmp(got, "fdrd-threads\t", 13), ".threads");
	free(got);
	got = slurp(dir, "x.xray", &len);
	CHECK(got && len == l.file_size, "log of %zu bytes", len);
	free(got);
	CHECK(entries(dir) == 3, "%zu files", entries(dir));
	log_layout_free(&l);
	synth_region_destroy(&r);
	return remove_dir(dir);
}

/* A name taken at the .sched: no log, no .threads; the planted file kept. */
static bool test_taken_sched_name(void)
{
	struct log_sides s = { "x.xray.threads", "x.xray.sched", "sched", 5 };
	char dir[] = "/tmp/fdrd-sides-XXXXXX", err[1024] = "", path[512];
	struct synth_region r;
	struct log_layout l;
	size_t len = 0;
	char *got;
	int fd;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/x.xray.sched", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0 && write(fd, "mine", 4) == 4, "plant");
	close(fd);
	make_layout(&r, &l);
	CHECK(write_in(dir, &l, &s, err, sizeof(err)) < 0 && strstr(err, "x.xray.sched"),
	      "refused: %s", err);
	CHECK(entries(dir) == 1, "%zu files left, want only the planted one", entries(dir));
	got = slurp(dir, "x.xray.sched", &len);
	CHECK(got && len == 4 && !memcmp(got, "mine", 4), "planted file untouched");
	free(got);
	log_layout_free(&l);
	synth_region_destroy(&r);
	return remove_dir(dir);
}

static bool test_without_sched(void)
{
	struct log_sides s = { "x.xray.threads", NULL, NULL, 0 };
	char dir[] = "/tmp/fdrd-sides-XXXXXX", err[1024] = "", path[512];
	struct synth_region r;
	struct log_layout l;

	CHECK(mkdtemp(dir), "mkdtemp");
	make_layout(&r, &l);
	CHECK(write_in(dir, &l, &s, err, sizeof(err)) == 0, "log_write: %s", err);
	snprintf(path, sizeof(path), "%s/x.xray.sched", dir);
	CHECK(entries(dir) == 2 && access(path, F_OK) != 0, "log and .threads only");
	log_layout_free(&l);
	synth_region_destroy(&r);
	return remove_dir(dir);
}

int main(void)
{
	tap_plan(3);
	tap_ok(test_sched_next_to_log(), "sides: .sched and .threads written with the log");
	tap_ok(test_taken_sched_name(), "sides: a taken .sched name leaves no file of the flush");
	tap_ok(test_without_sched(), "sides: no .sched bytes, no .sched file");
	return tap_done();
}
