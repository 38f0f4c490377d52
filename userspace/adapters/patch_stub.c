// SPDX-License-Identifier: MIT
/*
 * patch_stub.c - the stubs' memory and code (patch_stub.h).
 *
 * The mapping is looked for below the code first (above it is where brk
 * grows), 1 MiB steps, MAP_FIXED_NOREPLACE so that nothing of the
 * program's is ever replaced.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "patch_stub.h"

#define NEAR_STEP	(1ul << 20)
#define NEAR_REACH	0x7ff00000ul	/* under 2 GiB, for every rel32 */

static uintptr_t page_down(uintptr_t a)
{
	return a & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
}

static void *map_at(uintptr_t a, size_t size)
{
	void *p = mmap((void *)a, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (p != (void *)a) {	/* a kernel before 4.17 took it as a hint */
		munmap(p, size);
		return NULL;
	}
	return p;
}

void *fdr__patch_map_near(uintptr_t lo, uintptr_t hi, size_t size)
{
	uintptr_t a, above = (uintptr_t)sbrk(0) + 256 * NEAR_STEP;
	void *p;

	for (a = page_down(lo - size) & ~(NEAR_STEP - 1);
	     a > 16 * NEAR_STEP && hi - a < NEAR_REACH; a -= NEAR_STEP)
		if ((p = map_at(a, size)))
			return p;
	for (a = (above > hi ? above : hi + NEAR_STEP) & ~(NEAR_STEP - 1);
	     a + size - lo < NEAR_REACH; a += NEAR_STEP)
		if ((p = map_at(a, size)))
			return p;
	return NULL;
}

void fdr__patch_make_stub(uint8_t *p, uint32_t index, const uintptr_t *cell)
{
	int32_t to_cell = (int32_t)((intptr_t)cell - (intptr_t)(p + 11));

	memset(p, 0xcc, FDR_PATCH_STUB_SIZE);
	p[0] = 0x68;
	memcpy(p + 1, &index, 4);
	p[5] = 0xff;
	p[6] = 0x25;
	memcpy(p + 7, &to_cell, 4);
}
