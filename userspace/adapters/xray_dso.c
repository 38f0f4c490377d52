// SPDX-License-Identifier: MIT
/*
 * xray_dso.c - object ids, stub pages and patching for the sleds of
 * shared libraries (xray_dso.h).
 *
 * A library is usually mapped far (more than 2 GiB) from the executable
 * that holds fdr's trampolines, out of a sled's rel32 reach: each object
 * gets a page of its own near it with one `jmp *0(%rip)` stub per
 * trampoline, which a call sled calls and a jmp sled jumps to - the
 * return address and every register are the trampoline's to keep as
 * before.  The page outlives the library (a thread may still be in a
 * stub when dlclose() returns); it is reused when the object is loaded
 * again within reach.
 *
 * A sled is patched as compiler-rt patches one: the id, the opcode and
 * rel32 first, then the first two bytes (`41 ba`, the mov) with one
 * release store, so that a thread running through it meanwhile sees the
 * unpatched jump or the whole patched sled.  Only sleds in their
 * unpatched form are touched, and only inside the object's executable
 * segments: the map is read from memory the program could have written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "elf_symtab.h"
#include "fdr_env.h"
#include "side_file.h"
#include "sym_map.h"
#include "xray_args.h"
#include "xray_dso.h"
#include "xray_sleds.h"

void fdr__xray_entry_tramp(void);
void fdr__xray_exit_tramp(void);
void fdr__xray_tail_tramp(void);
void fdr__xray_arg1_tramp(void);
void fdr__xray_args_entry_tramp(void);
void fdr__xray_args_exit_tramp(void);

#define STUB_SIZE	16	/* ff 25 00000000 <abs64>, padded */
#define NSTUBS		6	/* entry, exit, tail, arg1; -A entry, -R exit */
#define REACH		((uintptr_t)1 << 31)
#define MAX_LOADED	256	/* objects remembered per scan */

/* The patched functions of one load, by entry address, for the
 * unwinder (fdr__xray_dso_fid_at): never freed, a handler may read it. */
struct fn_table {
	size_t n;
	struct fn_entry {
		uintptr_t addr;
		int32_t fid;
	} v[];
};

struct object {
	char path[PATH_MAX];	/* absolute; "" while the id is free */
	uintptr_t base;		/* load address while loaded, else 0 */
	uint8_t *stubs;		/* its stub page, or NULL */
	struct fn_table *fns;	/* published with release order; NULL: none */
};

/* Every loaded object, instrumented or not, so a rescan reads no file
 * twice; id 0: no sleds of ours. */
