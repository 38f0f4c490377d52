// SPDX-License-Identifier: MIT
/*
 * xray_record_test.c - end to end: an XRay-instrumented program with no
 * tracing code records through the "fdr" mode into a fresh region; the
 * region's bytes must hold exactly its calls, under XRay's function ids.
 *
 * Host: an embedded region.  VM build (-DVM_TEST): /dev/fdr, SKIP when
 * absent.  XRay's id table comes from `llvm-xray-19 extract` run at
 * build time (xray_traced.xray-map), so no LLVM tool is needed at run
 * time; when fdrd and llvm-xray-19 are present, a log is also written and
 * `llvm-xray-19 account` must name the functions.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fdr_log.h>

#include "log_walk.h"
#include "region_run.h"
#include "tap.h"
#include "xray_names.h"

#define TRACED_ARG	"arg:1234abcd"
#define MIDDLE_CALLS	"E:middle E:leaf_add X:leaf_add E:leaf_add X:leaf_add X:middle "
/* What xray_traced.c does, in order. */
static const char expected_calls[] =
	"E:main " MIDDLE_CALLS MIDDLE_CALLS MIDDLE_CALLS
	"A:with_arg " TRACED_ARG " X:with_arg "
	"E:tail_caller T:tail_caller E:leaf_add X:leaf_add "
	"C:checkpoint X:main";

static struct xray_names names;

static char *tool_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", prog_dir(), name);
	return buf;
}

/* Function, argument and event records as one line of text. */
static void describe(const struct walk *w, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < w->n && used < len; i++) {
		const struct rec *r = &w->recs[i];
		static const char kinds[] = "EXTA";
		int n = 0;

		if (r->kind >= REC_FN_BASE)
			n = snprintf(out + used, len - used, "%s%c:%s",
				     used ? " " : "", kinds[r->kind - REC_FN_BASE],
				     xray_name(&names, r->fid));
		else if (r->kind == FDR_MD_CALL_ARGUMENT)
			n = snprintf(out + used, len - used, " arg:%llx",
				     (unsigned long long)r->value);
		else if (r->kind == FDR_MD_CUSTOM_EVENT)
			n = snprintf(out + used, len - used, " C:%.*s",
				     (int)r->payload_len, r->payload);
		if (n > 0)
			used += (size_t)n;
	}
}

static const char *target_name(char *buf, size_t len, const char *what)
{
#ifdef VM_TEST
	(void)what;
	snprintf(buf, len, "%s", FDR_DEFAULT_DEVICE);
#else
	snprintf(buf, len, "embedded:adapters-xray-%s-%d", what, (int)getpid());
#endif
	return buf;
}

static void check_preamble(const struct walk *w, pid_t child)
{
	bool ok = w->n >= 3 && w->recs[0].kind == FDR_MD_NEW_BUFFER &&
		  w->recs[0].value == (uint64_t)child &&
		  w->recs[1].kind == FDR_MD_WALLTIME &&
		  w->recs[2].kind == FDR_MD_NEW_CPU_ID;

	tap_ok(ok, "xray: buffer starts NewBuffer(tid %d), Walltime, NewCPUId",
	       (int)child);
}

static void check_ids_known(const struct walk *w)
{
	size_t unknown = 0;

	for (size_t i = 0; i < w->n; i++)
		if (w->recs[i].kind >= REC_FN_BASE &&
		    !xray_name_known(&names, w->recs[i].fid)) {
			tap_diag("function id %u is not in XRay's map",
				 w->recs[i].fid);
			unknown++;
		}
	tap_ok(unknown == 0, "xray: every function id is XRay's (llvm-xray extract)");
}

static void check_sequence(const struct walk *w)
{
	char got[4096];

	describe(w, got, sizeof(got));
	if (!tap_ok(strcmp(got, expected_calls) == 0,
		    "xray: records are exactly the program's calls, args and event")) {
		tap_diag("expected: %s", expected_calls);
		tap_diag("got:      %s", got);
	}
}

