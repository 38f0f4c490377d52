// SPDX-License-Identifier: MIT
/* patch_coverage.c - the coverage file of fdr record -P (patch_coverage.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fdr_env.h"
#include "patch_coverage.h"
#include "sym_map.h"

#define NAME_MAX_SHOWN	512

void fdr__patch_coverage_count(struct fdr_patch_coverage *c, const char *name,
			       enum fdr_patch_why why)
{
	struct fdr_patch_refusal *v;

	c->n[why]++;
	if (why == FDR_PATCH_OK)
		return;
	if (c->nrefused == c->cap) {
		v = realloc(c->refused, (c->cap ? 2 * c->cap : 64) * sizeof(*v));
		if (!v)
			return;
		c->refused = v;
		c->cap = c->cap ? 2 * c->cap : 64;
	}
	c->refused[c->nrefused++] = (struct fdr_patch_refusal){ name, why };
}

/* The name on one line of its own, whatever bytes the symbol table holds. */
static void write_name(int fd, const char *name)
{
	char buf[NAME_MAX_SHOWN + 1];
	size_t i;

	for (i = 0; name[i] && i < NAME_MAX_SHOWN; i++)
		buf[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
	buf[i] = '\n';
	if (write(fd, buf, i + 1) < 0)
		return;	/* the coverage is advice: the program runs on */
}

static void write_refusals(int fd, const struct fdr_patch_coverage *c)
{
	for (uint32_t i = 0; i < c->nrefused; i++) {
		dprintf(fd, "refused\t%s\t", fdr__patch_why_name[c->refused[i].why]);
		write_name(fd, c->refused[i].name);
	}
}

static int open_file(unsigned seq)
{
	const char *dir = fdr__env(FDR_SYMDIR_ENV);
	char path[PATH_MAX], n[16] = "";

	if (seq)
		snprintf(n, sizeof(n), ".%u", seq);
	if (snprintf(path, sizeof(path), "%s/" FDR_PATCH_COVERAGE_PREFIX "%d%s.txt",
		     dir && *dir ? dir : FDR_SYMDIR_DEFAULT, (int)getpid(), n) >= (int)sizeof(path))
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

void fdr__patch_coverage_write(struct fdr_patch_coverage *c, bool ok,
			       const struct fdr_patch_target *t)
{
	int fd = open_file(t->seq);

	if (fd < 0)
		goto out;
	dprintf(fd, "exe\t");
	write_name(fd, t->path);
	if (t->at_dlopen)
		dprintf(fd, "loaded\tdlopen\n");
	if (!ok)
		dprintf(fd, "error\tcannot read the symbol table of %s or start capstone\n",
			t->is_main ? "the program" : "the library");
	dprintf(fd, "functions\t%u\n", c->functions);
	if (c->table)
		dprintf(fd, "symbols\t%s\n", c->table);
	if (c->debug) {
		dprintf(fd, "dwarf\t%u\t", c->ndwarf);
		write_name(fd, c->debug);
	}
	dprintf(fd, "selected\t%u\n", c->selected);
	for (int w = 0; w < FDR_PATCH_NWHY; w++)
		dprintf(fd, "%s\t%u\n", fdr__patch_why_name[w], c->n[w]);
	write_refusals(fd, c);
	close(fd);
out:
	free(c->refused);
	c->refused = NULL;
	c->nrefused = c->cap = 0;
}
