// SPDX-License-Identifier: MIT
/*
 * sym_map.c - append lines to the sym-map file (format in sym_map.h).
 *
 * Called from the hooks' slow path under its lock.  Lines are formatted
 * by hand into a stack buffer (no stdio, no malloc) and written with a
 * single write(2), so a line is never split by a crash or interleaved.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "module_lookup.h"
#include "plt_hook.h"
#include "side_file.h"
#include "sym_map.h"
#include "fdr_env.h"

#define LINE_MAX_BYTES	(2 * PATH_MAX + 64)

static int map_fd = -1;
static int open_failed;		/* say it once, then stay quiet */

struct line {
	char buf[LINE_MAX_BYTES];
	size_t len;
};

/* Copy text, replacing the separators of the format (tab, newline) and
 * other control bytes, so that every line has exactly four fields. */
__FDR_NO_INSTRUMENT static void put_field(struct line *l, const char *s)
{
	/* each field gets at most PATH_MAX - 1 bytes: the line always fits */
	for (size_t n = 0; *s && n < PATH_MAX - 1; s++, n++)
		l->buf[l->len++] = (unsigned char)*s < 0x20 ? '?' : *s;
}

__FDR_NO_INSTRUMENT static void put_char(struct line *l, char c)
{
	if (l->len < sizeof(l->buf))
		l->buf[l->len++] = c;
}

__FDR_NO_INSTRUMENT static void put_number(struct line *l, uint64_t v, unsigned base)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n > 0)
		put_char(l, tmp[--n]);
}

__FDR_NO_INSTRUMENT static void write_line(const struct line *l)
{
	ssize_t ret;

	do
		ret = write(map_fd, l->buf, l->len);
	while (ret < 0 && errno == EINTR);
}

/* "# fdr sym-map 1: ...\n# pid <pid> start <ticks>\n" (side_file.h) */
__FDR_NO_INSTRUMENT static void make_preamble(struct line *l)
{
	put_field(l, "# fdr sym-map 1: fid, symbol, module, link-time address");
	put_char(l, '\n');
	put_field(l, "# pid ");
	put_number(l, (uint64_t)getpid(), 10);
	put_field(l, " start ");
	put_number(l, fdr__process_start(), 10);
	put_char(l, '\n');
}

__FDR_NO_INSTRUMENT static int open_map(void)
{
	const char *dir = fdr__env(FDR_SYMDIR_ENV);
	struct line pre = { .len = 0 };
	char path[PATH_MAX];

	/*
	 * A set-user-ID program would create and truncate a file its caller
	 * names, or guesses in /tmp, with rights the caller lacks: no map.
	 */
	if (getauxval(AT_SECURE)) {
		if (!open_failed)
			fprintf(stderr, "fdr: a set-user-ID program writes no symbol map; function ids will not be named\n");
		open_failed = 1;
		return -1;
	}
	if (!dir || !*dir)
		dir = FDR_SYMDIR_DEFAULT;
	snprintf(path, sizeof(path), "%s/fdr-syms.%d.map", dir, (int)getpid());
	make_preamble(&pre);
	map_fd = fdr__side_file_open(path, pre.buf, pre.len);
	if (map_fd < 0) {
		if (!open_failed)
			fprintf(stderr, "fdr: cannot write the symbol map %s: %s "
				"(set %s to a writable directory); function ids "
				"will not be named\n", path, strerror(errno),
				FDR_SYMDIR_ENV);
		open_failed = 1;
		return -1;
	}
	return 0;
}

__FDR_NO_INSTRUMENT void fdr__sym_map_append(uint32_t fid, const char *symbol,
				 const char *module, uint64_t vaddr)
{
	struct line l = { .len = 0 };

	if (map_fd < 0 && (open_failed || open_map()))
		return;
	put_number(&l, fid, 10);
	put_char(&l, '\t');
	put_field(&l, symbol && *symbol ? symbol : "?");
	put_char(&l, '\t');
	put_field(&l, module && *module ? module : "?");
	put_char(&l, '\t');
	put_char(&l, '0');
	put_char(&l, 'x');
	put_number(&l, vaddr, 16);
	put_char(&l, '\n');
	write_line(&l);
}

__FDR_NO_INSTRUMENT void fdr__sym_map_forget(void)
{
	if (map_fd >= 0)
		close(map_fd);
	map_fd = -1;
	open_failed = 0;
}

/* plt_hook.h's: one hooked or patched function's line, by the module
 * recorded when its id was claimed (no dl_iterate_phdr: see there). */
__FDR_NO_INSTRUMENT void fdr__plt_sym_name(const struct fdr_plt_sym *s)
{
	struct fdr_module *m = s->module ? fdr__module_at(s->module - 1) : NULL;

	fdr__sym_map_append((uint32_t)s->fid, s->name, m ? m->path : NULL,
			    m ? s->addr - m->bias : s->addr);
}
