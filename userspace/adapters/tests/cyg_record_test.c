// SPDX-License-Identifier: MIT
/*
 * cyg_record_test.c - end to end for the -finstrument-functions hooks: a
 * gcc-instrumented program (and an instrumented shared library) records
 * into a fresh region; its sym-map must name every id with the address
 * `nm` gives, ids must be the same in a second run (ASLR moves the code),
 * a fork child must get a complete map of its own, and the region must
 * hold exactly the program's calls.
 *
 * Host: an embedded region.  VM build (-DVM_TEST): /dev/fdr, SKIP when
 * absent; the static program has no shared library.  `nm` listings are
 * made at build time (*.nm), so no binutils are needed at run time.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fdr_log.h>

#include "log_walk.h"
#include "region_run.h"
#include "sym_map_read.h"
#include "tap.h"

#define DIRECT_LIMIT	(1u << 27)
#define MIDDLE	"E:middle E:leaf_add X:leaf_add E:local_helper X:local_helper X:middle "
/* from libcygtraced.so on the host, a static stand-in in the VM build */
#define LIB_CALLS	"E:lib_func X:lib_func "
static const char expected_calls[] =
	"E:main " MIDDLE MIDDLE MIDDLE LIB_CALLS "X:main";
static const char expected_child[] = MIDDLE "E:child_only X:child_only";

static char symdir[] = "/tmp/fdr-adapters-syms-XXXXXX";

struct run {
	pid_t pid;
	int status;
	struct sym_list map;
	struct walk walk;
	bool walked;
	char err[1024];
	char map_path[PATH_MAX];
	bool want_account;	/* also flush with fdrd, account with fdrlog */
	int account;		/* -1: tools missing; else functions matched */
};

static const char *target_name(char *buf, size_t len, const char *what)
{
#ifdef VM_TEST
	(void)what;
	snprintf(buf, len, "%s", FDR_DEFAULT_DEVICE);
#else
	snprintf(buf, len, "embedded:adapters-cyg-%s-%d", what, (int)getpid());
#endif
	return buf;
}

static const char *traced_path(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/cyg_traced", prog_dir());
	return path;
}

/* The finalized region as a log (fdrd), accounted by fdrlog with the
 * sym-map: how many of the expected (function, count) pairs it prints. */
static int account_with_fdrlog(const struct region *reg, const char *map)
{
	static const struct { const char *fn; int count; } want[] = {
		{ "middle", 3 }, { "leaf_add", 3 }, { "local_helper", 3 },
		{ "main", 1 },
	};
	char bin[PATH_MAX], cmd[4 * PATH_MAX], line[512];
	int found = 0;
	FILE *p;

	snprintf(bin, sizeof(bin), "%s", tools_dir());
	snprintf(cmd, sizeof(cmd), "%s/fdrd", bin);
	if (access(cmd, X_OK))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/fdrlog", bin);
	if (access(cmd, X_OK))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "d=$(mktemp -d) && %s/fdrd --once -f -g 0 --target %s --output-dir $d >&2 && "
		 "%s/fdrlog account --no-sched --sym-map %s $d/*.xray; rm -rf $d",
		 bin, reg->target, bin, map);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char name[128];
		unsigned fid;
		int count;

		/* "<fid> <count> <min> <med> <90p> <99p> <max> <sum> <function>" */
		if (sscanf(line, "%u %d %*s %*s %*s %*s %*s %*s %127s", &fid, &count,
			   name) != 3)
			continue;
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			found += !strcmp(name, want[i].fn) && count == want[i].count;
	}
	if (p)
		pclose(p);
	return found;
}

