// SPDX-License-Identifier: MIT
/*
 * trigger_ctl.c - test program of trigger_test.sh, through libfdr:
 *
 *   trigger_ctl init TARGET BUFFER_SIZE BUFFERS_PER_CPU TRIGGER_NS FID HOLDOFF_MS
 *       INIT (struct fdr_init VER1) with that latency trigger
 *   trigger_ctl status TARGET
 *       one line: "state S flush F generation G reason R trigger_ns N
 *       trigger_fid F holdoff_ms H fired N refused N fin_pid P fin_tid T
 *       fin_fid F fin_ns N"
 *   trigger_ctl slow TARGET CALLS MS FID
 *       attach and make CALLS calls of function FID, each lasting MS ms
 *       (a sleep between its enter and exit); then print the calls made
 *
 * Exit 0, or 1 with the cause on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fdr.h>

static int with_ctl(const char *target, struct fdr_ctl **ctl)
{
	int ret = fdr_ctl_open(ctl, target);

	if (ret)
		fprintf(stderr, "trigger_ctl: %s\n", fdr_ctl_strerror(*ctl, "open", ret));
	return ret;
}

static int do_init(char **a)
{
	struct fdr_init cfg = {
		.size = sizeof(cfg),
		.buffer_size = strtoull(a[1], NULL, 0),
		.buffers_per_cpu = (uint32_t)strtoul(a[2], NULL, 0),
		.trigger_ns = strtoull(a[3], NULL, 0),
		.trigger_fid = (int32_t)strtol(a[4], NULL, 0),
		.trigger_holdoff_ms = (uint32_t)strtoul(a[5], NULL, 0),
	};
	struct fdr_ctl *ctl;
	int ret = with_ctl(a[0], &ctl);

	if (!ret) {
		ret = fdr_ctl_init(ctl, &cfg);
		if (ret)
			fprintf(stderr, "trigger_ctl: %s\n", fdr_ctl_strerror(ctl, "init", ret));
	}
	fdr_ctl_close(ctl);
	return ret ? 1 : 0;
}

static int do_status(const char *target)
{
	struct fdr_status st = { .size = sizeof(st) };
	struct fdr_ctl *ctl;
	int ret = with_ctl(target, &ctl);

	if (!ret) {
		ret = fdr_ctl_status(ctl, &st);
		if (ret)
			fprintf(stderr, "trigger_ctl: %s\n", fdr_ctl_strerror(ctl, "status", ret));
	}
	fdr_ctl_close(ctl);
	if (ret)
		return 1;
	printf("state %s flush %s generation %u reason %u trigger_ns %llu trigger_fid %d "
	       "holdoff_ms %u fired %llu refused %llu fin_pid %d fin_tid %d fin_fid %d "
	       "fin_ns %llu\n", fdr_state_name(st.state), fdr_flush_state_name(st.flush_state),
	       st.generation, st.finalize_reason, (unsigned long long)st.trigger_ns,
	       st.trigger_fid, st.trigger_holdoff_ms, (unsigned long long)st.triggers_fired,
	       (unsigned long long)st.triggers_refused, st.finalize_pid, st.finalize_tid,
	       st.finalize_fid, (unsigned long long)st.finalize_duration_ns);
	return 0;
}

static int do_slow(char **a)
{
	long calls = atol(a[1]), ms = atol(a[2]);
	int32_t fid = (int32_t)atol(a[3]);
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000 };

	if (fdr_attach(a[0]))
		return 1;
	for (long i = 0; i < calls; i++) {
		fdr_enter(fid);
		nanosleep(&d, NULL);
		fdr_exit(fid);
	}
	fdr_detach();
	printf("%ld\n", calls);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 8 && !strcmp(argv[1], "init"))
		return do_init(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "status"))
		return do_status(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "slow"))
		return do_slow(argv + 2);
	fprintf(stderr, "usage: trigger_ctl init TARGET BUFFER_SIZE BUFFERS_PER_CPU TRIGGER_NS "
		"FID HOLDOFF_MS | status TARGET | slow TARGET CALLS MS FID\n");
	return 2;
}
