// SPDX-License-Identifier: MIT
/*
 * patch_funcs_test.c - the DWARF list of fdr record -P (patch_funcs.h),
 * read by the runtime from a directory the traced process can write: a
 * well-formed list for a stripped file (libc here: .dynsym only) is
 * merged with its symbol table; one for another version of the file, or
 * not well formed in any way, is not used at all; a file with .symtab
 * never reads one.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patch_funcs.h"
#include "tap.h"

static char dir[] = "/tmp/fdr-patch-funcs.XXXXXX";

/* Write the list of the file at obj: the header (the file's size + delta)
 * then body. */
static void write_list(const char *obj, long size_delta, const char *body)
{
	char path[512];
	struct stat sb;
	FILE *f;

	if (stat(obj, &sb))
		return;
	snprintf(path, sizeof(path), "%s/" FDR_PATCH_DWARF_PREFIX "%ju.%ju.txt", dir,
		 (uintmax_t)sb.st_dev, (uintmax_t)sb.st_ino);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, FDR_PATCH_DWARF_MAGIC "\nfile\t%jd\t%jd.%09ld\ndebug\t/x/lib.debug\n%s",
		(intmax_t)sb.st_size + size_delta, (intmax_t)sb.st_mtim.tv_sec,
		sb.st_mtim.tv_nsec, body);
	fclose(f);
}

static const struct fdr_patch_fn *find(const struct fdr_patch_funcs *fs, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].name, name))
			return &fs->v[i];
	return NULL;
}

/* The list with body, for obj: used (its entries merged) or not at all. */
static bool used(const char *obj, long size_delta, const char *body, struct fdr_patch_funcs *fs)
{
	write_list(obj, size_delta, body);
	return fdr__patch_funcs_open(fs, obj) == 0 && fs->debug;
}

static void test_good(const char *libc)
{
	struct fdr_patch_funcs fs;
	const struct fdr_patch_fn *a, *b;
	bool ok = used(libc, 0, "10\t8\tdwarf_a\n20\t1c\tdwarf_b\n", &fs);

	a = ok ? find(&fs, "dwarf_a") : NULL;
	b = ok ? find(&fs, "dwarf_b") : NULL;
	tap_ok(ok && fs.ndwarf == 2 && !strcmp(fs.debug, "/x/lib.debug") &&
	       !strcmp(fs.table, ".dynsym") && a && a->start == 0x10 && a->end == 0x18 &&
	       b && b->start == 0x20 && b->end == 0x3c && find(&fs, "getpid"),
	       "a well-formed list of a stripped file: its 2 entries merged with .dynsym (getpid)");
	for (size_t i = 1; ok && i < fs.n; i++)
		ok = fs.v[i - 1].start <= fs.v[i].start;
	tap_ok(ok, "the merged entries are in address order");
	fdr__patch_funcs_free(&fs);
}

static void test_refused(const char *libc)
{
	static const struct {
		long size_delta;
		const char *body, *what;
	} bad[] = {
		{ 1, "10\t8\ta\n", "another version of the file (its size differs)" },
		{ 0, "20\t8\ta\n10\t8\tb\n", "entries out of address order" },
		{ 0, "10\t8\ta\n20\t8\tb", "a cut last line" },
		{ 0, "10\t0\ta\n", "a size of 0" },
		{ 0, "10\t8\t\n", "an empty name" },
		{ 0, "zz\t8\ta\n", "an address that is not hex" },
		{ 0, "10\t8 a\n", "no tab before the name" },
		{ 0, "ffffffffffffffff\t8\ta\n", "an entry wrapping around the address space" },
		{ 0, "10\t8\ta\n\n", "an empty line" },
	};
	struct fdr_patch_funcs fs;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bool u = used(libc, bad[i].size_delta, bad[i].body, &fs);

		tap_ok(!u && fs.ndwarf == 0 && fs.n > 0 && find(&fs, "getpid"),
		       "a list with %s: not used, .dynsym's entries still", bad[i].what);
		fdr__patch_funcs_free(&fs);
	}
}

static void test_symtab(void)
{
	struct fdr_patch_funcs fs;
	bool u = used("/proc/self/exe", 0, "10\t8\tdwarf_a\n", &fs);

	tap_ok(!u && fs.table && !strcmp(fs.table, ".symtab") && !find(&fs, "dwarf_a") &&
	       find(&fs, "main"), "a file with .symtab: its list is not read");
	fdr__patch_funcs_free(&fs);
}

int main(void)
{
	Dl_info di;
	char cmd[64];

	if (!mkdtemp(dir) || setenv("FDR_SYMDIR", dir, 1) || !dladdr((void *)getpid, &di)) {
		tap_ok(false, "set-up: a scratch directory, libc's path");
		return tap_done();
	}
	test_good(di.dli_fname);
	test_refused(di.dli_fname);
	test_symtab();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		tap_diag("could not remove %s", dir);
	return tap_done();
}
