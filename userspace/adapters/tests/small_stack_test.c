// SPDX-License-Identifier: MIT
/*
 * small_stack_test.c - instrumented code on a 4 KiB stack with a guard
 * page under it (small_stack.c): untraced, recording every call into a
 * ring of 4 KiB buffers (new buffers all the time), and with a latency
 * trigger armed (every record on the general path), through the GCC
 * hooks and through XRay.  The program must finish with its result, the
 * region must hold its calls, and the GCC hooks must have used at most
 * CYG_STACK_BOUND bytes of its stack: their slow path (the first call
 * of each function) runs on a stack of its own (call_on_stack.h).
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
#include "tap.h"

/* What Documentation/integrations.md promises ("Stack"); the program's
 * own frames take about 100 bytes of it. */
#define CYG_STACK_BOUND	1024
#define RESULT		"small_stack: 835072, "

static size_t records_in(struct region *r)
{
	const struct fdr_control *c;

	return region_stop_and_map(r, &c) == 0 ? walk_count_calls(c) : 0;
}

static void run(const char *prog, const char *what, bool traced, uint64_t trigger_ns)
{
	char path[PATH_MAX], target[128], env_target[160], out[256];
	char env_opts[] = "FDR_OPTIONS=func_duration_threshold_us=0";
	char env_xray[] = "XRAY_OPTIONS=patch_premain=true xray_mode=fdr";
	char *argv[] = { path, NULL };
	char *env[] = { env_target, env_opts, env_xray, NULL };
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = 4096,
				.buffers_per_cpu = 2, .trigger_ns = trigger_ns };
	struct region reg = { 0 };
	const char *used;
	pid_t pid;
	int st;

	snprintf(path, sizeof(path), "%s/%s", prog_dir(), prog);
	snprintf(target, sizeof(target), "embedded:adapters-smallstack-%d", (int)getpid());
	snprintf(env_target, sizeof(env_target), "FDR_TARGET=%s", target);
	if (!traced)
		env[0] = NULL;
	else if (region_start_cfg(&reg, target, &cfg)) {
		tap_ok(false, "%s, %s: create region", prog, what);
		return;
	}
	out[0] = '\0';
	st = run_capture(argv, env, &pid, out, sizeof(out));
	out[strcspn(out, "\n")] = '\0';
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && !strncmp(out, RESULT, strlen(RESULT)),
	       "%s, %s: runs on a 4 KiB stack (status %d: %s)", prog, what, st, out);
	used = strstr(out, ", ");
	if (strstr(prog, "cyg"))
		tap_ok(used && atol(used + 2) <= CYG_STACK_BOUND,
		       "%s, %s: the hooks used at most %d bytes of it", prog, what,
		       CYG_STACK_BOUND);
	if (traced) {
		size_t n = records_in(&reg);

		tap_ok(n > 0, "%s, %s: its calls are in the region (%zu records)", prog, what, n);
		region_end(&reg);
	}
}

int main(void)
{
	static const char *const progs[] = { "small_stack_cyg", "small_stack_xray" };

	for (size_t i = 0; i < 2; i++) {
		run(progs[i], "untraced", false, 0);
		run(progs[i], "threshold 0, 4 KiB buffers", true, 0);
		run(progs[i], "a trigger armed", true, 10000000000ull);
	}
	return tap_done();
}