/* Run cyg_traced [arg] against a fresh region; keep map, records, stderr. */
static int run_traced(struct run *r, const char *arg, const char *dir)
{
	char target[128], env_target[160], env_dir[PATH_MAX + 16], map[PATH_MAX];
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char *argv[] = { (char *)traced_path(), (char *)arg, NULL };
	char *env[] = { env_target, env_dir, env_opts, NULL };
	char errfile[] = "/tmp/fdr-adapters-err-XXXXXX";
	const struct fdr_control *c;
	struct region reg;
	int fd, saved;
	ssize_t n;

	bool want_account = r->want_account;

	memset(r, 0, sizeof(*r));
	r->want_account = want_account;
	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), arg ? arg : "plain"));
	snprintf(env_dir, sizeof(env_dir), "FDR_SYMDIR=%s", dir);
	if (region_start(&reg, target))
		return -1;
	fd = mkstemp(errfile);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	r->status = run_program(argv, env, &r->pid, false);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, r->err, sizeof(r->err) - 1, 0);
	r->err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(errfile);
	snprintf(map, sizeof(map), "%s/fdr-syms.%d.map", dir, (int)r->pid);
	snprintf(r->map_path, sizeof(r->map_path), "%s", map);
	sym_map_read(&r->map, map);
	if (region_stop_and_map(&reg, &c) == 0)
		r->walked = walk_region(&r->walk, c) == 0;
	if (r->want_account)
		r->account = account_with_fdrlog(&reg, map);
	region_end(&reg);
	return 0;
}

static bool exited_ok(const struct run *r)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

/* Function records of buffer b as "E:name X:name ...". */
static void describe(const struct walk *w, const struct sym_list *map, int b,
		     char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < w->n && used < len; i++) {
		const struct rec *rec = &w->recs[i];
		const struct sym_entry *s;
		char unknown[16];
		int n;

		if (rec->buffer != b || rec->kind < REC_FN_BASE)
			continue;
		s = sym_by_fid(map, rec->fid);
		snprintf(unknown, sizeof(unknown), "#%u", rec->fid);
		n = snprintf(out + used, len - used, "%s%c:%s", used ? " " : "",
			     "EXTA"[rec->kind - REC_FN_BASE], s ? s->symbol : unknown);
		if (n > 0)
			used += (size_t)n;
	}
}

static bool check_calls(const struct run *r, int b, const char *expected,
			const char *what)
{
	char got[2048];

	describe(&r->walk, &r->map, b, got, sizeof(got));
	if (tap_ok(r->walked && strcmp(got, expected) == 0, "cyg: %s", what))
		return true;
	tap_diag("expected: %s", expected);
	tap_diag("got:      %s", got);
	return false;
}

/* Every map line against the nm listing of its module. */
static void check_map_vs_nm(const struct sym_list *map)
{
	char path[PATH_MAX + 32];
	struct sym_list exe_nm, lib_nm;
	int matched = 0, direct = 0, exe_funcs = 0;

	snprintf(path, sizeof(path), "%s.nm", traced_path());
	nm_read(&exe_nm, path);
	snprintf(path, sizeof(path), "%s/libcygtraced.so.nm", prog_dir());
	nm_read(&lib_nm, path);
	for (int i = 0; i < map->n; i++) {
		const struct sym_entry *e = &map->e[i];
		bool in_lib = strstr(e->module, "/libcygtraced.so") != NULL;
		const struct sym_entry *n = sym_by_name(in_lib ? &lib_nm : &exe_nm,
							e->symbol);

		if (n && n->offset == e->offset)
			matched++;
		else
			tap_diag("%s at 0x%llx in %s: nm says %s", e->symbol,
				 (unsigned long long)e->offset, e->module,
				 n ? "another address" : "no such function");
		if (!in_lib) {
			exe_funcs++;
			direct += e->fid == e->offset && e->fid < DIRECT_LIMIT;
		}
	}
	tap_ok(map->n >= 5 && matched == map->n,
	       "cyg: all %d sym-map entries have nm's address for their symbol", map->n);
	tap_ok(exe_funcs > 0 && direct == exe_funcs,
	       "cyg: executable functions' ids are their link-time addresses");
	sym_list_free(&exe_nm);
	sym_list_free(&lib_nm);
}

static void check_lib_entry(const struct sym_list *map)
{
#ifdef VM_TEST
	(void)map;
	tap_skip("static VM build has no shared library",
		 "cyg: shared-library function gets a hashed id and the library's path");
#else
	const struct sym_entry *e = sym_by_name(map, "lib_func");
	size_t len = e ? strlen(e->module) : 0;

	tap_ok(e && e->fid >= DIRECT_LIMIT && e->fid < (1u << 28) &&
	       len > 16 && strcmp(e->module + len - 16, "/libcygtraced.so") == 0,
	       "cyg: shared-library function gets a hashed id and the library's path");
#endif
}

