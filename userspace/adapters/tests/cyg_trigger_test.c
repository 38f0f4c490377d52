// SPDX-License-Identifier: MIT
/*
 * cyg_trigger_test.c - the latency trigger through the -finstrument-
 * functions hooks: cyg_trigger_traced makes 10,000 calls of ~10 us and
 * one of 21 ms in the middle, in a ring far too small for the run, under
 * a 10 ms trigger (by the slow function's id, from nm, and for any
 * function; threshold 0 and the default 5 us).  The region must be
 * FINALIZED, reason TRIGGER, naming slow_call, its duration, the
 * program's pid and thread, and the buffers must end with slow_call's
 * Enter and Exit, after fast calls, with nothing after.  For any
 * function, a fast call preempted past 10 ms on a busy host fires the
 * trigger as rightly: then the same must hold of that call.
 * Host only (embedded regions).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fdr_log.h>

#include "log_walk.h"
#include "region_run.h"
#include "sym_map_read.h"
#include "tap.h"
#include "xray_names.h"

#define MS	1000000ull

static uint32_t slow_fid, fast_fid;
static bool xray;	/* the XRay build of the program, else the cyg one */
/* `fdrctl status` of the first finalized region, and what it must say */
static char status_text[4096], status_want[2][160];
static int status_rc = -1;	/* -1: fdrctl not built */

static void fdrctl_status(const char *target, const struct fdr_status *st)
{
	char cmd[PATH_MAX + 256];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "%s/fdrctl", tools_dir());
	if (status_rc != -1 || access(cmd, X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "%s/fdrctl --target %s status", tools_dir(),
		 target);
	p = popen(cmd, "r");
	if (!p)
		return;
	n = fread(status_text, 1, sizeof(status_text) - 1, p);
	status_text[n] = 0;
	status_rc = pclose(p);
	snprintf(status_want[0], sizeof(status_want[0]),
		 "finalized by:      trigger: function #%d lasted ", st->finalize_fid);
	snprintf(status_want[1], sizeof(status_want[1]), "(pid %d, tid %d)",
		 st->finalize_pid, st->finalize_tid);
}

static bool run_one(bool by_fid, const char *opts)
{
	char prog[PATH_MAX], target[128], env_target[160], env_opts[96];
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char *argv[] = { prog, NULL };
	char *env[] = { env_target, env_opts, env_xray, NULL };
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 8192,
				.buffers_per_cpu = 2, .trigger_ns = 10 * MS,
				.trigger_fid = by_fid ? (int32_t)slow_fid : 0 };
	const struct fdr_control *c;
	struct fdr_status st;
	struct region reg;
	struct walk w = { 0 };
	uint32_t fired;
	long last = -1, prev = -1;
	size_t fast_exits = 0;
	bool ok = true;
	pid_t pid;
	int status;

	snprintf(prog, sizeof(prog), "%s/%s_trigger_traced", prog_dir(),
		 xray ? "xray" : "cyg");
	if (!xray)
		env[2] = NULL;
	snprintf(target, sizeof(target), "embedded:adapters-cygtrig-%d",
		 (int)getpid());
	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s", target);
	snprintf(env_opts, sizeof(env_opts), "FDR_OPTIONS=%s", opts);
	if (region_start_cfg(&reg, target, &cfg))
		return false;
	status = run_program(argv, env, &pid, false);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "traced program: status %d",
	      status);
	CHECK(fdr_ctl_status(reg.ctl, &st) == 0, "status");
	CHECK(st.state == FDR_STATE_FINALIZED &&
	      st.finalize_reason == FDR_FINALIZE_TRIGGER,
	      "finalized by the trigger: %s reason %u", fdr_state_name(st.state),
	      st.finalize_reason);
	/* For any function, a 10 us call preempted for 10 ms on a busy host
	 * fires the trigger as rightly as the slow call does: what must hold
	 * is that the call that fired lasted the trigger's duration, and
	 * that the log ends with it. */
	fired = (uint32_t)st.finalize_fid;
	if (!by_fid && fired == fast_fid)
		tap_diag("a 10 us call was preempted past 10 ms and fired the trigger "
			 "(a busy host): checked on that call");
	CHECK(fired == slow_fid || (!by_fid && fired == fast_fid),
	      "fid %d, slow_call is %u", st.finalize_fid, slow_fid);
	CHECK(st.finalize_duration_ns >= (fired == slow_fid ? 20 : 10) * MS &&
	      st.finalize_duration_ns < 2000 * MS,
	      "duration %llu ns", (unsigned long long)st.finalize_duration_ns);
	CHECK(st.finalize_pid == pid && st.finalize_tid == pid,
	      "pid %d tid %d, the program is %d", st.finalize_pid, st.finalize_tid,
	      (int)pid);
	fdrctl_status(target, &st);
	CHECK(region_stop_and_map(&reg, &c) == 0, "map");
	CHECK(walk_region(&w, c) == 0, "walk: %s", w.error);
	for (size_t i = 0; i < w.n; i++) {
		if (w.recs[i].kind < REC_FN_BASE)
			continue;
		prev = last;
		last = (long)i;
		if (w.recs[i].kind == REC_FN(FDR_FN_EXIT) &&
		    w.recs[i].fid == fast_fid)
			fast_exits++;
	}
	ok = last >= 0 && prev >= 0 &&
	     w.recs[last].kind == REC_FN(FDR_FN_EXIT) &&
	     w.recs[last].fid == fired &&
	     w.recs[prev].kind == REC_FN(FDR_FN_ENTER) &&
	     w.recs[prev].fid == fired;
	if (!ok)
		tap_diag("the log does not end with the firing call's Enter, Exit");
	/* Where the slow call is: after 5,000 fast ones, in a ring of a few
	 * hundred. */
	if (ok && fired == slow_fid && (fast_exits < 200 || fast_exits >= 5000)) {
		tap_diag("%zu fast calls before the slow one", fast_exits);
		ok = false;
	}
	walk_free(&w);
	region_end(&reg);
	return ok;
}

