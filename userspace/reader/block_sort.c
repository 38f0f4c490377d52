// SPDX-License-Identifier: MIT
/*
 * block_sort.c - order one thread's blocks as llvm-xray 19 does.
 *
 * LLVM sorts each thread's blocks with llvm::sort (std::sort) and the
 * comparator "seconds < seconds AND micros < micros", which is not a
 * strict weak order: the result depends on the exact algorithm.  Debian's
 * llvm-xray-19 uses libstdc++'s introsort, so this file replays it step
 * for step (insertion sort below 16 elements, median-of-three quicksort,
 * heapsort past the depth limit).  Where libstdc++'s unguarded insertion
 * would walk off the array (possible only with such a comparator), we stop
 * at the first element instead.
 */
#include "internal.h"

typedef struct block *elem;

#define THRESHOLD 16

static bool less(const elem a, const elem b)
{
	return a->wall_sec < b->wall_sec && a->wall_usec < b->wall_usec;
}

static void swap(elem *a, elem *b)
{
	elem t = *a;
	*a = *b;
	*b = t;
}

static void push_heap(elem *v, long hole, long top, elem value)
{
	long parent = (hole - 1) / 2;

	while (hole > top && less(v[parent], value)) {
		v[hole] = v[parent];
		hole = parent;
		parent = (hole - 1) / 2;
	}
	v[hole] = value;
}

static void adjust_heap(elem *v, long hole, long len, elem value)
{
	long top = hole, child = hole;

	while (child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (less(v[child], v[child - 1]))
			child--;
		v[hole] = v[child];
		hole = child;
	}
	if ((len & 1) == 0 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		v[hole] = v[child - 1];
		hole = child - 1;
	}
	push_heap(v, hole, top, value);
}

static void heap_sort(elem *v, long len)
{
	for (long parent = (len - 2) / 2; len >= 2; parent--) {
		adjust_heap(v, parent, len, v[parent]);
		if (parent == 0)
			break;
	}
	for (long last = len - 1; last > 0; last--) {
		elem value = v[last];

		v[last] = v[0];
		adjust_heap(v, 0, last, value);
	}
}

static void move_median_to_first(elem *result, elem *a, elem *b, elem *c)
{
	if (less(*a, *b)) {
		if (less(*b, *c))
			swap(result, b);
		else if (less(*a, *c))
			swap(result, c);
		else
			swap(result, a);
	} else if (less(*a, *c)) {
		swap(result, a);
	} else if (less(*b, *c)) {
		swap(result, c);
	} else {
		swap(result, b);
	}
}

static elem *unguarded_partition(elem *first, elem *last, elem *pivot)
{
	for (;;) {
		while (first < last && less(*first, *pivot))
			first++;
		last--;
		while (last > pivot && less(*pivot, *last))
			last--;
		if (!(first < last))
			return first;
		swap(first, last);
		first++;
	}
}

static void introsort_loop(elem *first, elem *last, int depth)
{
	while (last - first > THRESHOLD) {
		elem *mid, *cut;

		if (depth == 0) {
			heap_sort(first, last - first);
			return;
		}
		depth--;
		mid = first + (last - first) / 2;
		move_median_to_first(first, first + 1, mid, last - 1);
		cut = unguarded_partition(first + 1, last, first);
		introsort_loop(cut, last, depth);
		last = cut;
	}
}

/* __unguarded_linear_insert, bounded by begin. */
static void linear_insert(elem *begin, elem *pos)
{
	elem value = *pos;

	while (pos > begin && less(value, pos[-1])) {
		*pos = pos[-1];
		pos--;
	}
	*pos = value;
}

static void insertion_sort(elem *first, elem *last)
{
	for (elem *i = first + 1; i < last; i++) {
		if (less(*i, *first)) {
			elem value = *i;

			memmove(first + 1, first, (size_t)(i - first) * sizeof(*first));
			*first = value;
		} else {
			linear_insert(first, i);
		}
	}
}

void block_sort_by_walltime(struct block **v, size_t n)
{
	int lg = 63 - __builtin_clzll(n | 1);

	if (n < 2)
		return;
	introsort_loop(v, v + n, 2 * lg);
	if (n > THRESHOLD) {
		insertion_sort(v, v + THRESHOLD);
		for (elem *i = v + THRESHOLD; i < v + n; i++)
			linear_insert(v, i);
	} else {
		insertion_sort(v, v + n);
	}
}
