// SPDX-License-Identifier: MIT
/*
 * plt_detect.c - does the executable carry fdr's recorder itself?
 *
 * An uninstrumented program run by fdr record passes LD_PRELOAD on to
 * what it execs; a program built with fdr-cc links libfdr statically and
 * records through it, and a second, preloaded libfdr in the same process
 * would give each thread two buffers.  So libfdr-plt.so stays out of such
 * a program: an XRay build has an xray_instr_map section, an fdr-cc
 * --patchable one an fdr_patchable section (pfe_start.c; both read from
 * the file's section headers), a dynamic --gcc build exports the hooks
 * (from the executable itself: glibc has stubs of the same names).
 *
 * In an fdr-cc build (plt_self.c) the same question is asked of each
 * shared library a library call leads into: a library built with fdr-cc
 * records its functions itself (XRay sleds the mode patches, or calls of
 * the program's __cyg_profile_func_enter: an undefined dynamic symbol of
 * that name), and hooking the call too would record it twice.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "plt_hook.h"

#define XRAY_SECTION	"xray_instr_map"
#define PFE_SECTION	"fdr_patchable"

static bool read_at(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off) == (ssize_t)len;
}

/* Is the string at off want? */
static bool named(int fd, off_t off, const char *want)
{
	char name[sizeof(XRAY_SECTION)];
	size_t len = strlen(want) + 1;

	return len <= sizeof(name) && read_at(fd, name, len, off) && !memcmp(name, want, len);
}

#define CYG_ENTER	"__cyg_profile_func_enter"

/* Does the dynamic symbol table sh (strings in section sh_link) hold an
 * undefined CYG_ENTER? */
static bool imports_cyg(int fd, const Elf64_Ehdr *eh, const Elf64_Shdr *sh)
{
	Elf64_Shdr str;
	Elf64_Sym sym;
	char name[sizeof(CYG_ENTER)];

	if (sh->sh_link >= eh->e_shnum || sh->sh_entsize != sizeof(sym) ||
	    !read_at(fd, &str, sizeof(str), (off_t)(eh->e_shoff + (uint64_t)sh->sh_link * sizeof(str))))
		return false;
	for (uint64_t i = 1; i < sh->sh_size / sizeof(sym) && i < (1u << 20); i++) {
		if (!read_at(fd, &sym, sizeof(sym), (off_t)(sh->sh_offset + i * sizeof(sym))))
			return false;
		if (sym.st_shndx == SHN_UNDEF && sym.st_name < str.sh_size &&
		    read_at(fd, name, sizeof(name), (off_t)(str.sh_offset + sym.st_name)) &&
		    !memcmp(name, CYG_ENTER, sizeof(name)))
			return true;
	}
	return false;
}

/* Is there a section named XRAY_SECTION or PFE_SECTION (or, with cyg,
 * an undefined CYG_ENTER)?  Every value read is checked against the
 * sizes read, never trusted. */
static bool has_fdr_section(int fd, bool cyg)
{
	Elf64_Ehdr eh;
	Elf64_Shdr names, sh;

	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shstrndx >= eh.e_shnum ||
	    !read_at(fd, &names, sizeof(names),
		     (off_t)(eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(sh))))
		return false;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (!read_at(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + (uint64_t)i * sizeof(sh))))
			return false;
		if (cyg && sh.sh_type == SHT_DYNSYM && imports_cyg(fd, &eh, &sh))
			return true;
		if (sh.sh_name >= names.sh_size)
			continue;
		if (named(fd, (off_t)(names.sh_offset + sh.sh_name), XRAY_SECTION) ||
		    named(fd, (off_t)(names.sh_offset + sh.sh_name), PFE_SECTION))
			return true;
	}
	return false;
}

/* The executable is the first object of the loader's list. */
static bool defined_by_exe(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);
	struct link_map *lm = NULL;
	Dl_info info;

	return p && dladdr1(p, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm && !lm->l_prev;
}

bool fdr__plt_exe_records_itself(void)
{
	int fd;
	bool xray;

	if (defined_by_exe("__cyg_profile_func_enter"))
		return true;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	xray = has_fdr_section(fd, false);
	close(fd);
	return xray;
}

bool fdr__plt_lib_records_itself(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool yes;

	if (fd < 0)
		return false;
	yes = has_fdr_section(fd, true);
	close(fd);
	return yes;
}
