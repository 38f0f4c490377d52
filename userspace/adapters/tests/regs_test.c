// SPDX-License-Identifier: MIT
/*
 * regs_test.c - no register a compiled caller may keep live changes
 * across a sled or a hook, on any path through the trampolines and the
 * record: xray_regs and cyg_regs (regs_run.h) check every call they
 * make, and this test runs them where each path is taken.
 *
 *   untraced        the targets themselves keep every register (the
 *                   harness's control: without it a failure below
 *                   could be the target's own)
 *   threshold 0     the fast path, and the general one for each new buffer
 *   default, 1 s    threshold rewinds (an Exit erases its Enter), the
 *                   tail-call chain's walk back (general path)
 *   trigger armed   every record on the general path (10 s: never fires)
 *   trigger fires   any call of 1 ns fires it: the writer finalizes
 *   drop            a streamed ring nobody empties: full, then drops
 *   re-entry        a record inside a record (libfdr's test build calls
 *                   the program's hook inside the re-entry guard)
 *   vector forms    the general path's ymm, zmm and XSAVE forms
 *                   (FDR_XRAY_VSTATE), each that the CPU has; and the
 *                   control: the xmm-only form on an AVX CPU must fail
 *   xray sleds      FDR_XRAY_SLEDS=xray: compiler-rt's trampolines call
 *                   the mode's handlers through its shims.  Its exit
 *                   trampoline keeps only what the ABI keeps across a
 *                   return (REGS_RETURN), so that is what these check;
 *                   the vector state must still be whole (the shims).
 *
 * Each run also checks the evidence that its path was taken (records
 * kept, drops counted, the trigger's finalize, re-entries made).
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
#include "regs.h"
#include "tap.h"

#define ITERATIONS	"3000"

enum evidence { EV_NONE, EV_RECORDS, EV_DROPS, EV_TRIGGER, EV_REENTRY };

struct run {
	const char *what;
	const char *opts;	/* FDR_OPTIONS, NULL: untraced */
	bool xray_sleds;	/* FDR_XRAY_SLEDS=xray */
	const char *vstate;	/* FDR_XRAY_VSTATE (xray_xstate.h), NULL: the best */
	bool stream;
	bool args;		/* FDR_XRAY_ARGS: every function on the args trampolines */
	uint32_t buffer_size;
	uint64_t trigger_ns;
	enum evidence evidence;
	/* A control: the program must find a register changed (exit 1),
	 * on a CPU with AVX only. */
	bool must_fail;
};

static const struct run runs[] = {
	{ "untraced", NULL, false, NULL, false, false, 0, 0, EV_NONE, false },
	{ "threshold 0", "func_duration_threshold_us=0", false, NULL, false, false, 65536, 0,
	  EV_RECORDS, false },
	{ "default threshold", "", false, NULL, false, false, 65536, 0, EV_NONE, false },
	{ "threshold 1 s", "func_duration_threshold_us=1000000", false, NULL, false, false, 65536, 0,
	  EV_NONE, false },
	{ "trigger armed", "func_duration_threshold_us=0", false, NULL, false, false, 65536,
	  10000000000ull, EV_RECORDS, false },
	{ "trigger fires", "func_duration_threshold_us=0", false, NULL, false, false, 65536, 1,
	  EV_TRIGGER, false },
	{ "drop", "func_duration_threshold_us=0", false, NULL, true, false, 4096, 0, EV_DROPS, false },
	{ "re-entry", "func_duration_threshold_us=0", false, NULL, false, false, 4096, 0,
	  EV_REENTRY, false },
	{ "xray sleds, threshold 0", "func_duration_threshold_us=0", true, NULL, false, false, 65536, 0,
	  EV_RECORDS, false },
	{ "xray sleds, trigger armed", "func_duration_threshold_us=0", true, NULL, false, false, 65536,
	  10000000000ull, EV_RECORDS, false },
	/* Each form the trampolines keep the vector registers in; one the
	 * CPU lacks falls back to the best (the same run again). */
	{ "ymm form, trigger armed", "func_duration_threshold_us=0", false, "avx", false, false,
	  65536, 10000000000ull, EV_RECORDS, false },
	{ "zmm form, trigger armed", "func_duration_threshold_us=0", false, "avx512", false, false,
	  65536, 10000000000ull, EV_RECORDS, false },
	{ "XSAVE form, trigger armed", "func_duration_threshold_us=0", false, "xsave", false, false,
	  65536, 10000000000ull, EV_RECORDS, false },
	/* The control: keeping xmm0-15 only, on a CPU with AVX, loses the
	 * upper halves of ymm, and the check must say so. */
	{ "control: the xmm form on an AVX CPU", "func_duration_threshold_us=0", false, "sse",
	  false, false, 65536, 10000000000ull, EV_RECORDS, true },
	/* The sleds of fdr record -A/-R (xray_args.h): registers logged,
	 * strings copied, return values; the entry's fast path, then with a
	 * trigger armed every record on the general path. */
	{ "args trampolines, threshold 0", "func_duration_threshold_us=0", false, NULL, false,
	  true, 65536, 0, EV_RECORDS, false },
	{ "args trampolines, trigger armed", "func_duration_threshold_us=0", false, NULL, false,
	  true, 65536, 10000000000ull, EV_RECORDS, false },
};