static void check_arg_and_event(const struct walk *w)
{
	long a = walk_find(w, 0, REC_FN(FDR_FN_ENTER_ARG));
	long c = walk_find(w, 0, FDR_MD_CUSTOM_EVENT);
	long t = walk_find(w, 0, REC_FN(FDR_FN_TAIL_EXIT));

	tap_ok(a >= 0 && (size_t)a + 1 < w->n &&
	       strcmp(xray_name(&names, w->recs[a].fid), "with_arg") == 0 &&
	       w->recs[a + 1].kind == FDR_MD_CALL_ARGUMENT &&
	       w->recs[a + 1].value == 0x1234abcd,
	       "xray: xray_log_args(1) gives EnterArg(with_arg) + CallArgument 0x1234abcd");
	tap_ok(c >= 0 && w->recs[c].payload_len == 10 &&
	       memcmp(w->recs[c].payload, "checkpoint", 10) == 0,
	       "xray: __xray_customevent payload recorded byte for byte");
	tap_ok(t >= 0 && strcmp(xray_name(&names, w->recs[t].fid), "tail_caller") == 0,
	       "xray: the tail call leaves tail_caller with a TailExit");
}

/* Counts of leaf_add and middle in an account table whose rows are
 * "<id> <count> ... <function name last>" (llvm-xray's and fdrlog's). */
static void read_account(FILE *p, int *leaf, int *middle)
{
	char line[512];

	*leaf = *middle = -1;
	while (p && fgets(line, sizeof(line), p)) {
		int id, count;
		char *fn;

		line[strcspn(line, "\n")] = '\0';
		fn = strrchr(line, ' ');
		if (sscanf(line, "%d %d", &id, &count) != 2 || !fn)
			continue;
		if (!strcmp(fn + 1, "leaf_add"))
			*leaf = count;
		if (!strcmp(fn + 1, "middle"))
			*middle = count;
	}
}

/* Run an account command over the log in dir; report its counts. */
static void check_account(const char *tool, const char *cmd_fmt,
			  const char *traced, const char *dir)
{
	char cmd[3 * PATH_MAX];
	int leaf, middle;
	FILE *p;

	snprintf(cmd, sizeof(cmd), cmd_fmt, traced, dir);
	p = popen(cmd, "r");
	read_account(p, &leaf, &middle);
	if (p)
		pclose(p);
	if (!tap_ok(leaf == 7 && middle == 3,
		    "xray: %s account of fdrd's log: leaf_add x7, middle x3", tool))
		tap_diag("leaf_add count %d, middle count %d", leaf, middle);
}

/* fdrd writes the finalized region as a log; llvm-xray and fdrlog
 * account it with XRay's map, read from the binary. */
static void check_log_accounts(struct region *r, const char *traced)
{
	char tool[PATH_MAX], dir[] = "/tmp/fdr-adapters-XXXXXX";
	char cmd[2 * PATH_MAX + 256], fmt[PATH_MAX + 64];
	bool have_fdrd, have_llvm, have_fdrlog;

	snprintf(tool, sizeof(tool), "%s/fdrd", tools_dir());
	have_fdrd = access(tool, X_OK) == 0;
	have_llvm = system("command -v llvm-xray-19 >/dev/null 2>&1") == 0;
	snprintf(fmt, sizeof(fmt), "%s/fdrlog account --instr-map %%s %%s/*.xray",
		 tools_dir());
	snprintf(cmd, sizeof(cmd), "%s/fdrlog", tools_dir());
	have_fdrlog = access(cmd, X_OK) == 0;
#ifdef VM_TEST
	have_fdrlog = false;	/* its static build has no --instr-map (libdw) */
#endif
	if (!have_fdrd || !mkdtemp(dir)) {
		tap_skip("no build/bin/fdrd", "xray: fdrd --once writes the region as a log");
		tap_skip("no build/bin/fdrd", "xray: llvm-xray-19 account of fdrd's log");
		tap_skip("no build/bin/fdrd", "xray: fdrlog account of fdrd's log");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s --once -f -g 0 --target %s --output-dir %s >&2",
		 tool, r->target, dir);
	if (!tap_ok(system(cmd) == 0, "xray: fdrd --once writes the region as a log")) {
		tap_ok(false, "xray: llvm-xray-19 account of fdrd's log");
		tap_ok(false, "xray: fdrlog account of fdrd's log");
		return;
	}
	if (have_llvm)
		check_account("llvm-xray-19", "llvm-xray-19 account -instr_map=%s %s/*.xray",
			      traced, dir);
	else
		tap_skip("no llvm-xray-19", "xray: llvm-xray-19 account of fdrd's log");
	if (have_fdrlog)
		check_account("fdrlog", fmt, traced, dir);
	else
		tap_skip("no fdrlog with --instr-map", "xray: fdrlog account of fdrd's log");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("could not remove %s", dir);
}

/*
 * The records xray_traced leaves with FDR_OPTIONS opts, through the
 * mode's own trampolines or (xray_sleds) compiler-rt's.  false: it did
 * not run cleanly or the region could not be read.
 */
