// SPDX-License-Identifier: MIT
/* array_grow.c - grow an array by doubling (array_grow.h). */
#include <stdlib.h>
#include "array_grow.h"

int array_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}
