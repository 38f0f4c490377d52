// SPDX-License-Identifier: MIT
/*
 * cyg_ids_test.c - the pieces behind -finstrument-functions ids, in this
 * (uninstrumented) process: module lookup, symbol lookup from .symtab and
 * .dynsym, direct and hashed ids, collisions, and a full registry.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fid_assign.h"
#include "fid_cache.h"
#include "module_lookup.h"
#include "tap.h"

__attribute__((noinline)) static int a_static_function(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

static void test_main_module(void)
{
	uintptr_t addr = (uintptr_t)a_static_function;
	struct fdr_module *m = fdr__module_find(addr + 1);	/* inside it */
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *sym;
	uint64_t vaddr;

	exe[n > 0 ? n : 0] = '\0';
	tap_ok(m && m->is_main && strcmp(m->path, exe) == 0,
	       "module: a function of the executable is in the executable (%s)",
	       m ? m->path : "none");
	if (!m)
		return;
	vaddr = addr - m->bias;
	sym = fdr__module_symbol(m, vaddr + 1);
	tap_ok(sym && strcmp(sym, "a_static_function") == 0,
	       "symbol: an address inside a static function names it (%s)",
	       sym ? sym : "none");
	tap_ok(fdr__fid_claim(m, vaddr) == vaddr && fdr__fid_claim(m, vaddr) == vaddr,
	       "id: an executable function's id is its link-time address, every time");
	tap_ok(fdr__module_find(addr) == m, "module: the module is remembered once");
}

static void test_libc_module(void)
{
	struct fdr_module *m = fdr__module_find((uintptr_t)getpid);
	const char *sym = m ? fdr__module_symbol(m, (uintptr_t)getpid - m->bias) : NULL;
	uint32_t fid = m ? fdr__fid_claim(m, (uintptr_t)getpid - m->bias) : 0;

	tap_ok(m && !m->is_main && strstr(m->path, "libc.so"),
	       "module: getpid is in libc (%s)", m ? m->path : "none");
	tap_ok(sym && strstr(sym, "getpid"),
	       "symbol: stripped libc is named from .dynsym (%s)", sym ? sym : "none");
	tap_ok(fid >= FDR_FID_DIRECT_LIMIT && fid < (1u << 28),
	       "id: a shared-library function gets a hashed id in [2^27, 2^28): %u", fid);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* 60000 functions of a fake library: birthday collisions are certain
 * in 2^27 hashed ids, and must all be resolved to distinct ids. */
static void test_collisions(void)
{
	static struct fdr_module fake = { .path = "/fake/libmany.so", .index = 200 };
	enum { N = 60000 };
	static uint32_t ids[N];
	int bad = 0, dup = 0, stable = 0;

	for (int i = 0; i < N; i++) {
		ids[i] = fdr__fid_claim(&fake, 0x1000 + 16 * (uint64_t)i);
		bad += ids[i] < FDR_FID_DIRECT_LIMIT || ids[i] >= (1u << 28);
	}
	for (int i = 0; i < N; i++)
		stable += fdr__fid_claim(&fake, 0x1000 + 16 * (uint64_t)i) == ids[i];
	qsort(ids, N, sizeof(ids[0]), cmp_u32);
	for (int i = 1; i < N; i++)
		dup += ids[i] == ids[i - 1];
	tap_ok(bad == 0 && dup == 0 && stable == N,
	       "id: %d hashed ids all distinct, in range, and the same when asked again", N);
}

static void test_full_registry(void)
{
	static struct fdr_module fake = { .path = "/fake/libmore.so", .index = 201 };
	uint64_t claimed = 0;

	while (claimed < FDR_FID_REGISTRY_SIZE &&
	       fdr__fid_claim(&fake, 0x100000 + 16 * claimed))
		claimed++;
	/* 3/4 of the registry: 60000 + main + getpid before, the rest here */
	tap_ok(claimed + 60000 + 2 == FDR_FID_REGISTRY_SIZE / 4 * 3,
	       "id: a 3/4 full registry answers 0 instead of probing on (after %llu more)",
	       (unsigned long long)claimed);
}

static void test_bad_files(void)
{
	struct fdr_elf_symtab st;

	tap_ok(fdr__elf_symtab_open(&st, "/nonexistent/file") == -ENOENT,
	       "symtab: a missing file is -ENOENT");
	tap_ok(fdr__elf_symtab_open(&st, "/proc/self/status") == -ENOEXEC ||
	       fdr__elf_symtab_open(&st, "/etc/passwd") == -ENOEXEC,
	       "symtab: a file that is not ELF is -ENOEXEC");
}

/* The hot table: every inserted address found with its id through
 * collision chains, unknown ones not, and inserts refused at 3/4 full. */
static void test_fid_cache(void)
{
	uint32_t n = 0, found = 0, strangers = 0;

	/* addresses 16 apart, like aligned functions: they share hash chains */
	while (fdr__fid_cache_put(0x400000 + 16 * (uintptr_t)n, n + 1) == 0)
		n++;
	for (uint32_t i = 0; i < n; i++)
		found += fdr_fid_cache_get(0x400000 + 16 * (uintptr_t)i) == i + 1;
	for (uint32_t i = 0; i < 1000; i++)
		strangers += fdr_fid_cache_get(0x400008 + 16 * (uintptr_t)i) != 0;
	tap_ok(n == FDR_FID_CACHE_MAX && found == n && strangers == 0,
	       "cache: %u addresses found with their ids, none invented, full at 3/4 (%u)",
	       found, FDR_FID_CACHE_MAX);
}

int main(void)
{
	tap_plan(12);
	test_fid_cache();
	test_main_module();
	test_libc_module();
	test_collisions();
	test_full_registry();
	test_bad_files();
	return tap_done();
}
