// SPDX-License-Identifier: MIT
/*
 * big_alloc.c - memory for the event arrays (hundreds of MB for a big
 * log).  Anonymous mappings asking for transparent huge pages: one fault
 * per 2 MB instead of per 4 KB, which is most of what filling a fresh
 * array costs.  Small sizes use malloc.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include "internal.h"

#define BIG (2u << 20)

struct big_header { size_t size; size_t pad; };

void *big_alloc(size_t size)
{
	struct big_header *h;
	size_t total = size + sizeof(*h);

	if (total < BIG) {
		h = malloc(total);
		if (!h)
			return NULL;
	} else {
		h = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (h == MAP_FAILED)
			return NULL;
		madvise(h, total, MADV_HUGEPAGE);	/* a hint: failure is harmless */
	}
	h->size = total;
	return h + 1;
}

void big_free(void *p)
{
	struct big_header *h = p;

	if (!p)
		return;
	h--;
	if (h->size < BIG)
		free(h);
	else
		munmap(h, h->size);
}