static bool traced_records(const char *what, const char *opts, bool xray_sleds,
			   char *got, size_t len)
{
	char traced[PATH_MAX], target[128], env_target[160], env_opts[128];
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_sleds[] = "FDR_XRAY_SLEDS=xray";
	char *env[] = { env_xray, env_opts, env_target, xray_sleds ? env_sleds : NULL,
			NULL };
	const struct fdr_control *c;
	bool ok = false;
	struct region r;
	struct walk w;
	pid_t pid;
	int st;

	snprintf(env_opts, sizeof(env_opts), "FDR_OPTIONS=%s", opts);
	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), what));
	got[0] = '\0';
	if (region_start(&r, target)) {
		tap_diag("could not create region %s", target);
		return false;
	}
	st = run_program(argv, env, &pid, false);
	if (region_stop_and_map(&r, &c) == 0 && walk_region(&w, c) == 0) {
		describe(&w, got, len);
		walk_free(&w);
		ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	region_end(&r);
	return ok;
}

/* Through compiler-rt's trampolines instead of the mode's own: the same
 * records. */
static void test_xray_trampolines(void)
{
	char got[4096];
	bool ran = traced_records("xtr", "func_duration_threshold_us=0", true, got,
				  sizeof(got));

	if (!tap_ok(ran && strcmp(got, expected_calls) == 0,
		    "xray: FDR_XRAY_SLEDS=xray (compiler-rt's trampolines): the same records"))
		tap_diag("got: %s", got);
}

/*
 * A threshold of 1 s rewinds every call of xray_traced but the one with
 * an argument (never undoable) and the tail-call chain's callee: the
 * mode's trampolines, whose common case is assembly, leave the records
 * compiler-rt's trampolines (C handlers only) leave, and no middle call.
 */
static void test_trampoline_rewind(void)
{
	char ours[4096], theirs[4096];
	bool ran = traced_records("rw1", "func_duration_threshold_us=1000000", false,
				  ours, sizeof(ours)) &&
		   traced_records("rw2", "func_duration_threshold_us=1000000", true,
				  theirs, sizeof(theirs));

	if (!tap_ok(ran && !strcmp(ours, theirs) && !strstr(ours, "middle") &&
			    strstr(ours, "A:with_arg"),
		    "xray: threshold 1 s: the mode's trampolines rewind what compiler-rt's do")) {
		tap_diag("ours:   %s", ours);
		tap_diag("theirs: %s", theirs);
	}
}

/*
 * Erasing a short call moves the writer's last TSC back to the record
 * before it, so the next record's delta counts from there: across 1000
 * middle() calls, all erased (1 s threshold), the timestamps of the
 * with_arg() Exit before them and the EnterArg after them must lie at
 * least as far apart as the TSC values xray_traced read between them.
 */
static void test_rewind_keeps_time(void)
{
	char traced[PATH_MAX], target[128], env_target[160], arg[] = "span", out[256];
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), arg, NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=1000000";
	char *env[] = { env_xray, env_opts, env_target, NULL };
	unsigned long long from = 0, to = 0;
	uint64_t exit_tsc = 0, enter_tsc = 0;
	const struct fdr_control *c;
	size_t middles = 0;
	struct region r;
	struct walk w;
	bool read = false;
	pid_t pid;
	int st;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "span"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st = run_capture(argv, env, &pid, out, sizeof(out));
	if (region_stop_and_map(&r, &c) == 0 && walk_region(&w, c) == 0) {
		long x = walk_find(&w, 0, REC_FN(FDR_FN_EXIT));
		long a = x < 0 ? -1 : walk_find(&w, (size_t)x, REC_FN(FDR_FN_ENTER_ARG));

		for (size_t i = 0; i < w.n; i++)
			if (w.recs[i].kind >= REC_FN_BASE &&
			    !strcmp(xray_name(&names, w.recs[i].fid), "middle"))
				middles++;
		if (x >= 0 && a >= 0) {
			exit_tsc = w.recs[x].tsc;
			enter_tsc = w.recs[a].tsc;
			read = true;
		}
		walk_free(&w);
	}
	region_end(&r);
	if (sscanf(out, "%llu %llu", &from, &to) != 2)
		from = to = 0;
	if (!tap_ok(st == 0 && read && middles == 0 && to > from &&
			    enter_tsc - exit_tsc >= to - from,
		    "xray: 1000 erased calls: the records around them span the TSC the program read (%llu >= %llu cycles)",
		    (unsigned long long)(enter_tsc - exit_tsc), to - from))
		tap_diag("status %d, output '%s', %zu middle records", st, out, middles);
}

