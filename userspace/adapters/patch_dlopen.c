// SPDX-License-Identifier: MIT
/*
 * patch_dlopen.c - fdr record -P PATTERN@MODULE: a library that dlopen()
 * loads is patched before dlopen() returns it (patch_libs.c).
 *
 * libfdr-plt.so exports dlopen (plt_exports.map): preloaded, it comes
 * before libc's for every object of the program.  It calls the real one
 * through a thunk in anonymous memory: glibc looks a bare file name up
 * along the RUNPATH of the object whose code called dlopen(), found by
 * the return address, and takes the program's for an address in no
 * object, so a dlopen() of the program's own finds what it would without
 * fdr.  One of a library's looks a bare name up along that library's
 * search path first (dl_caller.c).  dlmopen() and glibc's own
 * loads (NSS, iconv) are not wrapped: what they load is not patched.
 *
 * Patching rewrites several instructions of a function, so no thread may
 * be running them (Documentation/integrations.md, "Patching and
 * threads").  When the real dlopen() returns, only the new libraries'
 * constructors have run their code, on this thread; a constructor may
 * have started a thread: the process's threads are listed before and
 * after, and with a new one the new libraries are not patched, every
 * selected function counted as "other threads running".  With -P
 * ...@MODULE one lock around the whole call: two dlopen()s do not patch
 * at once, and one of a library another is patching returns after it.
 * A constructor's own dlopen() (the lock is recursive) leaves the
 * patching to the outer one.  That lock is taken before the loader's
 * dl_load_lock, so a glibc-internal load (NSS, iconv: not through this
 * dlopen) whose library constructor calls dlopen() while another thread
 * waits in here for dl_load_lock deadlocks: -P ...@MODULE only (the
 * runtime's limits, Documentation/integrations.md).
 *
 * Without it no lock is held across the real dlopen() (with one, the
 * same load hung every `fdr record` of such a program: libcall_test).
 * With --nest-libcall the new libraries' GOTs are hooked after it
 * (plt_nest.c's pass: what is loaded, once every load under way has
 * ended; a GOT entry is rewritten in one store, so threads may run), and
 * dlclose() is wrapped to forget the libraries it unloaded.  A call of
 * dlopen() through a hooked GOT has fdr__plt_return as its return
 * address: the caller's is asked of the shadow stack.
 */
#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dl_caller.h"
#include "patch_hook.h"
#include "plt_hook.h"

#define OBJS_MAX	1024
#define TIDS_MAX	4096
#define THUNK_CELL	64

typedef void *dlopen_fn(const char *file, int mode);
typedef int dlclose_fn(void *handle);

struct objects {
	unsigned n;
	bool full;
	struct dl_phdr_info v[OBJS_MAX];
};

struct tids {
	unsigned n;
	bool unknown;		/* /proc unreadable, or too many */
	pid_t v[TIDS_MAX];
};

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
/* This thread's dlopen()s under way (a constructor's own is nested). */
static __thread unsigned depth __attribute__((tls_model("initial-exec")));
static dlopen_fn *real_dlopen;		/* through the thunk */
static bool patch_libs;			/* set once armed */
static bool nest;			/* --nest-libcall: hook new GOTs */
static struct objects before, after;
static struct tids tids_before, tids_after;

/* "sub $8,%rsp; call *cell(%rip); add $8,%rsp; ret", the cell at
 * THUNK_CELL: the real dlopen() sees a return address in no object. */
static dlopen_fn *make_thunk(dlopen_fn *real)
{
	static const uint8_t code[] = { 0x48, 0x83, 0xec, 0x08, 0xff, 0x15, 0, 0, 0, 0,
					0x48, 0x83, 0xc4, 0x08, 0xc3 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int32_t to_cell = THUNK_CELL - 10;
	uint8_t *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, code, sizeof(code));
	memcpy(p + 6, &to_cell, 4);
	memcpy(p + THUNK_CELL, &real, sizeof(real));
	if (mprotect(p, page, PROT_READ | PROT_EXEC)) {
		munmap(p, page);
		return NULL;
	}
	return (dlopen_fn *)(void *)p;
}

/* A fork while another thread holds the lock: the child's is free. */
static void lock_all(void)
{
	pthread_mutex_lock(&lock);
}

static void unlock_all(void)
{
	pthread_mutex_unlock(&lock);
}

/* (depth is the forking thread's: a constructor that forks returns
 * through its dlopen() in the child too.) */
static void reset_in_child(void)
{
	pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

	lock = fresh;
}

void fdr__patch_dlopen_arm(void)
{
	pthread_atfork(lock_all, unlock_all, reset_in_child);
	patch_libs = fdr__patch_libs_wanted();
	nest = !fdr__patch_no_libcall() && fdr__plt_nest_wanted();
}

