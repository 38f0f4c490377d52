// SPDX-License-Identifier: MIT
/*
 * e2e_test.c - record with libfdr, flush with fdrd --once, and check the
 * log with llvm-xray-19 and fdrlog: the whole path on the embedded
 * backend.  SKIPs what is not built or installed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"

#define PAIRS 5000

static struct test_region tr;
static char dir[] = "/tmp/fdr-e2e-XXXXXX";
static char logpath[512];

static void *worker(void *arg)
{
	int base = (int)(intptr_t)arg;

	for (int i = 0; i < PAIRS; i++) {
		fdr_enter(base + i % 50);
		if (i % 100 == 0)
			fdr_enter_arg(base + 99, (uint64_t)i);
		if (i % 100 == 0)
			fdr_exit(base + 99);
		if (i % 250 == 0)
			fdr_custom_event("custom!!", 8);
		fdr_exit(base + i % 50);
	}
	return NULL;
}

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static bool record_and_flush(const char *fdrd)
{
	pthread_t th[2];
	char cmd[1024];
	FILE *p;

	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(mkdtemp(dir), "mkdtemp");
	CHECK(tr_create(&tr, "e2e", 1 << 20, 2) == 0, "create");
	CHECK(fdr_attach(tr.target) == 0 && tr_map(&tr) == 0, "attach + map");
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)(100 * (i + 1)));
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	CHECK(fdr_ctl_finalize(tr.ctl) == 0, "finalize");
	snprintf(cmd, sizeof(cmd), "%s --target %s --once -f -g 10 -o %s 1>&2",
		 fdrd, tr.target, dir);
	CHECK(system(cmd) == 0, "fdrd --once failed: %s", cmd);
	snprintf(cmd, sizeof(cmd), "ls %s/*.xray", dir);
	p = popen(cmd, "r");
	CHECK(p && fgets(logpath, sizeof(logpath), p), "no log in %s", dir);
	pclose(p);
	logpath[strcspn(logpath, "\n")] = 0;
	return true;
}

static bool check_header(void)
{
	struct fdr_log_header h;
	FILE *f = fopen(logpath, "rb");

	CHECK(f && fread(&h, sizeof(h), 1, f) == 1, "read %s", logpath);
	fclose(f);
	CHECK(h.version == 2 && h.type == FDR_LOG_TYPE_FDR, "v2 FDR");
	CHECK(h.cycle_frequency == tr.c->tsc_hz, "frequency %llu",
	      (unsigned long long)h.cycle_frequency);
	CHECK(h.buffer_size == 1 << 20, "ThreadBufferSize %llu",
	      (unsigned long long)h.buffer_size);
	return true;
}

/* Count lines of `llvm-xray convert -f yaml` with a given kind. */
static long yaml_count(const char *kind)
{
	char cmd[1024];
	long n = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "llvm-xray-19 convert -f yaml --sort=false %s | grep -c 'kind: *%s,'",
		 logpath, kind);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%ld", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

int main(void)
{
	const char *bindir = getenv("FDR_BINDIR");
	char fdrd[512], fdrlog[512];
	bool have_xray = system("llvm-xray-19 --version >/dev/null 2>&1") == 0;
	long enters, exits, args;

	tap_plan(5);
	snprintf(fdrd, sizeof(fdrd), "%s/fdrd", bindir ? bindir : ".");
	snprintf(fdrlog, sizeof(fdrlog), "%s/fdrlog", bindir ? bindir : ".");
	if (access(fdrd, X_OK)) {
		for (int i = 0; i < 5; i++)
			tap_skip("fdrd not built", "end to end %d", i + 1);
		return 0;
	}
	tap_ok(record_and_flush(fdrd), "two threads record, fdrd --once writes a log");
	tap_ok(logpath[0] && check_header(), "log header: v2, FDR, ThreadBufferSize");
	if (have_xray && logpath[0])
		tap_ok(sh("llvm-xray-19 fdr-dump --verify %s >/dev/null%s", logpath, "") == 0,
		       "llvm-xray-19 fdr-dump --verify accepts the log");
	else
		tap_skip("no llvm-xray-19", "llvm-xray-19 fdr-dump --verify");
	if (have_xray && logpath[0]) {
		enters = yaml_count("function-enter");
		args = yaml_count("function-enter-arg");
		exits = yaml_count("function-exit");
		tap_ok(enters == 2 * PAIRS && exits == 2 * PAIRS + 2 * PAIRS / 100 &&
		       args == 2 * PAIRS / 100,
		       "llvm-xray-19 convert: every record (enter %ld exit %ld arg %ld)",
		       enters, exits, args);
	} else {
		tap_skip("no llvm-xray-19", "llvm-xray-19 convert counts");
	}
	if (!access(fdrlog, X_OK) && logpath[0])
		tap_ok(sh("%s verify %s >/dev/null", fdrlog, logpath) == 0,
		       "fdrlog verify accepts the log");
	else
		tap_skip("fdrlog not built", "fdrlog verify");
	fdr_detach();
	tr_destroy(&tr);
	sh("rm -rf %s%s", dir, "");
	return tap_done();
}
