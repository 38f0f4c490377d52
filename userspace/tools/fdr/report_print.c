// SPDX-License-Identifier: MIT
/* report_print.c - `fdr report` as a table (uftrace's layout) or as JSON. */
#include <stdio.h>

#include "report.h"

static void put_time(FILE *f, uint64_t ns)
{
	if (ns < 1000)
		fprintf(f, "%10llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		fprintf(f, "%10.3f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		fprintf(f, "%10.3f ms", (double)ns / 1e6);
	else
		fprintf(f, "%10.3f  s", (double)ns / 1e9);
}

/*
 * Above the table: a new user's `fdr record -- ./prog` drops short calls,
 * and the counts below may then miss most of the program's.  The log does
 * not say how many were dropped (libfdr counts none), so this is said
 * whenever the threshold could drop any (reader.md).
 */
static void put_threshold_note(FILE *f, const struct report *r)
{
	if (r->threshold_us > 0)
		fprintf(f, "# calls shorter than %ld us were not recorded (fdr record's "
			"threshold): fdr record --threshold 0 keeps every call\n",
			r->threshold_us);
}

void fdr__report_print_text(FILE *f, const struct report *r)
{
	put_threshold_note(f, r);
	fputs(r->sched ? "   Total time     Self time   On-CPU time      Runnable       Blocked"
		"       Calls  Function\n"
		"  ===========   ===========   ===========   ===========   ==========="
		"  ==========  ====================\n"
		: "   Total time     Self time       Calls  Function\n"
		"  ===========   ===========  ==========  ====================\n", f);
	for (size_t i = 0; i < r->nfuncs; i++) {
		const struct report_func *fn = &r->funcs[i];
		const uint64_t sched[] = { fn->sched.on_cpu, fn->sched.runnable, fn->sched.blocked };

		fputs(" ", f);
		put_time(f, fdr__report_ns(r, fn->total_ticks));
		fputs(" ", f);
		put_time(f, fdr__report_ns(r, fn->self_ticks));
		for (size_t k = 0; r->sched && k < 3; k++) {
			fputs(" ", f);
			put_time(f, fdr__report_ns(r, sched[k]));
		}
		fprintf(f, "  %10llu  %s\n", (unsigned long long)fn->calls, fn->name);
	}
	static const char *const orphan_words[] = {
		"exits whose entry the ring overwrote",
		"calls entered before the attach (only their exit is recorded)",
		"exits whose entry came before the attach or the ring overwrote",
	};

	if (r->open_calls || r->orphan_exits || r->unwound)
		fprintf(f, "# not counted: %llu calls open at the end (a crash, or still "
			"running at finalize), %llu %s, %llu frames closed by a deeper exit\n",
			(unsigned long long)r->open_calls, (unsigned long long)r->orphan_exits,
			orphan_words[r->attached], (unsigned long long)r->unwound);
	if (r->sched_unknown)
		fputs("# scheduling records were lost: time before a thread's first record is "
		      "in none of On-CPU, Runnable, Blocked\n", f);
	if (r->drop_places)
		fprintf(f, "# the writers dropped %llu records in %zu %s (no free buffer): the "
			"counts and times miss them\n", (unsigned long long)r->dropped,
			r->drop_places, r->drop_places == 1 ? "place" : "places");
	if (r->trigger)
		fprintf(f, "# the trigger ended the recording: %s (#%d) lasted %.3f ms "
			"(pid %d, tid %d)\n", r->trigger_name, r->trigger->fid,
			r->trigger->duration_ns / 1e6, r->trigger->pid, r->trigger->tid);
}

static void put_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void fdr__report_print_json(FILE *f, const struct report *r, const char *log)
{
	fputs("{\"log\":", f);
	put_json_string(f, log);
	fputs(",\"functions\":[", f);
	for (size_t i = 0; i < r->nfuncs; i++) {
		const struct report_func *fn = &r->funcs[i];

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		put_json_string(f, fn->name);
		fprintf(f, ",\"id\":%d,\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu",
			fn->fid, (unsigned long long)fn->calls,
			(unsigned long long)fdr__report_ns(r, fn->total_ticks),
			(unsigned long long)fdr__report_ns(r, fn->self_ticks));
		if (r->sched)
			fprintf(f, ",\"on_cpu_ns\":%llu,\"runnable_ns\":%llu,\"blocked_ns\":%llu,"
				"\"unknown_ns\":%llu",
				(unsigned long long)fdr__report_ns(r, fn->sched.on_cpu),
				(unsigned long long)fdr__report_ns(r, fn->sched.runnable),
				(unsigned long long)fdr__report_ns(r, fn->sched.blocked),
				(unsigned long long)fdr__report_ns(r, fn->sched.unknown));
		fputc('}', f);
	}
	fprintf(f, "],\n\"open_calls\":%llu,\"exits_without_entry\":%llu,"
		"\"frames_unwound\":%llu,\"sched\":\"%s\",\"dropped\":%llu",
		(unsigned long long)r->open_calls, (unsigned long long)r->orphan_exits,
		(unsigned long long)r->unwound, r->sched ? "recorded" : "none",
		(unsigned long long)r->dropped);
	if (r->threshold_us >= 0)
		fprintf(f, ",\"threshold_us\":%ld", r->threshold_us);
	else
		fputs(",\"threshold_us\":null", f);
	if (r->trigger) {
		fputs(",\n\"trigger\":{\"name\":", f);
		put_json_string(f, r->trigger_name);
		fprintf(f, ",\"id\":%d,\"duration_ns\":%llu,\"pid\":%d,\"tid\":%d}",
			r->trigger->fid, (unsigned long long)r->trigger->duration_ns,
			r->trigger->pid, r->trigger->tid);
	}
	fputs("}\n", f);
}