static void test_plain(void)
{
	struct run r1 = { .want_account = true }, r2 = { .want_account = false };
	int same = 0;

	if (run_traced(&r1, NULL, symdir)) {
		tap_ok(false, "cyg: create a region");
		return;
	}
	if (!tap_ok(exited_ok(&r1), "cyg: instrumented program runs"))
		tap_diag("stderr: %s", r1.err);
	tap_ok(r1.map.has_header && r1.map.bad_lines == 0 && r1.map.n > 0,
	       "cyg: sym-map %s/fdr-syms.%d.map: header, then <fid> <symbol> <module> <0xoffset> lines",
	       symdir, (int)r1.pid);
	check_map_vs_nm(&r1.map);
	tap_ok(sym_by_name(&r1.map, "local_helper") != NULL,
	       "cyg: a static function is named from the file's .symtab");
	check_lib_entry(&r1.map);
	tap_ok(r1.walked && r1.walk.nbuffers == 1 && r1.walk.owner_pid[0] == r1.pid &&
	       r1.walk.n >= 3 && r1.walk.recs[0].kind == FDR_MD_NEW_BUFFER &&
	       r1.walk.recs[0].value == (uint64_t)r1.pid &&
	       r1.walk.recs[1].kind == FDR_MD_WALLTIME &&
	       r1.walk.recs[2].kind == FDR_MD_NEW_CPU_ID,
	       "cyg: one buffer of the program, NewBuffer(tid)/Walltime/NewCPUId first");
	check_calls(&r1, 0, expected_calls, "records are exactly the program's calls");
	if (r1.account < 0)
		tap_skip("no build/bin/fdrd or build/bin/fdrlog",
			 "cyg: fdrlog account --sym-map names fdrd's log");
	else
		tap_ok(r1.account == 4,
		       "cyg: fdrlog account --sym-map names fdrd's log (middle, leaf_add, local_helper x3, main x1)");

	run_traced(&r2, NULL, symdir);
	for (int i = 0; i < r1.map.n; i++) {
		const struct sym_entry *e = sym_by_name(&r2.map, r1.map.e[i].symbol);

		same += e && e->fid == r1.map.e[i].fid;
	}
	tap_ok(exited_ok(&r2) && r2.map.n == r1.map.n && same == r1.map.n,
	       "cyg: a second run (new load addresses) gives every function the same id");
	walk_free(&r1.walk);
	walk_free(&r2.walk);
	sym_list_free(&r1.map);
	sym_list_free(&r2.map);
}

static void test_fork(void)
{
	struct run r = { .want_account = false };
	char path[PATH_MAX];
	struct sym_list child_map;
	int child_buf = -1;
	pid_t child = 0;

	if (run_traced(&r, "fork", symdir)) {
		tap_ok(false, "cyg: create a region");
		return;
	}
	for (int b = 0; r.walked && b < r.walk.nbuffers; b++)
		if (r.walk.owner_pid[b] != r.pid) {
			child_buf = b;
			child = r.walk.owner_pid[b];
		}
	tap_ok(exited_ok(&r) && r.walked && r.walk.nbuffers == 2 && child_buf >= 0,
	       "cyg: a fork child records into a buffer of its own");
	snprintf(path, sizeof(path), "%s/fdr-syms.%d.map", symdir, (int)child);
	sym_map_read(&child_map, path);
	tap_ok(child > 0 && sym_by_name(&child_map, "main") &&
	       sym_by_name(&child_map, "child_only") &&
	       !sym_by_name(&r.map, "child_only"),
	       "cyg: the child's own sym-map has the parent's functions and its new one");
	sym_list_free(&r.map);
	r.map = child_map;	/* name the child's records with its own map */
	check_calls(&r, child_buf < 0 ? 0 : child_buf, expected_child,
		    "the child's buffer holds exactly the child's calls");
	walk_free(&r.walk);
	sym_list_free(&r.map);
}

