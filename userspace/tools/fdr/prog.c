// SPDX-License-Identifier: MIT
/*
 * prog.c - find PROG as execvp would, and refuse before anything is
 * created if running it would record nothing: a user who forgot to build
 * with fdr-cc gets told so, not an empty log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

static bool is_executable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* execvp's search: a name with a slash as is, else each PATH entry. */
static int find(const char *name, char *out, size_t outsz)
{
	const char *path = getenv("PATH");
	char cand[PATH_MAX];

	if (strchr(name, '/'))
		return snprintf(out, outsz, "%s", name) < (int)outsz ? 0 : -ENAMETOOLONG;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;; p += strcspn(p, ":") + 1) {
		int len = (int)strcspn(p, ":");

		if (snprintf(cand, sizeof(cand), "%.*s/%s", len ? len : 1, len ? p : ".",
			     name) < (int)sizeof(cand) && is_executable_file(cand))
			return snprintf(out, outsz, "%s", cand) < (int)outsz ? 0 : -ENAMETOOLONG;
		if (!p[len])
			return -ENOENT;
	}
}

static bool starts_with_shebang(const char *path)
{
	char b[2] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, b, 2) != 2)
		b[0] = 0;
	close(fd);
	return b[0] == '#' && b[1] == '!';
}

static int not_instrumented(const char *name, const struct prog *p)
{
	if (p->elf.instr == FDR_INSTR_XRAY_NO_MODE)
		fprintf(stderr, "fdr record: %s was built with -fxray-instrument but without "
			"the fdr XRay mode, so nothing would be recorded; rebuild it with "
			"fdr-cc (e.g. make CC=fdr-cc CXX=fdr-c++)\n", name);
	else
		fprintf(stderr, "fdr record: %s is not instrumented%s, so nothing would be "
			"recorded; rebuild it with fdr-cc or fdr-c++ (e.g. make CC=fdr-cc "
			"CXX=fdr-c++, or fdr-cc -O2 -o prog prog.c)\n", name,
			p->elf.dynamic ? " and --no-libcall leaves out its library calls"
				       : " and statically linked (no library calls to trace)");
	return FDR_EXIT_FAILED;
}

int fdr__prog_check(const char *name, struct prog *p, bool libcall)
{
	char found[PATH_MAX];
	int r = find(name, found, sizeof(found));

	memset(p, 0, sizeof(*p));
	if (r || access(found, F_OK)) {
		fprintf(stderr, "fdr record: %s: command not found%s\n", name,
			strchr(name, '/') ? "" : " (searched $PATH)");
		return FDR_EXIT_NOT_FOUND;
	}
	if (!is_executable_file(found) || !realpath(found, p->path)) {
		fprintf(stderr, "fdr record: %s: cannot execute: %s\n", name,
			access(found, X_OK) ? strerror(errno) : "not a regular file");
		return FDR_EXIT_CANNOT_EXEC;
	}
	if (starts_with_shebang(p->path)) {
		p->script = true;	/* the interpreter runs, which we cannot judge */
		return 0;
	}
	r = fdr__elf_info(p->path, &p->elf);
	if (r == -ENOEXEC) {
		fprintf(stderr, "fdr record: %s: not a 64-bit ELF program\n", name);
		return FDR_EXIT_CANNOT_EXEC;
	}
	if (r) {
		fprintf(stderr, "fdr record: %s: %s\n", p->path, strerror(-r));
		return FDR_EXIT_CANNOT_EXEC;
	}
	/* its library calls are still worth a trace (libcall.c) */
	if (libcall && p->elf.dynamic && p->elf.instr == FDR_INSTR_NONE) {
		p->libcall_only = true;
		return 0;
	}
	if (p->elf.instr == FDR_INSTR_NONE || p->elf.instr == FDR_INSTR_XRAY_NO_MODE)
		return not_instrumented(name, p);
	return 0;
}
