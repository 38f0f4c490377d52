// SPDX-License-Identifier: MIT
/* stress_judge.c - see stress_judge.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "stress_judge.h"
#include "tap.h"

/* Count the finalize reason from fdrd's side table. */
static void count_reason(struct stress_judge *j, const char *log)
{
	char path[700], line[256];

	snprintf(path, sizeof(path), "%s.threads", log);
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "finalize\tcrash", 14))
			j->v->finalize_crash++;
		else if (!strncmp(line, "finalize\tioctl", 14))
			j->v->finalize_ioctl++;
	}
	fclose(f);
}

static bool gen_has_confirmed(const struct stress_judge *j, uint32_t gen)
{
	uint64_t n = tally_count(j->tally);

	for (uint64_t i = j->tally_from; i < n; i++) {
		const struct tally_entry *e = tally_get(j->tally, i);

		if (e && e->generation == gen)
			return true;
	}
	return false;
}

/* Entries before the first one of a later generation are done with. */
static void advance_tally(struct stress_judge *j, uint32_t gen)
{
	uint64_t n = tally_count(j->tally);

	while (j->tally_from < n) {
		const struct tally_entry *e = tally_get(j->tally, j->tally_from);

		if (e && e->generation > gen)
			break;
		j->tally_from++;
	}
}

/* Copy LOG, LOG.tally and LOG.threads to the export directory. */
static void export_log(struct stress_judge *j, const char *log, uint32_t gen)
{
	static const char *const ext[] = { "", ".tally", ".threads" };
	char from[700], to[700];

	mkdir(j->export_dir, 0755);
	for (int i = 0; i < 3; i++) {
		snprintf(from, sizeof(from), "%s%s", log, ext[i]);
		snprintf(to, sizeof(to), "%s/stress-%d-gen-%u.xray%s",
			 j->export_dir, (int)getpid(), gen, ext[i]);
		if (tools_copy(from, to) < 0 && i == 0)
			tap_diag("cannot copy %s to %s", from, to);
	}
}

/* Keep a log for the host (vm-check): with its confirmed ranges. */
static void keep_log(struct stress_judge *j, const char *log, uint32_t gen)
{
	char path[700];
	uint64_t n = tally_count(j->tally);
	FILE *f;

	snprintf(path, sizeof(path), "%s.tally", log);
	f = fopen(path, "w");
	if (!f)
		return;
	for (uint64_t i = j->tally_from; i < n; i++) {
		const struct tally_entry *e = tally_get(j->tally, i);

		if (e && e->generation == gen)
			fprintf(f, "%u %u %llu %llu\n", e->generation, e->uid,
				(unsigned long long)e->first_k,
				(unsigned long long)e->last_k);
	}
	fclose(f);
	j->v->kept++;
	if (j->export_dir[0])
		export_log(j, log, gen);
}

static void drop_log(const char *log)
{
	char path[700];

	unlink(log);
	snprintf(path, sizeof(path), "%s.threads", log);
	unlink(path);
}

static void judge_generation(struct stress_judge *j, uint32_t gen)
{
	char log[600];
	struct stat sb;
	struct judge_job job = {
		.tools = j->tools, .log = log, .errfile = j->errfile,
		.tally = j->tally, .tally_from = j->tally_from,
		.generation = gen,
	};
	bool ok;

	snprintf(log, sizeof(log), "%s/gen-%u.xray", j->out, gen);
	if (stat(log, &sb) < 0) {
		if (gen_has_confirmed(j, gen)) {
			j->v->lost_logs++;
			tap_diag("generation %u: writers confirmed pairs but fdrd wrote no log", gen);
		} else {
			j->v->empty_gens++;
		}
		advance_tally(j, gen);
		return;
	}
	ok = judge_log(&job, &j->v->js);
	count_reason(j, log);
	if (!ok)
		j->v->failed_logs++;
	if (!ok || j->v->kept < j->keep)
		keep_log(j, log, gen);
	else
		drop_log(log);
	advance_tally(j, gen);
}

static void pause_ms(unsigned ms)
{
	struct timespec ts = { 0, (long)ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* The judge process: each generation in turn once the driver says it
 * moved on, until the driver's last word. */
static void __attribute__((noreturn)) judge_main(struct stress_judge *j)
{
	struct verdicts *v = j->v;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		bool last = __atomic_load_n(&v->last, __ATOMIC_ACQUIRE);
		uint32_t below = __atomic_load_n(&v->judge_below, __ATOMIC_ACQUIRE);

		for (; v->next_gen < below; v->next_gen++)
			judge_generation(j, v->next_gen);
		if (last)
			break;
		pause_ms(10);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(0);
}

int judge_start(struct stress_judge *j, uint32_t first)
{
	j->v = mmap(NULL, sizeof(*j->v), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (j->v == MAP_FAILED) {
		j->v = NULL;
		return -1;
	}
	j->v->next_gen = j->v->judge_below = first;
	j->v->js.diag_left = 40;
	snprintf(j->errfile, sizeof(j->errfile), "%s/tool.err", j->out);
	fflush(stdout);
	fflush(stderr);
	j->pid = fork();
	if (j->pid == 0)
		judge_main(j);
	return j->pid > 0 ? 0 : -1;
}

void judge_below(struct stress_judge *j, uint32_t gen)
{
	__atomic_store_n(&j->v->judge_below, gen, __ATOMIC_RELEASE);
}

void judge_finish(struct stress_judge *j, uint32_t gen)
{
	judge_below(j, gen);
	__atomic_store_n(&j->v->last, 1, __ATOMIC_RELEASE);
	if (j->pid > 0)
		while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
			;
	j->pid = 0;
}