static void find_real(void)
{
	dlopen_fn *real = (dlopen_fn *)dlsym(RTLD_NEXT, "dlopen");
	dlopen_fn *thunk = real ? make_thunk(real) : NULL;

	real_dlopen = thunk ? thunk : real;
}

static pthread_once_t found = PTHREAD_ONCE_INIT;

/*
 * At load, before the program's threads: dlsym() takes the loader's
 * dl_load_lock, so the first dlopen() finding it while a glibc-internal
 * load held that lock and its library's constructor called dlopen()
 * (waiting on the once) deadlocked.  The once stays for a dlopen() from
 * a constructor that runs before this one.
 */
__attribute__((constructor)) static void find_real_at_load(void)
{
	pthread_once(&found, find_real);
}

static int list_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct objects *o = arg;

	(void)size;
	if (o->n == OBJS_MAX) {
		o->full = true;
		return 1;
	}
	o->v[o->n++] = *info;
	return 0;
}

static void list_tids(struct tids *t)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	t->n = 0;
	t->unknown = !d;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && !(t->unknown |= t->n == TIDS_MAX))
			t->v[t->n++] = (pid_t)atoi(e->d_name);
	if (d)
		closedir(d);
}

/* A thread in after that before did not have (or we cannot tell). */
static bool new_thread(const struct tids *b, const struct tids *a)
{
	if (b->unknown || a->unknown)
		return true;
	for (unsigned i = 0; i < a->n; i++) {
		unsigned j = 0;

		while (j < b->n && b->v[j] != a->v[i])
			j++;
		if (j == b->n)
			return true;
	}
	return false;
}

static bool listed(const struct objects *o, const struct dl_phdr_info *info)
{
	for (unsigned i = 0; i < o->n; i++)
		if (o->v[i].dlpi_addr == info->dlpi_addr && o->v[i].dlpi_phdr == info->dlpi_phdr)
			return true;
	return false;
}

/* Patch what the dlopen() between the two lists loaded (-P ...@MODULE,
 * under the lock); name the new functions (their ids claimed as at
 * start-up). */
static void patch_new(void)
{
	enum fdr_patch_why refuse = FDR_PATCH_OK;
	uint32_t from = fdr__plt_nsyms;

	fdr__plt_busy_enter();
	if (nest)
		fdr__plt_nest_hook_new(NULL);
	after.n = 0;
	after.full = false;
	dl_iterate_phdr(list_object, &after);
	list_tids(&tids_after);
	if (before.full || after.full || new_thread(&tids_before, &tids_after))
		refuse = FDR_PATCH_THREADS;
	for (unsigned i = 1; i < after.n; i++)
		if (!listed(&before, &after.v[i]))
			fdr__patch_lib(&after.v[i], refuse, true);
	fdr__plt_claim_ids(from);
	fdr__plt_busy_leave();
}

/* -P ...@MODULE: the whole call under the lock (above). */
static void *dlopen_patching(const char *file, int mode)
{
	void *h;

	pthread_mutex_lock(&lock);
	if (!depth++) {
		before.n = 0;
		before.full = false;
		dl_iterate_phdr(list_object, &before);
		list_tids(&tids_before);
	}
	h = real_dlopen(file, mode);
	if (!--depth && h)
		patch_new();
	pthread_mutex_unlock(&lock);
	return h;
}

static void claim_new(uint32_t first)
{
	fdr__plt_busy_enter();
	fdr__plt_claim_ids(first);
	fdr__plt_busy_leave();
}

__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
	const uintptr_t *slot = (const uintptr_t *)__builtin_frame_address(0) + 1;
	char path[PATH_MAX];
	void *h;

	pthread_once(&found, find_real);
	if (!real_dlopen)
		return NULL;	/* no libc dlopen: never on glibc */
	file = fdr__dl_as_caller((const void *)fdr__plt_real_return(slot), file, path, sizeof(path));
	if (patch_libs)
		return dlopen_patching(file, mode);
	depth++;
	h = real_dlopen(file, mode);
	if (!--depth && h && nest)
		fdr__plt_nest_pass(&lock, claim_new);
	return h;
}

/* --nest-libcall: the libraries it unloaded are forgotten (plt_nest.c). */
__attribute__((visibility("default"))) int dlclose(void *handle)
{
	static dlclose_fn *real;
	int r, err;

	if (!real)
		real = (dlclose_fn *)dlsym(RTLD_NEXT, "dlclose");
	if (!real)
		return -1;
	r = real(handle);
	if (nest) {
		err = errno;
		pthread_mutex_lock(&lock);
		fdr__plt_nest_forget_gone();
		pthread_mutex_unlock(&lock);
		errno = err;
	}
	return r;
}
