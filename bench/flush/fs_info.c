// SPDX-License-Identifier: MIT
/*
 * fs_info.c - the kernel and the file system a flush figure was measured
 * on: what the output directory's statfs(2) says (type, block size, free
 * space) and its mount's line in /proc/self/mountinfo (source, options,
 * super block options).  What fallocate, delayed allocation or an
 * O_TMPFILE cost depends on both (bench/flush/README.md), so a figure
 * without them cannot be compared with another machine's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "fs_info.h"

static const char *type_name(unsigned long type)
{
	static const struct { unsigned long magic; const char *name; } known[] = {
		{ 0xef53, "ext2/3/4" }, { 0x58465342, "xfs" }, { 0x9123683e, "btrfs" },
		{ 0x01021994, "tmpfs" }, { 0x6969, "nfs" }, { 0x01021997, "9p" },
		{ 0x794c7630, "overlayfs" }, { 0xf2f52010, "f2fs" }, { 0x2fc12fc1, "zfs" },
		{ 0x65735546, "fuse" }, { 0xff534d42, "cifs" }, { 0xca451a4e, "bcachefs" },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].magic == type)
			return known[i].name;
	return "unknown";
}

/*
 * The mountinfo line of dir's mount: same device, longest mount point that
 * is a prefix of dir's real path (bind mounts share a device).  Fields:
 * id parent major:minor root mountpoint options [optional...] - fstype
 * source super-options.
 */
static int find_mount(const char *dir, dev_t dev, char *out, size_t outlen)
{
	char *real = realpath(dir, NULL), line[4096];
	size_t best = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	out[0] = '\0';
	while (real && f && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		char point[512], opts[512], *sep = strstr(line, " - ");
		char fstype[64], source[512], super[512];
		size_t n;

		if (!sep || sscanf(line, "%*u %*u %u:%u %*s %511s %511s", &maj, &min,
				   point, opts) != 4 ||
		    sscanf(sep + 3, "%63s %511s %511s", fstype, source, super) != 3 ||
		    makedev(maj, min) != dev)
			continue;
		n = strlen(point);
		if (strncmp(real, point, n) || (real[n] && real[n] != '/' && n > 1) ||
		    n < best)
			continue;
		best = n;
		snprintf(out, outlen, "%s on %s, type %s, options %s, super block options %s",
			 source, point, fstype, opts, super);
	}
	if (f)
		fclose(f);
	free(real);
	return out[0] ? 0 : -1;
}

void fs_info_print(FILE *to, const char *dir)
{
	struct utsname u;
	struct statfs s;
	struct stat st;
	char mount[4096];

	if (!uname(&u))
		fprintf(to, "kernel: %s %s %s\n", u.sysname, u.release, u.machine);
	if (statfs(dir, &s) || stat(dir, &st)) {
		fprintf(to, "file system of %s: unknown (statfs failed)\n", dir);
		return;
	}
	fprintf(to, "file system of %s: %s (statfs type 0x%lx, block %ld bytes, "
		"%.1f GiB free)\n", dir, type_name((unsigned long)s.f_type),
		(unsigned long)s.f_type, (long)s.f_bsize,
		(double)s.f_bfree * (double)s.f_bsize / (1 << 30));
	if (!find_mount(dir, st.st_dev, mount, sizeof(mount)))
		fprintf(to, "mount: %s\n", mount);
	else
		fprintf(to, "mount: not found in /proc/self/mountinfo\n");
}