/* Two threads meet the same 32 functions for the first time at once:
 * each function is named once, and each thread's buffer holds its 32
 * calls under the ids the map gives. */
static void test_race(void)
{
	struct run r = { .want_account = false };
	int dup = 0, unnamed = 0, worker_bufs = 0, whole = 0;

	if (run_traced(&r, "race", symdir)) {
		tap_ok(false, "cyg: create a region");
		return;
	}
	for (int i = 0; i < r.map.n; i++)
		for (int j = i + 1; j < r.map.n; j++)
			dup += r.map.e[i].fid == r.map.e[j].fid ||
			       !strcmp(r.map.e[i].symbol, r.map.e[j].symbol);
	for (int b = 0; r.walked && b < r.walk.nbuffers; b++) {
		int enters = 0, exits = 0;

		for (size_t i = 0; i < r.walk.n; i++) {
			const struct rec *rec = &r.walk.recs[i];
			const struct sym_entry *e;

			if (rec->buffer != b || rec->kind < REC_FN_BASE)
				continue;
			e = sym_by_fid(&r.map, rec->fid);
			unnamed += !e;
			if (!e || strncmp(e->symbol, "race_", 5))
				continue;
			enters += rec->kind == REC_FN(FDR_FN_ENTER);
			exits += rec->kind == REC_FN(FDR_FN_EXIT);
		}
		worker_bufs += enters > 0;
		whole += enters == 32 && exits == 32;
	}
	if (!tap_ok(exited_ok(&r) && dup == 0 && unnamed == 0 &&
		    worker_bufs == 2 && whole == 2,
		    "cyg: two threads meeting 32 functions at once: each named once, 32 calls in each thread's buffer"))
		tap_diag("duplicates %d, unnamed records %d, buffers with race_ calls %d, whole %d",
			 dup, unnamed, worker_bufs, whole);
	walk_free(&r.walk);
	sym_list_free(&r.map);
}

/* Killed by a signal: the calls up to the crash are in the region, and
 * the sym-map on disk names every one of them. */
static void test_crash(void)
{
	static const char expected[] = "E:main " MIDDLE "E:crash_here";
	struct run r = { .want_account = false };

	if (run_traced(&r, "crash", symdir)) {
		tap_ok(false, "cyg: create a region");
		return;
	}
	tap_ok(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT,
	       "cyg: the crash program dies from SIGABRT");
	check_calls(&r, 0, expected,
		    "its calls up to the crash are in the region, named by the sym-map it left");
	walk_free(&r.walk);
	sym_list_free(&r.map);
}

/* No writable map directory: still records, and says where it tried. */
static void test_bad_symdir(void)
{
	struct run r = { .want_account = false };
	int enters = 0;

	if (run_traced(&r, NULL, "/nonexistent/fdr-syms")) {
		tap_ok(false, "cyg: create a region");
		return;
	}
	for (size_t i = 0; r.walked && i < r.walk.n; i++)
		enters += r.walk.recs[i].kind == REC_FN(FDR_FN_ENTER);
	if (!tap_ok(exited_ok(&r) && enters > 0 &&
		    strstr(r.err, "/nonexistent/fdr-syms/fdr-syms.") &&
		    strstr(r.err, "FDR_SYMDIR"),
		    "cyg: unwritable FDR_SYMDIR: recording goes on, stderr names the path and the variable"))
		tap_diag("exit status %d, enters %d, stderr: %s", r.status, enters, r.err);
	walk_free(&r.walk);
}

int main(void)
{
	char cmd[PATH_MAX + 16];

#ifdef VM_TEST
	if (access(FDR_DEFAULT_DEVICE, F_OK)) {
		tap_plan(1);
		tap_skip("no /dev/fdr (fdr.ko not loaded)", "cyg adapter tests");
		return 0;
	}
#endif
	tap_plan(17);
	if (!mkdtemp(symdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_plain();
	test_fork();
	test_race();
	test_crash();
	test_bad_symdir();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", symdir);
	if (system(cmd))
		tap_diag("could not remove %s", symdir);
	return tap_done();
}
