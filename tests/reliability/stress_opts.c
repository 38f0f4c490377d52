// SPDX-License-Identifier: MIT
/* stress_opts.c - see stress_opts.h. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "stress_opts.h"

static const char usage[] =
"usage: stress [OPTION]...\n"
"Writer processes with churning threads record into a region while fdrd\n"
"--auto-reset flushes cycle after cycle; writers are SIGKILLed at random.\n"
"Every log is verified and checked against what the writers confirmed.\n"
"TAP on stdout.\n\n"
"  --target T           region (default embedded:rel-stress-PID; /dev/fdr in the VM)\n"
"  --out DIR            where fdrd writes (default: a new temporary directory)\n"
"  --procs N            writer processes (2)\n"
"  --threads N          writer threads per process (8)\n"
"  --seconds N          run time (20)\n"
"  --cycles N           stop after N cycles (0: no limit)\n"
"  --cycle-ms MIN:MAX   time between finalizes (80:300)\n"
"  --kill-percent P     chance a cycle SIGKILLs a writer (50)\n"
"  --buffer-size N      bytes per buffer (16384)\n"
"  --buffers-per-cpu N  (512)\n"
"  --batch N            pairs between two publish checks (16)\n"
"  --batch-sleep-us N   pause after a batch (2000)\n"
"  --lifetime MIN:MAX   batches a thread lives (10:300)\n"
"  --grace-ms N         fdrd's grace period (20)\n"
"  --keep N             keep the first N logs besides failing ones (0; VM: 2)\n"
"  --export DIR         copy kept logs there (VM: /out/reliability)\n"
"  --hold-check         confirm batches by buffer ownership (always on a device)\n"
"  --no-crash-finalize  INIT without crash finalize (device)\n"
"  --seed N             random seed (default: time)\n";

static int range(const char *s, unsigned *lo, unsigned *hi)
{
	char *end;

	*lo = (unsigned)strtoul(s, &end, 10);
	if (*end != ':')
		return -1;
	*hi = (unsigned)strtoul(end + 1, &end, 10);
	return *end || *hi < *lo ? -1 : 0;
}

/* argv0: installed in the VM as ...-no-crash-finalize, the program runs
 * that variant (VM test programs get no arguments). */
static void defaults(struct stress_opts *o, const char *argv0)
{
	memset(o, 0, sizeof(*o));
	o->no_crash_finalize = strstr(argv0, "no-crash-finalize") != NULL;
	if (getenv("FDR_VM") && access("/dev/fdr", F_OK) == 0) {
		snprintf(o->target, sizeof(o->target), "/dev/fdr");
		/* two logs for the host's llvm-xray (vm-check) */
		if (access("/out", W_OK) == 0) {
			snprintf(o->export_dir, sizeof(o->export_dir), "/out/reliability");
			o->keep = 2;
		}
	} else
		snprintf(o->target, sizeof(o->target), "embedded:rel-stress-%d",
			 (int)getpid());
	o->procs = 2;
	o->threads = 8;
	o->seconds = 20;
	o->min_cycle_ms = 80;
	o->max_cycle_ms = 300;
	o->kill_percent = 50;
	o->buffer_size = 16384;
	o->buffers_per_cpu = 512;
	o->batch = 16;
	o->batch_sleep_us = 2000;
	o->min_batches = 10;
	o->max_batches = 300;
	o->grace_ms = 20;
	o->seed = (unsigned)time(NULL) ^ (unsigned)getpid();
}

int stress_opts_parse(struct stress_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "target", 1, 0, 't' }, { "out", 1, 0, 'o' },
		{ "procs", 1, 0, 'p' }, { "threads", 1, 0, 'T' },
		{ "seconds", 1, 0, 's' }, { "cycles", 1, 0, 'c' },
		{ "cycle-ms", 1, 0, 'C' }, { "kill-percent", 1, 0, 'k' },
		{ "buffer-size", 1, 0, 'b' }, { "buffers-per-cpu", 1, 0, 'B' },
		{ "batch", 1, 0, 'n' }, { "batch-sleep-us", 1, 0, 'u' },
		{ "lifetime", 1, 0, 'l' }, { "grace-ms", 1, 0, 'g' },
		{ "keep", 1, 0, 'K' }, { "export", 1, 0, 'E' }, { "hold-check", 0, 0, 'H' },
		{ "no-crash-finalize", 0, 0, 'N' }, { "seed", 1, 0, 'S' },
		{ "help", 0, 0, 'h' }, { 0, 0, 0, 0 } };
	int c, bad = 0;

	defaults(o, argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't': snprintf(o->target, sizeof(o->target), "%s", optarg); break;
		case 'o': snprintf(o->out, sizeof(o->out), "%s", optarg); break;
		case 'p': o->procs = (unsigned)atoi(optarg); break;
		case 'T': o->threads = (unsigned)atoi(optarg); break;
		case 's': o->seconds = (unsigned)atoi(optarg); break;
		case 'c': o->max_cycles = (unsigned)atoi(optarg); break;
		case 'C': bad |= range(optarg, &o->min_cycle_ms, &o->max_cycle_ms); break;
		case 'k': o->kill_percent = (unsigned)atoi(optarg); break;
		case 'b': o->buffer_size = strtoull(optarg, NULL, 0); break;
		case 'B': o->buffers_per_cpu = (uint32_t)atoi(optarg); break;
		case 'n': o->batch = (unsigned)atoi(optarg); break;
		case 'u': o->batch_sleep_us = (unsigned)atoi(optarg); break;
		case 'l': bad |= range(optarg, &o->min_batches, &o->max_batches); break;
		case 'g': o->grace_ms = (unsigned)atoi(optarg); break;
		case 'K': o->keep = (unsigned)atoi(optarg); break;
		case 'E': snprintf(o->export_dir, sizeof(o->export_dir), "%s", optarg); break;
		case 'H': o->hold_check = true; break;
		case 'N': o->no_crash_finalize = true; break;
		case 'S': o->seed = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'h': fputs(usage, stdout); return 1;
		default: bad = 1;
		}
	}
	if (bad || optind != argc || !o->procs || !o->threads || !o->batch ||
	    !o->min_batches) {
		fputs(usage, stderr);
		return 2;
	}
	return 0;
}
