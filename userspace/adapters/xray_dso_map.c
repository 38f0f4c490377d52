// SPDX-License-Identifier: MIT
/*
 * xray_dso_map.c - where a loaded library's xray_instr_map is.
 *
 * The section is allocated (it is in memory), but only the file's section
 * headers say where: read them with pread (no malloc of file-sized
 * buffers, no libelf in the user's program).  The file may have been
 * replaced since it was loaded, or be hostile: every offset is checked,
 * the section must lie in a loaded read-only segment, and its bytes in
 * memory must equal the file's, else the object is left alone.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "xray_dso.h"
#include "xray_sleds.h"

#define MAP_NAME	"xray_instr_map"
#define MAX_SECTIONS	4096

__FDR_NO_INSTRUMENT static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -ENOEXEC;
}

__FDR_NO_INSTRUMENT static int read_ehdr(int fd, Elf64_Ehdr *eh)
{
	if (read_at(fd, eh, sizeof(*eh), 0) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shnum == 0 || eh->e_shnum > MAX_SECTIONS || eh->e_shstrndx >= eh->e_shnum)
		return -ENOEXEC;
	return 0;
}

__FDR_NO_INSTRUMENT static int read_shdr(int fd, const Elf64_Ehdr *eh, unsigned i,
					 Elf64_Shdr *sh)
{
	return read_at(fd, sh, sizeof(*sh), eh->e_shoff + (uint64_t)i * sizeof(*sh));
}

/* Is section i called MAP_NAME?  Reads the name from the string table. */
__FDR_NO_INSTRUMENT static int is_map(int fd, const Elf64_Shdr *strs, const Elf64_Shdr *sh)
{
	char name[sizeof(MAP_NAME)];

	if (sh->sh_name >= strs->sh_size || strs->sh_size - sh->sh_name < sizeof(name))
		return 0;
	if (read_at(fd, name, sizeof(name), strs->sh_offset + sh->sh_name))
		return 0;
	return !memcmp(name, MAP_NAME, sizeof(name));
}

__FDR_NO_INSTRUMENT static int find_section(int fd, Elf64_Shdr *out)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strs;
	int r = read_ehdr(fd, &eh);

	if (r || (r = read_shdr(fd, &eh, eh.e_shstrndx, &strs)))
		return r;
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		if (read_shdr(fd, &eh, i, out))
			return -ENOEXEC;
		if (out->sh_type == SHT_PROGBITS && (out->sh_flags & SHF_ALLOC) &&
		    is_map(fd, &strs, out))
			return 0;
	}
	return -ENOENT;
}

/* [vaddr, vaddr + size) inside one loaded segment (link-time addresses);
 * the span of the executable segments into lo/hi. */
__FDR_NO_INSTRUMENT static int segments(const struct dl_phdr_info *info, uint64_t vaddr,
					uint64_t size, struct fdr__xray_dso_map *map)
{
	int inside = 0;

	map->text_lo = UINTPTR_MAX;
	map->text_hi = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (vaddr >= ph->p_vaddr && size <= ph->p_memsz &&
		    vaddr - ph->p_vaddr <= ph->p_memsz - size && !(ph->p_flags & PF_W))
			inside = 1;
		if (ph->p_flags & PF_X) {
			map->text_lo = lo < map->text_lo ? lo : map->text_lo;
			map->text_hi = lo + ph->p_memsz > map->text_hi ? lo + ph->p_memsz
								       : map->text_hi;
		}
	}
	return inside && map->text_lo < map->text_hi ? 0 : -ENOEXEC;
}

/* The loaded bytes are the file's: compared a page at a time. */
__FDR_NO_INSTRUMENT static int same_bytes(int fd, const uint8_t *mem, uint64_t off,
					  uint64_t size)
{
	uint8_t buf[4096];

	for (uint64_t done = 0; done < size;) {
		size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);

		if (read_at(fd, buf, n, off + done) || memcmp(buf, mem + done, n))
			return -ESTALE;
		done += n;
	}
	return 0;
}

__FDR_NO_INSTRUMENT int fdr__xray_dso_find_map(const struct dl_phdr_info *info,
					       struct fdr__xray_dso_map *map)
{
	Elf64_Shdr sh;
	int fd, r;

	if (!info->dlpi_name || !info->dlpi_name[0])
		return -ENOENT;	/* the executable, or the vDSO: not ours */
	fd = open(info->dlpi_name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = find_section(fd, &sh);
	if (!r && (sh.sh_size == 0 || sh.sh_size % sizeof(struct xray_sled)))
		r = -ENOEXEC;
	if (!r)
		r = segments(info, sh.sh_addr, sh.sh_size, map);
	if (!r)
		r = same_bytes(fd, (const uint8_t *)(info->dlpi_addr + sh.sh_addr),
			       sh.sh_offset, sh.sh_size);
	close(fd);
	if (r)
		return r;
	map->sleds = (const void *)(info->dlpi_addr + sh.sh_addr);
	map->n = sh.sh_size / sizeof(struct xray_sled);
	return 0;
}