static bool run(bool by_fid, const char *opts)
{
	return run_one(by_fid, opts) || (!by_fid && run_one(by_fid, opts));
}

static void xray_runs(void)
{
	static struct xray_names names;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/xray_trigger_traced.xray-map", prog_dir());
	if (access(path, R_OK) || xray_names_load(&names, path)) {
		for (int i = 0; i < 2; i++)
			tap_skip("no XRay build (sanitizer build?)", "xray trigger");
		return;
	}
	slow_fid = fast_fid = 0;
	for (uint32_t id = 1; id < XRAY_NAMES_MAX; id++) {
		if (!strcmp(names.name[id], "slow_call"))
			slow_fid = id;
		if (!strcmp(names.name[id], "fast_call"))
			fast_fid = id;
	}
	if (!slow_fid || !fast_fid)
		tap_diag("no slow_call/fast_call in %s", path);
	xray = true;
	tap_ok(slow_fid && run(true, "func_duration_threshold_us=0"),
	       "xray trigger: by fid, threshold 0: the log ends with the slow call");
	tap_ok(slow_fid && run(false, "func_duration_threshold_us=5"),
	       "xray trigger: any function, threshold 5 us");
}

int main(void)
{
	char path[PATH_MAX];
	struct sym_list nm;
	const struct sym_entry *s, *f;

	tap_plan(7);
	snprintf(path, sizeof(path), "%s/cyg_trigger_traced.nm", prog_dir());
	nm_read(&nm, path);
	s = sym_by_name(&nm, "slow_call");
	f = sym_by_name(&nm, "fast_call");
	/* an executable's function ids are its link-time addresses */
	slow_fid = s ? (uint32_t)s->offset : 0;
	fast_fid = f ? (uint32_t)f->offset : 0;
	if (!slow_fid || !fast_fid)
		tap_diag("no slow_call/fast_call in %s", path);
	tap_ok(slow_fid && run(true, "func_duration_threshold_us=0"),
	       "cyg trigger: by fid, threshold 0: the log ends with the slow call");
	tap_ok(slow_fid && run(true, "func_duration_threshold_us=5"),
	       "cyg trigger: by fid, threshold 5 us");
	tap_ok(slow_fid && run(false, "func_duration_threshold_us=0"),
	       "cyg trigger: any function, threshold 0");
	tap_ok(slow_fid && run(false, "func_duration_threshold_us=5"),
	       "cyg trigger: any function, threshold 5 us");
	sym_list_free(&nm);
	if (status_rc == -1) {
		tap_skip("fdrctl not built", "fdrctl status names the trigger");
	} else if (!tap_ok(status_rc == 0 && strstr(status_text, status_want[0]) &&
			   strstr(status_text, status_want[1]) &&
			   strstr(status_text, "triggers:          1 fired, 0 refused"),
			   "fdrctl status names the trigger's function, duration, pid and tid")) {
		tap_diag("want '%s' and '%s' in:\n%s", status_want[0],
			 status_want[1], status_text);
	}
	xray_runs();
	return tap_done();
}
