// SPDX-License-Identifier: MIT
/*
 * data_dir.c - DIR appears complete or not at all: everything is written
 * into a hidden sibling directory (same filesystem, so the last step is a
 * rename), which replaces DIR only when the log is in place.  A DIR that
 * exists must be an earlier fdr data directory (it has an "info" file
 * starting "fdr-data") or empty: fdr never replaces anything else.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

static int absolute(const char *dir, char *out, size_t outsz)
{
	char cwd[PATH_MAX];

	if (dir[0] == '/')
		return snprintf(out, outsz, "%s", dir) < (int)outsz ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return snprintf(out, outsz, "%s/%s", cwd, dir) < (int)outsz ? 0 : -ENAMETOOLONG;
}

/* May DIR be replaced?  0 if absent, empty or an fdr data directory. */
static int replaceable(const char *dir)
{
	char path[PATH_MAX + 16], head[8] = { 0 };
	struct stat st;
	DIR *d;
	int fd, entries = 0;

	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	snprintf(path, sizeof(path), "%s/" FDR_INFO_NAME, dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, head, sizeof(head));

		close(fd);
		if (n == (ssize_t)sizeof(head) && !memcmp(head, "fdr-data", 8))
			return 0;
	}
	d = opendir(dir);
	if (!d)
		return -errno;
	for (struct dirent *e; (e = readdir(d));)
		entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return entries ? -EEXIST : 0;
}

static int refuse(const char *dir, int err)
{
	if (err == -EEXIST || err == -ENOTDIR)
		fprintf(stderr, "fdr record: %s exists and is not an fdr data directory; "
			"remove it or choose another with -o DIR\n", dir);
	else
		fprintf(stderr, "fdr record: cannot use %s: %s (choose another with -o DIR)\n",
			dir, strerror(-err));
	return FDR_EXIT_FAILED;
}

int fdr__data_dir_begin(struct data_dir *d, const char *dir)
{
	char copy[PATH_MAX], parent[PATH_MAX];
	const char *base;
	int r = absolute(dir, d->final, sizeof(d->final));

	if (r || (r = replaceable(d->final)))
		return refuse(dir, r);
	snprintf(copy, sizeof(copy), "%s", d->final);
	snprintf(parent, sizeof(parent), "%s", dirname(copy));
	snprintf(copy, sizeof(copy), "%s", d->final);
	base = basename(copy);
	if (snprintf(d->staging, sizeof(d->staging), "%s/.%s.tmp-XXXXXX", parent, base) >=
	    (int)sizeof(d->staging))
		return refuse(dir, -ENAMETOOLONG);
	if (!mkdtemp(d->staging)) {
		fprintf(stderr, "fdr record: cannot create %s in %s: %s (choose a writable "
			"place with -o DIR)\n", base, parent, strerror(errno));
		d->staging[0] = 0;
		return FDR_EXIT_FAILED;
	}
	chmod(d->staging, 0755);
	return 0;
}

/* Remove the files of a directory (ours: no subdirectories), then it. */
static void remove_dir(const char *dir)
{
	char path[PATH_MAX * 2];
	DIR *d = opendir(dir);

	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

int fdr__data_dir_commit(struct data_dir *d)
{
	if (rename(d->staging, d->final) == 0)
		goto done;
	/* an earlier data directory: swap it out in one step, then remove it */
	if ((errno == ENOTEMPTY || errno == EEXIST) && replaceable(d->final) == 0 &&
	    renameat2(AT_FDCWD, d->staging, AT_FDCWD, d->final, RENAME_EXCHANGE) == 0) {
		remove_dir(d->staging);
		goto done;
	}
	fprintf(stderr, "fdr record: cannot rename %s to %s: %s\n", d->staging, d->final,
		strerror(errno));
	fdr__data_dir_abort(d);
	return FDR_EXIT_FAILED;
done:
	d->staging[0] = 0;
	return 0;
}

void fdr__data_dir_abort(struct data_dir *d)
{
	if (d->staging[0])
		remove_dir(d->staging);
	d->staging[0] = 0;
}