/* Arguments and results in every register class (GPRs, XMM, x87,
 * rax:rdx pairs, varargs' %al, tail calls) come out of the sleds intact:
 * the program prints the same with and without recording, through
 * either trampoline. */
static void test_abi(void)
{
	char traced[PATH_MAX], target[128], env_target[160], arg[] = "abi";
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), arg, NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char env_sleds[] = "FDR_XRAY_SLEDS=xray";
	char *plain_env[] = { NULL };
	char *ours_env[] = { env_xray, env_opts, env_target, NULL };
	char *xray_env[] = { env_xray, env_opts, env_target, env_sleds, NULL };
	char plain[512], ours[512], theirs[512];
	struct region r;
	pid_t pid;
	int st0, st1, st2;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "abi"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st0 = run_capture(argv, plain_env, &pid, plain, sizeof(plain));
	st1 = run_capture(argv, ours_env, &pid, ours, sizeof(ours));
	st2 = run_capture(argv, xray_env, &pid, theirs, sizeof(theirs));
	if (!tap_ok(st0 == 0 && st1 == 0 && st2 == 0 && plain[0] &&
		    !strcmp(plain, ours) && !strcmp(plain, theirs),
		    "xray: every argument and result register survives the sleds"))
		tap_diag("untraced: %s ours: %s xray's: %s", plain, ours, theirs);
	region_end(&r);
}

/* After __xray_log_finalize the sleds reach XRay's handler path again:
 * a handler the program installs sees the later calls, the region none. */
static void test_handover(void)
{
	char traced[PATH_MAX], target[128], env_target[160], arg[] = "handover";
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), arg, NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char *env[] = { env_xray, env_opts, env_target, NULL };
	const struct fdr_control *c;
	int middles = 0, handled = -1;
	long sum;
	char out[128];
	struct region r;
	struct walk w;
	pid_t pid;
	int st;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "hand"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st = run_capture(argv, env, &pid, out, sizeof(out));
	if (region_stop_and_map(&r, &c) == 0 && walk_region(&w, c) == 0) {
		for (size_t i = 0; i < w.n; i++)
			middles += w.recs[i].kind == REC_FN(FDR_FN_ENTER) &&
				   !strcmp(xray_name(&names, w.recs[i].fid), "middle");
		walk_free(&w);
	}
	if (!tap_ok(st == 0 && sscanf(out, "%ld %d", &sum, &handled) == 2 &&
		    handled == 6 && middles == 1,
		    "xray: after finalize the program's own handler sees middle's 6 events, the region only the call before"))
		tap_diag("status %d, output '%s', middle entries recorded %d", st, out, middles);
	region_end(&r);
}

static void test_autostart(void)
{
	char traced[PATH_MAX], target[128], env_target[160];
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char *env[] = { env_xray, env_opts, env_target, NULL };
	const struct fdr_control *c;
	struct region r;
	struct walk w;
	pid_t pid;
	int st;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "auto"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st = run_program(argv, env, &pid, false);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "xray: instrumented program runs under xray_mode=fdr");
	if (region_stop_and_map(&r, &c) || walk_region(&w, c)) {
		tap_ok(false, "xray: region decodes: %s", w.error);
		region_end(&r);
		return;
	}
	tap_ok(w.nbuffers == 1 && w.owner_pid[0] == pid,
	       "xray: one buffer with data, owned by the program (pid %d)", (int)pid);
	check_preamble(&w, pid);
	check_ids_known(&w);
	check_sequence(&w);
	check_arg_and_event(&w);
	walk_free(&w);
	check_log_accounts(&r, traced);
	region_end(&r);
}

