// SPDX-License-Identifier: MIT
/* scribble_expect.c - see scribble_expect.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fdr_log.h>
#include "log_scan.h"
#include "pattern.h"
#include "scribble_expect.h"

/* The writer pair an Exit belongs to: the outer ids of pattern.h are
 * distinct for the few uids and pairs of the scribble test. */
static bool pair_of_fid(uint32_t fid, uint32_t writers, uint64_t pairs,
			uint32_t *uid, uint64_t *k)
{
	for (uint32_t u = 1; u <= writers; u++) {
		uint64_t first = pattern_outer(u, 0);

		if (fid >= first && fid - first < pairs &&
		    pattern_outer(u, fid - first) == fid) {
			*uid = u;
			*k = fid - first;
			return true;
		}
	}
	return false;
}

/* seen[(uid-1) * pairs + k]: bit 0 the EnterArg with its argument, bit 1 the Exit */
static void mark(const struct scan_event *ev, uint32_t writers, uint64_t pairs,
		 uint8_t *seen)
{
	uint32_t u = (uint32_t)(ev->arg >> 32);
	uint64_t k = (uint32_t)ev->arg;

	if (ev->kind == FDR_FN_ENTER_ARG && ev->has_arg) {
		if (u >= 1 && u <= writers && k < pairs && ev->fid == pattern_outer(u, k))
			seen[(u - 1) * pairs + k] |= 1;
	} else if (ev->kind == FDR_FN_EXIT &&
		   pair_of_fid(ev->fid, writers, pairs, &u, &k)) {
		seen[(u - 1) * pairs + k] |= 2;
	}
}

size_t expect_missing_pairs(const char *log, uint32_t writers, uint64_t pairs)
{
	size_t total = (size_t)writers * pairs, missing = 0;
	uint8_t *seen = calloc(total ? total : 1, 1);
	struct scan_log scan;

	if (!seen || scan_log_file(log, &scan) != 0) {
		free(seen);
		return total;
	}
	for (size_t i = 0; i < scan.nr_ev; i++)
		mark(&scan.ev[i], writers, pairs, seen);
	for (size_t i = 0; i < total; i++)
		missing += seen[i] != 3;
	scan_log_free(&scan);
	free(seen);
	return missing;
}

bool expect_header(const char *log, const struct fdr_status *st, char *why,
		   size_t len)
{
	struct fdr_log_header h;
	uint32_t flags = (st->flags & FDR_CTL_CONSTANT_TSC ? FDR_LOG_FLAG_CONSTANT_TSC : 0) |
			 (st->flags & FDR_CTL_NONSTOP_TSC ? FDR_LOG_FLAG_NONSTOP_TSC : 0);
	FILE *f = fopen(log, "rb");
	bool ok = f && fread(&h, sizeof(h), 1, f) == 1;

	if (f)
		fclose(f);
	if (!ok) {
		snprintf(why, len, "cannot read the header");
		return false;
	}
	snprintf(why, len, "cycle frequency %llu, flags %u; the kernel's %llu, %u",
		 (unsigned long long)h.cycle_frequency, h.flags,
		 (unsigned long long)st->tsc_hz, flags);
	return h.cycle_frequency == st->tsc_hz && h.flags == flags;
}

static const char *reason_name(uint32_t reason)
{
	switch (reason) {
	case FDR_FINALIZE_NONE: return "none";
	case FDR_FINALIZE_IOCTL: return "ioctl";
	case FDR_FINALIZE_CRASH: return "crash";
	case FDR_FINALIZE_TRIGGER: return "trigger";	/* fdrd's log_name_reason() */
	}
	return "unknown";
}

/* "generation\tN" and "finalize\tREASON\tsignal\tN\tNAME\tpid\tN..." */
static int read_side_table(const char *log, unsigned *gen, char reason[16],
			   unsigned *sig, int *pid)
{
	char path[600], line[512];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s.threads", log);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "generation\t%u", gen) == 1)
			found |= 1;
		if (sscanf(line, "finalize\t%15[^\t]\tsignal\t%u\t%*[^\t]\tpid\t%d",
			   reason, sig, pid) == 3)
			found |= 2;
	}
	if (f)
		fclose(f);
	return found;
}

bool expect_side_table(const char *log, const struct fdr_status *st, char *why,
		       size_t len)
{
	char reason[16] = "";
	unsigned gen = 0, sig = 0;
	int pid = 0;

	if (read_side_table(log, &gen, reason, &sig, &pid) != 3) {
		snprintf(why, len, "no generation or finalize line in %s.threads", log);
		return false;
	}
	snprintf(why, len, "generation %u, finalize %s signal %u pid %d; "
		 "the kernel's %u, %s signal %u pid %d", gen, reason, sig, pid,
		 st->generation, reason_name(st->finalize_reason),
		 st->finalize_signal, st->finalize_pid);
	return gen == st->generation && !strcmp(reason, reason_name(st->finalize_reason)) &&
	       sig == st->finalize_signal && pid == st->finalize_pid;
}
