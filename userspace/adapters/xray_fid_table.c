// SPDX-License-Identifier: MIT
/*
 * xray_fid_table.c - fdr__unwind_fid_at for the XRay mode: XRay's function
 * ids by entry address.
 *
 * Built on the first throw or longjmp() (XRay numbers functions in
 * instrumentation-map order, not by address), into anonymous memory and
 * sorted by a heap sort: no malloc, so that a longjmp() out of a signal
 * handler may build it.  A thread that finds another building it is told
 * "not instrumented" meanwhile, which leaves those frames open, as they
 * were before this file.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include <linux/fdr.h>
#include "unwind_frames.h"
#include "xray_dso.h"
#include "xray_exec_id.h"

uintptr_t __xray_function_address(int32_t func_id);
size_t __xray_max_function_id(void);

struct fid_addr {
	uintptr_t addr;
	uint32_t fid;
};

enum { TABLE_NONE, TABLE_BUILDING, TABLE_READY, TABLE_FAILED };

static struct fid_addr *table;
static size_t table_len;
static int table_state;

__FDR_NO_INSTRUMENT static void sift_down(struct fid_addr *a, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && a[child + 1].addr > a[child].addr)
			child++;
		if (a[root].addr >= a[child].addr)
			return;
		struct fid_addr t = a[root];

		a[root] = a[child];
		a[child] = t;
	}
}

__FDR_NO_INSTRUMENT static void heap_sort(struct fid_addr *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n; end-- > 1;) {
		struct fid_addr t = a[0];

		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end);
	}
}

__FDR_NO_INSTRUMENT static int build(void)
{
	size_t max = __xray_max_function_id(), n = 0;
	struct fid_addr *a;

	if (max == 0)
		return TABLE_FAILED;
	a = mmap(NULL, max * sizeof(*a), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return TABLE_FAILED;
	for (size_t fid = 1; fid <= max; fid++) {
		uintptr_t addr = __xray_function_address((int32_t)fid);

		if (addr)
			a[n++] = (struct fid_addr){ addr, (uint32_t)(fdr__xray_main_base | fid) };
	}
	heap_sort(a, n);
	table = a;
	table_len = n;
	return TABLE_READY;
}

__FDR_NO_INSTRUMENT static int table_ready(void)
{
	int st = __atomic_load_n(&table_state, __ATOMIC_ACQUIRE);
	int none = TABLE_NONE;

	if (st != TABLE_NONE)
		return st == TABLE_READY;
	if (!__atomic_compare_exchange_n(&table_state, &none, TABLE_BUILDING, 0,
					 __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
		return none == TABLE_READY;
	st = build();
	__atomic_store_n(&table_state, st, __ATOMIC_RELEASE);
	return st == TABLE_READY;
}

__FDR_NO_INSTRUMENT uint32_t fdr__unwind_fid_at(uintptr_t start)
{
	size_t lo = 0, hi;

	if (!table_ready())
		return fdr__xray_dso_fid_at(start);
	hi = table_len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table[mid].addr < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < table_len && table[lo].addr == start)
		return table[lo].fid;
	return fdr__xray_dso_fid_at(start);	/* a shared library's (xray_dso.h) */
}