static bool evidence_seen(const struct run *run, struct region *reg,
			  const char *out)
{
	const struct fdr_control *c;
	struct fdr_status st;
	long reentered = 0;
	const char *p = strstr(out, "reentered ");

	if (p)
		reentered = atol(p + strlen("reentered "));
	if (fdr_ctl_status(reg->ctl, &st))
		return false;
	switch (run->evidence) {
	case EV_NONE:
		return true;
	case EV_DROPS:
		return st.records_dropped > 0;
	case EV_TRIGGER:
		return st.state == FDR_STATE_FINALIZED &&
		       st.finalize_reason == FDR_FINALIZE_TRIGGER;
	case EV_REENTRY:
		return reentered > 0 && st.records_dropped > 0;
	case EV_RECORDS:
		return region_stop_and_map(reg, &c) == 0 && walk_count_calls(c) > 0;
	}
	return false;
}

static void run_one(const char *prog, const struct run *run, int n)
{
	char path[PATH_MAX], target[128], env_target[160], env_opts[160], out[512];
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char env_sleds[] = "FDR_XRAY_SLEDS=xray", env_vstate[64];
	/* xray_regs's seven functions: integer and vector registers, or a
	 * string argument and a string result (any pointer: a bad one is
	 * recorded as unreadable) */
	char env_args[] = "FDR_XRAY_ARGS=1:i1,i2,i3,i4,i5,i6,f1,f2:i;2:s1,f8:s;"
			  "3:i1,i2,i3,i4,i5,i6,f1,f2:f;4:s1:s;5:i1:i;6:s1,i2:i;7:i1,s2,i3:s";
	char iters[] = ITERATIONS, ret[] = "return";
	char *argv[] = { path, iters, run->xray_sleds ? ret : NULL, NULL };
	char *env[] = { env_target, env_opts, env_xray, NULL, NULL, NULL, NULL };
	int extra = 3;
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = run->buffer_size,
				.buffers_per_cpu = 2, .trigger_ns = run->trigger_ns,
				.flags = run->stream ? FDR_INIT_STREAM : 0 };
	struct region reg = { 0 };
	pid_t pid;
	int st;

	if (run->must_fail && !regs_have_avx()) {
		tap_skip("no AVX", "%s, %s", prog, run->what);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", prog_dir(), prog);
	snprintf(target, sizeof(target), "embedded:adapters-regs-%d-%d",
		 (int)getpid(), n);
	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s", target);
	snprintf(env_opts, sizeof(env_opts), "FDR_OPTIONS=%s",
		 run->opts ? run->opts : "");
	if (run->xray_sleds)
		env[extra++] = env_sleds;
	if (run->args)
		env[extra++] = env_args;
	if (run->vstate) {
		snprintf(env_vstate, sizeof(env_vstate), "FDR_XRAY_VSTATE=%s", run->vstate);
		env[extra++] = env_vstate;
	}
	if (!run->opts) {
		env[0] = NULL;
	} else if (region_start_cfg(&reg, target, &cfg)) {
		tap_ok(false, "%s, %s: create region %s", prog, run->what, target);
		return;
	}
	out[0] = '\0';
	st = run_capture(argv, env, &pid, out, sizeof(out));
	out[strcspn(out, "\n")] = '\0';
	if (run->must_fail)
		tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 1,
		       "%s, %s: the ymm upper halves are lost and the check says so "
		       "(status %d)", prog, run->what, st);
	else if (!tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			 "%s, %s: every register kept (%s)", prog, run->what, out))
		tap_diag("exit status %d (the program printed the registers that changed)", st);
	if (run->opts) {
		tap_ok(evidence_seen(run, &reg, out), "%s, %s: the path was taken", prog,
		       run->what);
		region_end(&reg);
	}
}

int main(void)
{
	static const char *const progs[] = { "xray_regs", "cyg_regs" };
	int n = 0;

	for (size_t p = 0; p < sizeof(progs) / sizeof(progs[0]); p++)
		for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
			if ((runs[i].xray_sleds || runs[i].vstate || runs[i].args) && p != 0)
				continue;
			run_one(progs[p], &runs[i], n++);
		}
	return tap_done();
}