/* Two threads: a buffer each, under their own tids, every call whole. */
static void test_threads(void)
{
	char traced[PATH_MAX], target[128], env_target[160], arg[] = "threads";
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), arg, NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char *env[] = { env_xray, env_opts, env_target, NULL };
	const struct fdr_control *c;
	int64_t tids[8], ntids = 0, middle[4] = { 0 }, leaf[4] = { 0 };
	struct region r;
	struct walk w;
	pid_t pid;
	int st;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "thr"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st = run_program(argv, env, &pid, false);
	if (region_stop_and_map(&r, &c) || walk_region(&w, c)) {
		tap_ok(false, "xray: threads: region decodes: %s", w.error);
		region_end(&r);
		return;
	}
	for (size_t i = 0; i < w.n; i++) {
		const struct rec *rec = &w.recs[i];
		const char *name = xray_name(&names, rec->fid);

		if (rec->kind == FDR_MD_NEW_BUFFER && rec->value != (uint64_t)pid &&
		    ntids < 8)
			tids[ntids++] = (int64_t)rec->value;
		if (rec->kind < REC_FN_BASE || rec->kind - REC_FN_BASE > 1)
			continue;
		if (!strcmp(name, "middle"))
			middle[rec->kind - REC_FN_BASE]++;
		if (!strcmp(name, "leaf_add"))
			leaf[rec->kind - REC_FN_BASE]++;
	}
	if (!tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && ntids == 2 &&
		    tids[0] != tids[1] && middle[0] == 200 && middle[1] == 200 &&
		    leaf[0] == 400 && leaf[1] == 400,
		    "xray: two threads: a buffer each under its own tid; 200 middle and 400 leaf_add calls, entries and exits"))
		tap_diag("worker buffers %lld, middle %lld/%lld, leaf_add %lld/%lld",
			 (long long)ntids, (long long)middle[0], (long long)middle[1],
			 (long long)leaf[0], (long long)leaf[1]);
	walk_free(&w);
	region_end(&r);
}

/* A program killed by a signal: what it recorded up to the crash is in
 * the region (in the VM, the kernel finalized it because of the crash). */
static void test_crash(void)
{
	static const char expected[] =
		"E:main " MIDDLE_CALLS "E:crash_here";
	char traced[PATH_MAX], target[128], env_target[160], arg[] = "crash";
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), arg, NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char *env[] = { env_xray, env_opts, env_target, NULL };
	const struct fdr_control *c;
	char got[1024];
	struct region r;
	struct walk w;
	uint32_t reason = 0;
	pid_t pid;
	int st;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "crash"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st = run_program(argv, env, &pid, false);
	if (fdr_ctl_map(r.ctl, &c, &(size_t){ 0 }) == 0)
		reason = c->finalize_reason;	/* before our own finalize */
	if (region_stop_and_map(&r, &c) || walk_region(&w, c)) {
		tap_ok(false, "xray: crash: region decodes: %s", w.error);
		region_end(&r);
		return;
	}
	describe(&w, got, sizeof(got));
	if (!tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT &&
		    strcmp(got, expected) == 0,
		    "xray: a program killed by SIGABRT leaves its calls up to the crash in the region"))
		tap_diag("got: %s", got);
#ifdef VM_TEST
	tap_ok(reason == FDR_FINALIZE_CRASH,
	       "xray: the kernel finalized the region because of the crash");
#else
	(void)reason;
	tap_skip("the embedded backend has no kernel to notice crashes",
		 "xray: the kernel finalized the region because of the crash");
#endif
	walk_free(&w);
	region_end(&r);
}

/* Without xray_mode=fdr the mode is registered but never started. */
static void test_not_selected(void)
{
	char traced[PATH_MAX], target[128], env_target[160];
	char *argv[] = { tool_path(traced, sizeof(traced), "xray_traced"), NULL };
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true";
	char *env[] = { env_xray, env_target, NULL };
	const struct fdr_control *c;
	struct region r;
	struct walk w;
	pid_t pid;
	int st;

	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s",
		 target_name(target, sizeof(target), "off"));
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	st = run_program(argv, env, &pid, false);
	if (region_stop_and_map(&r, &c) || walk_region(&w, c))
		w.nbuffers = -1;
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && w.nbuffers == 0,
	       "xray: without xray_mode=fdr nothing is recorded");
	walk_free(&w);
	region_end(&r);
}

/* Run xray_explicit with a config string; returns its exit code and
 * leaves its stderr in err. */
