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
#include "retention.h"
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

/* <reason> and the side table name each reason; one fdrd does not know
 * is "unknown", never a crash. */
static void test_reason_names(void)
{
	tap_ok(!strcmp(log_name_reason(FDR_FINALIZE_TRIGGER), "trigger") &&
	       !strcmp(log_name_reason(FDR_FINALIZE_IOCTL), "ioctl") &&
	       !strcmp(log_name_reason(FDR_FINALIZE_CRASH), "crash") &&
	       !strcmp(log_name_reason(FDR_FINALIZE_NONE), "none") &&
	       !strcmp(log_name_reason(77), "unknown"),
	       "reason names: trigger, ioctl, crash, none; unknown otherwise");
}

/* What --max-logs / --max-bytes take for fdrd's own: exactly the names
 * the pattern expands to. */
static void test_matches(void)
{
	static const struct { const char *pattern, *name; bool match; } cases[] = {
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.20231114T221320Z.5.xray", true },
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.20231114T221320Z.123456.xray", true },
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.20231114T221320Z..xray", false },
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.20231114T221320Z.5.xray.threads", false },
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.2023111XT221320Z.5.xray", false },
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.20231114T221320.5.xray", false },
		{ LOG_NAME_DEFAULT_PATTERN, "fdr-log.20231114T221320Z.5a.xray", false },
		{ LOG_NAME_DEFAULT_PATTERN, "xfdr-log.20231114T221320Z.5.xray", false },
		{ "<reason>-g<generation>-<pid>-<seq>-<nope>", "trigger-g9-42-5-<nope>", true },
		{ "<reason>-g<generation>-<pid>-<seq>-<nope>", "crash-g9-42-5-<nope>", true },
		{ "<reason>-g<generation>-<pid>-<seq>-<nope>", "boom-g9-42-5-<nope>", false },
		{ "<reason>-g<generation>-<pid>-<seq>-<nope>", "ioctl-g9-42-5-x", false },
		{ "<seq><seq>.x", "12.x", true },
		{ "<seq><seq>.x", "1.x", false },
		{ "plain.xray", "plain.xray", true },
		{ "plain.xray", "plain.xray2", false },
	};
	uint64_t v;
	const char *why;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tap_ok(log_name_matches(cases[i].pattern, cases[i].name) == cases[i].match,
		       "'%s' %s pattern '%s'", cases[i].name,
		       cases[i].match ? "matches" : "does not match", cases[i].pattern);
	tap_ok(!retention_parse_size("1024", &v, &why) && v == 1024 &&
	       !retention_parse_size("3K", &v, &why) && v == 3072 &&
	       !retention_parse_size("2m", &v, &why) && v == 2u << 20 &&
	       !retention_parse_size("5GiB", &v, &why) && v == 5ull << 30 &&
	       !retention_parse_size("1TB", &v, &why) && v == 1ull << 40 &&
	       !retention_parse_size("7B", &v, &why) && v == 7,
	       "sizes: plain, K, m, GiB, TB, B");
	tap_ok(retention_parse_size("", &v, &why) && retention_parse_size("0", &v, &why) &&
	       retention_parse_size("1.5G", &v, &why) && retention_parse_size("1KK", &v, &why) &&
	       retention_parse_size(" 1", &v, &why) && retention_parse_size("16777216T", &v, &why) &&
	       retention_parse_size("18446744073709551616", &v, &why),
	       "sizes refused: empty, 0, fraction, double suffix, blank, overflows");
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
	tap_ok(!strstr(text, "buffers_recycled") && !strstr(text, "records_dropped"),
	       "no ring counters when the flush had none");
	if (text)
		fwrite(text, 1, len, stderr);
	free(text);
	/* what flush.c's STATUS under FLUSHING gives the table */
	l.ring_known = true;
	l.buffers_recycled = 3;
	l.records_dropped = 4;
	text = side_table_render(&l, "my.xray", root, &len);
	tap_ok(text && strstr(text, "records\t25\nbuffers_recycled\t3\nrecords_dropped\t4\nthread\t"),
	       "a flight recorder's ring counters after the buffer counts");
	free(text);
	log_layout_free(&l);
	synth_region_destroy(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		tap_diag("cleanup of %s failed", root);
}

/* An embedded region finalized by a trigger (the control page is all
 * there is): the finalize line adds tid, fid and duration after comm;
 * a trigger by hand has fid 0 and 0 ns. */
static void test_trigger_line(void)
{
	char root[] = "/tmp/fdrd-proc-XXXXXX", cmd[600];
	struct synth_region r;
	struct log_layout l;
	const char *why;
	size_t len;
	char *text;

	mkdtemp(root);
	fake_proc(root, 400, "slowpoke", "/usr/bin/slowpoke");
	synth_region_create(&r, 2, 4096, 0, 1);
	synth_fill(&r, 0, 0, 401, 400, 0, 1, 1, 1);
	synth_fill(&r, 1, 1, 400, 400, 0, 1, 1, 1);
	r.ctl->finalize_reason = FDR_FINALIZE_TRIGGER;
	r.ctl->finalize_pid = 400;
	r.ctl->finalize_tid = 401;
	r.ctl->finalize_fid = 12;
	r.ctl->finalize_duration_ns = 20312345;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	text = side_table_render(&l, "trig.xray", root, &len);
	tap_ok(text && strstr(text, "\nfinalize\ttrigger\tsignal\t0\t-\tpid\t400\tcomm\tslowpoke"
				    "\ttid\t401\tfid\t12\tduration_ns\t20312345\n"
				    "buffers\t2\t"),
	       "trigger: finalize line with pid, comm, tid, fid and duration_ns");
	if (text)
		fwrite(text, 1, len, stderr);
	free(text);
	log_layout_free(&l);
	r.ctl->finalize_fid = 0;
	r.ctl->finalize_duration_ns = 0;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	text = side_table_render(&l, "trig.xray", root, &len);
	tap_ok(text && strstr(text, "\nfinalize\ttrigger\tsignal\t0\t-\tpid\t400\tcomm\tslowpoke"
				    "\ttid\t401\tfid\t0\tduration_ns\t0\n"),
	       "trigger by hand: fid 0, duration_ns 0");
	free(text);
	log_layout_free(&l);
	r.ctl->finalize_reason = FDR_FINALIZE_IOCTL;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	text = side_table_render(&l, "trig.xray", root, &len);
	tap_ok(text && strstr(text, "\nfinalize\tioctl\tsignal\t0\t-\tpid\t400\tcomm\tslowpoke\n"),
	       "other reasons: the line ends at comm as before (tid etc. ignored)");
	free(text);
	log_layout_free(&l);
	synth_region_destroy(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		tap_diag("cleanup of %s failed", root);
}

/* The line of thread tid in text, without its newline, into out. */
static const char *thread_line(const char *text, int tid, char *out, size_t len)
{
	char key[32];
	const char *at;

	snprintf(key, sizeof(key), "\nthread\t%d\t", tid);
	at = text ? strstr(text, key) : NULL;
	if (!at) {
		snprintf(out, len, "(none)");
		return out;
	}
	at++;
	snprintf(out, len, "%.*s", (int)strcspn(at, "\n"), at);
	return out;
}

/* Threads whose processes are gone: names from the owner notes libfdr
 * wrote, and every spoiled note ignored (then /proc, where they are gone
 * too: "unknown"). */
static void test_owner_notes(void)
{
	char root[] = "/tmp/fdrd-proc-XXXXXX", cmd[600], line[600];
	struct synth_region r;
	struct log_layout l;
	const char *why;
	uint8_t *note;
	size_t len;
	char *text;
	uint32_t u32;

	mkdtemp(root);
	fake_proc(root, 700, "from-proc", "/proc/says");
	synth_region_create(&r, 12, 4096, 0, 1);
	for (uint32_t i = 0; i < 12; i++)
		synth_fill(&r, i, i, (int32_t)(500 + i), i < 2 ? 500 : (int32_t)(600 + i), 0, 1, 1, 1);
	synth_note(&r, 0, "main-thr", "/usr/bin/gone");
	synth_note(&r, 1, "worker", "/usr/bin/gone");
	note = synth_note(&r, 2, "badmagic", "/x");
	memset(synth_buffer(&r, 2) + 4096 - 4, 0, 4);		/* magic */
	note = synth_note(&r, 3, "badseq", "/x");
	note[0] ^= 1;						/* seq */
	note = synth_note(&r, 4, "badtid", "/x");
	note[16] ^= 1;						/* tid */
	note = synth_note(&r, 5, "longexe", "/x");
	note[20] = 200;						/* exe_len past the note */
	note = synth_note(&r, 6, "0123456789abcdef", "/x");
	memset(note + 24, 'A', 16);				/* comm without NUL */
	synth_note(&r, 7, "ctl\001\033[2J", "/bin/x\ty");	/* valid, hostile bytes */
	u32 = 4096;						/* size: whole buffer */
	synth_note(&r, 8, "huge", "/x");
	memcpy(synth_buffer(&r, 8) + 4096 - 8, &u32, 4);
	synth_note(&r, 9, "under", "/x");
	synth_desc(&r, 9)->extents = 4096 - 8;			/* records over the note */
	note = synth_note(&r, 10, "badflags", "/x");
	note[22] = 2;
	synth_note(&r, 11, "nulexe", "/a");
	synth_buffer(&r, 11)[4096 - 56 + 40] = '\0';
	r.ctl->finalize_reason = FDR_FINALIZE_IOCTL;
	r.ctl->finalize_pid = 500;
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	text = side_table_render(&l, "n.xray", root, &len);
	tap_ok(text && strstr(text, "\tpid\t500\tcomm\tmain-thr\n"),
	       "finalize pid's command from its main thread's note");
	tap_ok(!strcmp(thread_line(text, 500, line, sizeof(line)),
		       "thread\t500\tpid\t500\tbuffers\t1\tcomm\tmain-thr\texe\t/usr/bin/gone") &&
	       !strcmp(thread_line(text, 501, line, sizeof(line)),
		       "thread\t501\tpid\t500\tbuffers\t1\tcomm\tworker\texe\t/usr/bin/gone"),
	       "process gone: comm and exe from the notes: %s", line);
	const char *spoiled[] = { "magic", "seq", "tid", "exe_len", "comm without NUL",
				  NULL, "size", "extents over the note", "flags", "NUL in exe" };
	for (int i = 2; i < 12; i++) {
		char want[200];

		if (i == 7)
			continue;
		snprintf(want, sizeof(want), "thread\t%d\tpid\t%d\tbuffers\t1\tcomm\tunknown\texe\tunknown",
			 500 + i, 600 + i);
		tap_ok(!strcmp(thread_line(text, 500 + i, line, sizeof(line)), want),
		       "spoiled note (%s) ignored: %s", spoiled[i - 2], line);
	}
	tap_ok(!strcmp(thread_line(text, 507, line, sizeof(line)),
		       "thread\t507\tpid\t607\tbuffers\t1\tcomm\tctl\\x01\\x1b[2J\texe\t/bin/x\\ty"),
	       "control bytes of a note escaped: %s", line);
	free(text);
	log_layout_free(&l);
	synth_region_destroy(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		tap_diag("cleanup of %s failed", root);
}

/* A thread that exec()ed another program: one row per program, in the
 * order of their first buffers; a buffer without a valid note joins the
 * row of the buffer before it. */
static void test_exec_rows(void)
{
	struct synth_region r;
	struct log_layout l;
	const char *why, *a, *b;
	size_t len;
	char *text;

	synth_region_create(&r, 4, 4096, 0, 1);
	for (uint32_t i = 0; i < 4; i++)
		synth_fill(&r, i, i, 800, 800, 0, 1, 1, 1);
	synth_note(&r, 0, "first", "/bin/first");
	synth_note(&r, 1, "second", "/bin/second");
	synth_note(&r, 2, "spoiled", "/x");
	memset(synth_buffer(&r, 2) + 4096 - 4, 0, 4);		/* magic */
	synth_note(&r, 3, "first", "/bin/first");
	log_layout_build(r.ro, r.len, NULL, &l, &why);
	text = side_table_render(&l, "e.xray", "/nonexistent", &len);
	a = text ? strstr(text, "thread\t800\tpid\t800\tbuffers\t2\tcomm\tfirst\texe\t/bin/first\n") : NULL;
	b = text ? strstr(text, "thread\t800\tpid\t800\tbuffers\t2\tcomm\tsecond\texe\t/bin/second\n") : NULL;
	tap_ok(a && b && a < b, "exec: one row per program of the thread, first first");
	tap_ok(text && !strstr(text, "spoiled"), "exec: the buffer without a valid note joins the row before it");
	if (!(a && b && a < b))
		tap_diag("%s", text ? text : "(no table)");
	free(text);
	log_layout_free(&l);
	synth_region_destroy(&r);
}

int main(void)
{
	test_names();
	test_reason_names();
	test_matches();
	test_table();
	test_trigger_line();
	test_owner_notes();
	test_exec_rows();
	return tap_done();
}
