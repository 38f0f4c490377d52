// SPDX-License-Identifier: MIT
/*
 * logcheck.c - the stress checks on a log outside the driver: used by
 * vm-check on the logs the VM kept.
 *
 *   logcheck LOG [TALLY]
 *
 * TALLY is the driver's text dump "generation uid first_k last_k" per
 * line (LOG.tally).  Exit 0 if the log scans, holds only the writers'
 * pattern and every tally range; else 1 with the reason on stderr.  As
 * in the driver (log_judge.c), LOG.threads must carry the ring's
 * counters: a ring that recycled buffers or dropped records is held to
 * the pattern with lost buffers allowed, and not to the tally.
 */
#include <stdio.h>
#include <stdlib.h>
#include "log_check.h"
#include "log_scan.h"
#include "ring_facts.h"
#include "tally.h"

static struct tally *load_tally(const char *path, uint32_t *gen)
{
	struct tally *t = tally_create(1u << 20);
	unsigned long long first, last;
	unsigned g, uid;
	FILE *f = fopen(path, "r");

	if (!t || !f) {
		if (f)
			fclose(f);
		return NULL;
	}
	while (fscanf(f, "%u %u %llu %llu", &g, &uid, &first, &last) == 4) {
		*gen = g;
		tally_append(t, uid, g, first, last);
	}
	fclose(f);
	return t;
}

int main(int argc, char **argv)
{
	struct check_result r = { 0 };
	struct ring_facts ring;
	struct scan_log scan;
	struct tally *t = NULL;
	uint32_t gen = 0;
	bool lossy;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: logcheck LOG [TALLY]\n");
		return 2;
	}
	ret = scan_log_file(argv[1], &scan);
	if (ret) {
		fprintf(stderr, "%s: %s\n", argv[1], ret == -1 ? scan.error : "cannot read");
		return 1;
	}
	if (!ring_facts_read(argv[1], &ring)) {
		fprintf(stderr, "%s.threads: no buffers_recycled/records_dropped lines\n", argv[1]);
		return 1;
	}
	lossy = ring_facts_lossy(&ring);
	check_pattern(&scan, lossy, &r);
	if (argc == 3 && lossy) {
		fprintf(stderr, "%s: the ring recycled %llu buffers, dropped %llu records: tally not checked\n",
			argv[1], (unsigned long long)ring.buffers_recycled,
			(unsigned long long)ring.records_dropped);
	} else if (argc == 3) {
		t = load_tally(argv[2], &gen);
		if (!t) {
			fprintf(stderr, "%s: cannot read\n", argv[2]);
			return 1;
		}
		check_tally(t, 0, gen, &r);
	}
	if (r.failures)
		fprintf(stderr, "%s: %llu failures, first: %s\n", argv[1],
			(unsigned long long)r.failures, r.first_failure);
	else
		fprintf(stderr, "%s: %llu records, %llu pairs, %llu confirmed ranges\n",
			argv[1], (unsigned long long)scan.records,
			(unsigned long long)r.pairs,
			(unsigned long long)r.confirmed_ranges);
	ret = r.failures ? 1 : 0;
	check_result_free(&r);
	scan_log_free(&scan);
	return ret;
}