static int run_explicit2(const char *config, const char *config2, char *err,
			 size_t errlen, pid_t *pid)
{
	char prog[PATH_MAX], cfg[256], cfg2[256];
	char errfile[] = "/tmp/fdr-adapters-err-XXXXXX";
	char *argv[] = { tool_path(prog, sizeof(prog), "xray_explicit"), cfg,
			 config2 ? cfg2 : NULL, NULL };
	/* the config must win over the environment */
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char *env[] = { env_opts, NULL };
	int fd = mkstemp(errfile), saved = dup(STDERR_FILENO), st;
	ssize_t n;

	snprintf(cfg, sizeof(cfg), "%s", config);
	snprintf(cfg2, sizeof(cfg2), "%s", config2 ? config2 : "");
	dup2(fd, STDERR_FILENO);
	st = run_program(argv, env, pid, false);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, err, errlen - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(errfile);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run_explicit(const char *config, char *err, size_t errlen,
			pid_t *pid)
{
	return run_explicit2(config, NULL, err, errlen, pid);
}

/* Calls of work() the explicit program left in a region, or -1. */
static int explicit_enters(const char *config, int *code, pid_t *finalizer,
			   char *err, size_t errlen)
{
	char target[128], cfg[256];
	const struct fdr_control *c;
	struct region r;
	struct walk w;
	int enters = -1;
	pid_t pid;

	*code = -1;
	*finalizer = 0;
	target_name(target, sizeof(target), "cfg");
	if (region_start(&r, target))
		return -1;
	snprintf(cfg, sizeof(cfg), "%s:target='%s'", config, target);
	*code = run_explicit(cfg, err, errlen, &pid);
	*finalizer = 0;
	if (region_stop_and_map(&r, &c) == 0 && walk_region(&w, c) == 0) {
		enters = 0;
		for (size_t i = 0; i < w.n; i++)
			enters += w.recs[i].kind == REC_FN(FDR_FN_ENTER);
		*finalizer = c->finalize_pid == pid ? pid : 0;
		walk_free(&w);
	}
	region_end(&r);
	return enters;
}

/* init, finalize, flush, init again with another target and threshold */
static void test_second_init(void)
{
	char target[128], config[256], err[1024];
	struct region r;
	pid_t pid;
	int code;

	target_name(target, sizeof(target), "re");
	if (region_start(&r, target)) {
		tap_ok(false, "xray: create region %s", target);
		return;
	}
	snprintf(config, sizeof(config), "func_duration_threshold_us=0:target='%s'",
		 target);
	code = run_explicit2(config,
			     "target='embedded:elsewhere':func_duration_threshold_us=9",
			     err, sizeof(err), &pid);
	if (!tap_ok(code == 0 && strstr(err, "target='embedded:elsewhere' ignored") &&
		    strstr(err, "func_duration_threshold_us=9 ignored"),
		    "xray: a second init keeps the first target and threshold, and says so"))
		tap_diag("exit %d, stderr: %s", code, err);
	region_end(&r);
}

static void test_explicit(void)
{
	char err[1024];
	pid_t finalizer;
	int code, enters;

	enters = explicit_enters("func_duration_threshold_us=0", &code,
				 &finalizer, err, sizeof(err));
	if (!tap_ok(code == 0 && enters == 4 && finalizer,
		    "xray: init_mode(\"fdr\", \"func_duration_threshold_us=0:target='...'\") records 4 calls; its finalize finalizes the region"))
		tap_diag("exit %d, enters %d, finalized by the program: %s, stderr: %s",
			 code, enters, finalizer ? "yes" : "no", err);
	/* the config's threshold reaches libfdr: every short call rewound */
	enters = explicit_enters("func_duration_threshold_us=1000000", &code,
				 &finalizer, err, sizeof(err));
	if (!tap_ok(code == 0 && enters == 0,
		    "xray: the config's func_duration_threshold_us=1000000 beats $FDR_OPTIONS' 0: every short call rewound"))
		tap_diag("exit %d, enters %d, stderr: %s", code, enters, err);

	code = run_explicit("func_duration_threshold_us=abc", err, sizeof(err),
			    &finalizer);
	tap_ok(code == 4 && strstr(err, "func_duration_threshold_us='abc'"),
	       "xray: a bad threshold fails init and names the value");
	code = run_explicit("colour=blue", err, sizeof(err), &finalizer);
	tap_ok(code == 4 && strstr(err, "unknown key 'colour'"),
	       "xray: an unknown key fails init and names the key");
	test_second_init();
}

int main(void)
{
	char map[PATH_MAX];

#ifdef VM_TEST
	if (access(FDR_DEFAULT_DEVICE, F_OK)) {
		tap_plan(1);
		tap_skip("no /dev/fdr (fdr.ko not loaded)", "xray adapter tests");
		return 0;
	}
#endif
	tap_plan(25);
	snprintf(map, sizeof(map), "%s/xray_traced.xray-map", prog_dir());
	if (xray_names_load(&names, map))
		tap_diag("cannot read %s: ids will not be named", map);
	test_autostart();
	test_xray_trampolines();
	test_trampoline_rewind();
	test_rewind_keeps_time();
	test_abi();
	test_handover();
	test_threads();
	test_crash();
	test_not_selected();
	test_explicit();
	return tap_done();
}