struct loaded {
	uintptr_t base;
	int id;
	int seen;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Across a fork: a child forked while another thread scans must not
 * inherit the lock held (its dlclose() would wait forever). */
__FDR_NO_INSTRUMENT static void lock_take(void)
{
	pthread_mutex_lock(&lock);
}

__FDR_NO_INSTRUMENT static void lock_drop(void)
{
	pthread_mutex_unlock(&lock);
}

static struct object objects[FDR_XRAY_DSO_MAX + 1];	/* by id; 0 unused */
static struct loaded loaded[MAX_LOADED];
static size_t nloaded;
static int enabled;
static int map_fd = -1;
static pid_t map_pid;
static int noted_full;
/* $FDR_XRAY_DSO_FUNCTIONS: only:|skip:NAME,... (fdr record -F/-N with
 * names PROG's map lacks); NULL: every function. */
static const char *filter;
static int filter_only;

__FDR_NO_INSTRUMENT static void write_stub(uint8_t *p, void (*target)(void))
{
	uint64_t abs = (uint64_t)(uintptr_t)target;

	p[0] = 0xff;
	p[1] = 0x25;
	memset(p + 2, 0, 4);
	memcpy(p + 6, &abs, sizeof(abs));
}

/* Is [lo, hi) (the sleds) in rel32 reach of the page at p? */
__FDR_NO_INSTRUMENT static int reaches(uintptr_t p, uintptr_t lo, uintptr_t hi)
{
	uintptr_t far_ = p < lo ? hi - p : p + STUB_SIZE * NSTUBS - lo;

	return far_ < REACH - 4096;
}

/* A page within reach of [lo, hi): tried below, then above, in 1 MiB
 * steps, never over an existing mapping. */
__FDR_NO_INSTRUMENT static uint8_t *map_near(uintptr_t lo, uintptr_t hi, long page)
{
	for (uintptr_t step = (uintptr_t)1 << 20; step < REACH / 2; step <<= 1) {
		uintptr_t cand[2] = { (lo - step) & ~(uintptr_t)(page - 1),
				      (hi + step) & ~(uintptr_t)(page - 1) };

		for (int i = 0; i < 2; i++) {
			void *p;

			if (cand[i] < (uintptr_t)page || !reaches(cand[i], lo, hi))
				continue;
			p = mmap((void *)cand[i], page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (p == MAP_FAILED)
				continue;
			if ((uintptr_t)p == cand[i])
				return p;
			munmap(p, page);	/* an old kernel took it as a hint */
		}
	}
	return NULL;
}

__FDR_NO_INSTRUMENT static uint8_t *stubs_for(struct object *o, uintptr_t lo, uintptr_t hi)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *p;

	if (o->stubs && reaches((uintptr_t)o->stubs, lo, hi))
		return o->stubs;
	p = map_near(lo, hi, page);
	if (!p)
		return NULL;
	write_stub(p + 0 * STUB_SIZE, fdr__xray_entry_tramp);
	write_stub(p + 1 * STUB_SIZE, fdr__xray_exit_tramp);
	write_stub(p + 2 * STUB_SIZE, fdr__xray_tail_tramp);
	write_stub(p + 3 * STUB_SIZE, fdr__xray_arg1_tramp);
	write_stub(p + 4 * STUB_SIZE, fdr__xray_args_entry_tramp);
	write_stub(p + 5 * STUB_SIZE, fdr__xray_args_exit_tramp);
	if (mprotect(p, page, PROT_READ | PROT_EXEC)) {
		munmap(p, page);
		return NULL;
	}
	o->stubs = p;	/* an older page stays: a thread may be in it */
	return p;
}

/* The stub and opcode of a sled kind, if we patch that kind; a function
 * with an -A/-R spec (xray_args.h) has its entry, and its exits when its
 * return value is logged, on the args trampolines. */
__FDR_NO_INSTRUMENT static int stub_index(uint8_t kind, const struct fdr__xray_fn_spec *spec,
					  uint8_t *opcode)
{
	*opcode = kind == 1 ? JMP_OPCODE : CALL_OPCODE;
	if (spec && kind == 0)
		return 4;
	if (spec && spec->ret && kind == 1)
		return 5;
	return kind <= 3 ? kind : -1;	/* events: not ours */
}

__FDR_NO_INSTRUMENT static int unpatched(const uint8_t *sled, uint8_t kind)
{
	uint16_t head;

	memcpy(&head, sled, sizeof(head));
	return kind == 1 ? sled[0] == RET_OPCODE : head == JMP9_SEQ;
}

__FDR_NO_INSTRUMENT static void patch(uint8_t *sled, int32_t fid, uint8_t opcode,
				      const uint8_t *stub)
{
	int32_t rel = (int32_t)((intptr_t)stub - (intptr_t)(sled + SLED_SIZE));

	memcpy(sled + 2, &fid, sizeof(fid));
	sled[6] = opcode;
	memcpy(sled + 7, &rel, sizeof(rel));
	__atomic_store_n((uint16_t *)sled, (uint16_t)MOV_R10_SEQ, __ATOMIC_RELEASE);
}

/* Is name one of the comma-separated filter? */
__FDR_NO_INSTRUMENT static int listed(const char *name)
{
	size_t len = strlen(name);

	for (const char *p = filter; *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && !memcmp(p, name, n))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Is the function named name (NULL: unknown) to be patched? */
__FDR_NO_INSTRUMENT static int wanted(const char *name)
{
	if (!filter)
		return 1;
	return name && listed(name) ? filter_only : !filter_only;
}

__FDR_NO_INSTRUMENT static struct fn_table *table_new(size_t cap)
{
	void *p = mmap(NULL, sizeof(struct fn_table) + cap * sizeof(struct fn_entry),
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Insertion into the sorted table: maps list functions mostly in
 * address order, so this is nearly linear. */
__FDR_NO_INSTRUMENT static void table_add(struct fn_table *t, uintptr_t addr, int32_t fid)
{
	size_t i = t->n++;

	for (; i > 0 && t->v[i - 1].addr > addr; i--)
		t->v[i] = t->v[i - 1];
	t->v[i] = (struct fn_entry){ addr, fid };
}

/* Patch every sled of map with ids id << 24 | 1, 2, ..., after putting
 * each function's -A/-R spec, if any, in args.  Returns the number
 * patched or -errno. */
__FDR_NO_INSTRUMENT static int patch_map(int id, const struct fdr__xray_dso_map *map,
					 const uint8_t *stubs, const struct fdr_elf_symtab *st,
					 uintptr_t base, struct fn_table *fns,
					 struct fdr__xray_args_table *args)
{
	const struct fdr__xray_fn_spec *spec = NULL;
	struct fdr__xray_window w = { .page = sysconf(_SC_PAGESIZE) };
	const struct xray_sled *s = map->sleds;
	uint64_t fn = 0;
	int32_t fid = 0;
	int done = 0, ret = 0, closed, on = 0;

	for (size_t i = 0; i < map->n && !ret; i++) {
		uint8_t *sled = fdr__xray_sled_address(&s[i]);
		uint64_t f = (uintptr_t)&s[i].function + s[i].function;
		uint8_t opcode;
		int k;

		if (s[i].version < 2) {
			ret = -ENOEXEC;	/* absolute addresses: a -shared map has none */
			break;
		}
		if (f != fn && ++fid >= (1 << FDR_XRAY_DSO_SHIFT))
			break;	/* more functions than ids: the rest stay off */
		if (f != fn) {
			const char *name = st ? fdr__elf_symtab_lookup(st, f - base) : NULL;

			on = wanted(name);
			spec = args ? fdr__xray_args_named(name) : NULL;
			if (spec && fid <= args->max)	/* before its sleds call for it */
				args->spec[fid] = spec;
		}
		fn = f;
		k = stub_index(s[i].kind, spec, &opcode);
		if (k < 0 || !on || (uintptr_t)sled < map->text_lo ||
		    (uintptr_t)sled > map->text_hi - SLED_SIZE || !unpatched(sled, s[i].kind))
			continue;
		ret = fdr__xray_window_cover(&w, (uintptr_t)sled);
		if (!ret) {
			patch(sled, (id << FDR_XRAY_DSO_SHIFT) | fid, opcode,
			      stubs + k * STUB_SIZE);
			done++;
			if (fns && (s[i].kind == 0 || s[i].kind == 3))	/* an entry */
				table_add(fns, (uintptr_t)f, (id << FDR_XRAY_DSO_SHIFT) | fid);
		}
	}
	closed = fdr__xray_window_close(&w);
	if (closed && !ret)
		ret = closed;
	return ret ? ret : done;
}

/* $FDR_SYMDIR/fdr-xray-dso.<pid>.map: this process's file (a fork child
 * writes its own, starting with what it inherited). */
__FDR_NO_INSTRUMENT static int map_file(void)
{
	const char *dir = fdr__env(FDR_SYMDIR_ENV);
	char path[PATH_MAX], pre[160];
	int n;

	if (map_fd >= 0 && map_pid == getpid())
		return map_fd;
	if (map_fd >= 0)
		close(map_fd);
	map_fd = -1;
	if (getauxval(AT_SECURE))
		return -1;	/* as sym_map.c: no file a caller names */
	map_pid = getpid();
	snprintf(path, sizeof(path), "%s/" FDR_XRAY_DSO_MAP ".%d.map",
		 dir && *dir ? dir : FDR_SYMDIR_DEFAULT, (int)map_pid);
	n = snprintf(pre, sizeof(pre), "# fdr xray-dso 1: object id, path; function ids "
		     "are (object << %d) | n\n# pid %d start %llu\n", FDR_XRAY_DSO_SHIFT,
		     (int)map_pid, (unsigned long long)fdr__process_start());
	map_fd = fdr__side_file_open(path, pre, (size_t)n);
	if (map_fd < 0) {
		fprintf(stderr, "fdr xray mode: cannot write %s: %s (set %s to a writable "
			"directory); the functions of shared libraries will show as #id\n",
			path, strerror(errno), FDR_SYMDIR_ENV);
		return -1;
	}
	for (int id = 1; id <= FDR_XRAY_DSO_MAX; id++)
		if (objects[id].path[0])
			dprintf(map_fd, "%d\t%s\n", id, objects[id].path);
	return map_fd;
}

/* The id of path: the one it had, else a free one (and a map line). */
__FDR_NO_INSTRUMENT static int object_id(const char *path)
{
	int id, fd;

	for (id = 1; id <= FDR_XRAY_DSO_MAX; id++)
		if (!strcmp(objects[id].path, path))
			return id;
	for (id = 1; id <= FDR_XRAY_DSO_MAX && objects[id].path[0]; id++)
		;
	if (id > FDR_XRAY_DSO_MAX) {
		if (!noted_full++)
			fprintf(stderr, "fdr xray mode: note: %s and later instrumented "
				"libraries are not recorded: ids have room for %d\n", path,
				FDR_XRAY_DSO_MAX);
		return 0;
	}
	fd = map_file();
	snprintf(objects[id].path, sizeof(objects[id].path), "%s", path);
	if (fd >= 0 && map_pid == getpid())
		dprintf(fd, "%d\t%s\n", id, path);
	return id;
}

__FDR_NO_INSTRUMENT int fdr__xray_dso_reserve(int id, const char *path)
{
	int fd, ret = -1;

	pthread_mutex_lock(&lock);
	if (!objects[id].path[0]) {
		fd = map_file();	/* first: a new file lists the others */
		snprintf(objects[id].path, sizeof(objects[id].path), "%s", path);
		if (fd >= 0)
			dprintf(fd, "%d\t%s\n", id, path);
		ret = 0;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* A newly loaded object: patch its sleds if it has any.  Its id, or 0. */
__FDR_NO_INSTRUMENT static int add_object(struct dl_phdr_info *info)
{
	struct fdr__xray_dso_map map;
	struct fdr_elf_symtab st;
	struct fdr__xray_args_table *args = NULL;
	struct fn_table *fns;
	char path[PATH_MAX];
	uint8_t *stubs;
	int id, n, have_st = 0;

	if (fdr__xray_dso_find_map(info, &map))
		return 0;	/* no sleds (or not readable): nothing to patch */
	if (!realpath(info->dlpi_name, path))
		snprintf(path, sizeof(path), "%s", info->dlpi_name);
	id = object_id(path);
	if (!id)
		return 0;
	stubs = stubs_for(&objects[id], map.text_lo, map.text_hi);
	if (filter || fdr__xray_args_any_named())	/* names for -F/-N, -A/-R */
		have_st = fdr__elf_symtab_open(&st, path) == 0;
	if (have_st && fdr__xray_args_any_named())
		args = fdr__xray_args_table_new(id, (int32_t)map.n);
	fns = table_new(map.n);
	n = stubs ? patch_map(id, &map, stubs, have_st ? &st : NULL, info->dlpi_addr, fns, args)
		  : -ENOMEM;
	/* an older table stays mapped: an unwinder may be reading it */
	__atomic_store_n(&objects[id].fns, fns, __ATOMIC_RELEASE);
	if (have_st)
		fdr__elf_symtab_close(&st);
	if (n < 0)
		fprintf(stderr, "fdr xray mode: note: cannot patch the sleds of %s (%s); "
			"its functions are not recorded\n", path, strerror(-n));
	objects[id].base = info->dlpi_addr;
	return id;
}

__FDR_NO_INSTRUMENT static struct loaded *find_loaded(uintptr_t base)
{
	for (size_t i = 0; i < nloaded; i++)
		if (loaded[i].base == base)
			return &loaded[i];
	return NULL;
}

__FDR_NO_INSTRUMENT static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
	struct loaded *l = find_loaded(info->dlpi_addr);

	(void)size;
	(void)data;
	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	if (!l && nloaded < MAX_LOADED) {
		l = &loaded[nloaded++];
		*l = (struct loaded){ .base = info->dlpi_addr, .id = add_object(info) };
	}
	if (l)
		l->seen = 1;
	return 0;
}

__FDR_NO_INSTRUMENT static int32_t table_find(const struct fn_table *t, uintptr_t start)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->v[lo].addr == start ? t->v[lo].fid : 0;
}

__FDR_NO_INSTRUMENT uint32_t fdr__xray_dso_fid_at(uintptr_t start)
{
	for (int id = 1; id <= FDR_XRAY_DSO_MAX; id++) {
		const struct fn_table *t = __atomic_load_n(&objects[id].fns, __ATOMIC_ACQUIRE);
		int32_t fid;

		if (t && __atomic_load_n(&objects[id].base, __ATOMIC_RELAXED) &&
		    (fid = table_find(t, start)))
			return (uint32_t)fid;
	}
	return 0;
}

/* Drop the objects a dlclose() unloaded: their address may be reused. */
__FDR_NO_INSTRUMENT static void forget_unseen(void)
{
	size_t kept = 0;

	for (size_t i = 0; i < nloaded; i++) {
		if (!loaded[i].seen) {
			if (loaded[i].id)
				objects[loaded[i].id].base = 0;
			continue;
		}
		loaded[i].seen = 0;
		loaded[kept++] = loaded[i];
	}
	nloaded = kept;
}

__FDR_NO_INSTRUMENT int fdr__xray_dso_scan(void)
{
	if (!__atomic_load_n(&enabled, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&lock);
	dl_iterate_phdr(visit, NULL);
	forget_unseen();
	pthread_mutex_unlock(&lock);
	return 0;
}

__FDR_NO_INSTRUMENT void fdr__xray_dso_start(int only)
{
	const char *spec = secure_getenv("FDR_XRAY_DSO_FUNCTIONS");

	if (spec && (!strncmp(spec, "only:", 5) || !strncmp(spec, "skip:", 5))) {
		filter_only = spec[0] == 'o';
		filter = spec + 5;
	} else if (only) {
		return;	/* -F names the executable's functions: none of ours */
	}
	pthread_atfork(lock_take, lock_drop, lock_drop);
	__atomic_store_n(&enabled, 1, __ATOMIC_RELEASE);
	fdr__xray_dso_scan();
}
