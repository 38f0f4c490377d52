// SPDX-License-Identifier: MIT
/*
 * test_names_and_table.c - log file names from the pattern, and the
 * .threads side table (against a fake /proc tree).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "log_layout.h"
#include "log_name.h"
#include "side_table.h"
#include "synth_region.h"
#include "tap.h"

static void test_names(void)
{
	struct log_name_vars v = { .when = 1700000000, .seq = 5, .generation = 9,
				   .finalize_reason = FDR_FINALIZE_CRASH, .pid = 42 };
	char out[256], longp[300];
	int ret;

	log_name_expand(LOG_NAME_DEFAULT_PATTERN, &v, out, sizeof(out));
	tap_ok(!strcmp(out, "fdr-log.20231114T221320Z.5.xray"), "default pattern: %s", out);
	log_name_expand("<reason>-g<generation>-<pid>-<seq>-<nope>-<seq", &v, out, sizeof(out));
	tap_ok(!strcmp(out, "crash-g9-42-5-<nope>-<seq"),
	       "every placeholder; unknown and unclosed ones copied as is: %s", out);
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = 0;
	ret = log_name_expand(longp, &v, out, sizeof(out));
	tap_ok(ret == -ENAMETOOLONG, "too long a name refused");
	tap_ok(log_name_check_pattern("a/b") && log_name_check_pattern("") &&
	       log_name_check_pattern(".hidden") && !log_name_check_pattern("x<seq>.xray"),
	       "patterns with '/', empty, or starting with '.' refused");
}

static void fake_proc(const char *root, int pid, const char *comm, const char *exe)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/comm", root, pid);
	f = fopen(path, "w");
	fprintf(f, "%s\n", comm);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%d/exe", root, pid);
	if (symlink(exe, path))
		tap_diag("symlink %s failed", path);
}

static void test_table(void)
{
	char root[] = "/tmp/fdrd-proc-XXXXXX", cmd[600];
	struct synth_region r;
	struct log_layout l;
	const char *why;
	size_t len;
	char *text;

	mkdtemp(root);
	fake_proc(root, 100, "server", "/usr/bin/server");
	fake_proc(root, 300, "tab\there", "/opt/x y/bin");
	synth_region_create(&r, 5, 4096, 0, 1);
	synth_fill(&r, 0, 0, 101, 100, 0, 1, 1, 1);
	synth_fill(&r, 1, 1, 102, 100, 0, 1, 1, 1);
	synth_fill(&r, 2, 2, 101, 100, 0, 1, 1, 1);
	synth_fill(&r, 3, 3, 200, 200, 0, 1, 1, 1);	/* process gone */
	synth_fill(&r, 4, 4, 300, 300, 0, 1, 1, 1);
	r.ctl->finalize_reason = FDR_FINALIZE_CRASH;
	r.ctl->finalize_signal = SIGSEGV;
	r.ctl->finalize_pid = 200;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	text = side_table_render(&l, "my.xray", root, &len);
	tap_ok(text && len == strlen(text), "table rendered (%zu bytes)", len);
	tap_ok(strstr(text, "fdrd-threads\t1\nlog\tmy.xray\ngeneration\t7\n") == text,
	       "format line, log name and generation first");
	tap_ok(strstr(text, "finalize\tcrash\tsignal\t11\tSIGSEGV\tpid\t200\tcomm\tunknown\n") != NULL,
	       "finalize trigger: crash, SIGSEGV, pid; the dead process is unknown");
	tap_ok(strstr(text, "buffers\t5\tdropped\t0\tcut\t0\trecords\t25\n") != NULL,
	       "buffer and record counts");
	tap_ok(strstr(text, "thread\t101\tpid\t100\tbuffers\t2\tcomm\tserver\texe\t/usr/bin/server\n"
			    "thread\t102\tpid\t100\tbuffers\t1\tcomm\tserver\texe\t/usr/bin/server\n"
			    "thread\t200\tpid\t200\tbuffers\t1\tcomm\tunknown\texe\tunknown\n") != NULL,
	       "one line per thread in first-buffer order, with buffer counts");
	tap_ok(strstr(text, "thread\t300\tpid\t300\tbuffers\t1\tcomm\ttab\\there\texe\t/opt/x y/bin\n") != NULL,
	       "tabs in values escaped");
	if (text)
		fwrite(text, 1, len, stderr);
	free(text);
	log_layout_free(&l);
	synth_region_destroy(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		tap_diag("cleanup of %s failed", root);
}

int main(void)
{
	test_names();
	test_table();
	return tap_done();
}
