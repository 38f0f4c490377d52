// SPDX-License-Identifier: MIT
/*
 * flush_log.c - `fdr record` is the flusher of its own run: fdrd's flush
 * (../../fdrd/flush.c: validation of every buffer, io_uring writes, the
 * side table, the .sched file, FLUSH_BEGIN/DONE/ABORT) runs in-process,
 * with no grace period since every writer has exited, into the staging
 * directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fdr_sched.h>

#include "flush.h"
#include "log_writer.h"
#include "record.h"

/* records, threads from the side table fdrd wrote next to the log */
void fdr__read_side_table(const char *log, struct flush_summary *sum)
{
	char path[PATH_MAX + 400], line[8192];
	unsigned long long recs;
	FILE *f;

	snprintf(path, sizeof(path), "%s.threads", log);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "thread\t", 7))
			sum->threads++;
		else if (sscanf(line, "buffers\t%*u\tdropped\t%*u\tcut\t%*u\trecords\t%llu",
				&recs) == 1)
			sum->records = recs;
	}
	fclose(f);
}

/* The counts of the .sched file fdrd wrote next to the log, if it did. */
void fdr__read_sched_header(const char *log, struct flush_summary *sum)
{
	char path[PATH_MAX + 400];
	struct fdr_sched_file h;
	FILE *f;

	snprintf(path, sizeof(path), "%s.sched", log);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fread(&h, sizeof(h), 1, f) == 1 && h.magic == FDR_SCHED_FILE_MAGIC) {
		sum->sched = true;
		sum->sched_records = h.nr_records;
		sum->sched_lost = h.records_lost;
	}
	fclose(f);
}

int fdr__flush_log(struct backend *b, const struct fdr_status *st, const char *dir,
		   struct flush_summary *sum)
{
	struct fdrd_options opts = {
		.pattern = FDR_LOG_NAME,
		.once = true,
	};
	/* read_fd: one flush from a fresh mapping (uring_source.c);
	 * FDR_FLUSH_MAPPED=1 reads the mapping instead, for bench/flush */
	struct flusher f = { .ctl = b->ctl, .opts = &opts,
			     .read_fd = !getenv("FDR_FLUSH_MAPPED") };
	enum flush_outcome out;

	log_write_defaults(&opts.write);	/* fdrd's: the same flush */
	memset(sum, 0, sizeof(*sum));
	sum->recycled = st->buffers_recycled;
	sum->dropped = st->records_dropped;
	snprintf(opts.output_dir, sizeof(opts.output_dir), "%s", dir);
	out = flush_region(&f, st);
	log_precheck_free(&f.precheck);
	switch (out) {
	case FLUSH_WRITTEN:
		sum->written = true;
		fdr__read_side_table(f.last_log, sum);
		fdr__read_sched_header(f.last_log, sum);
		return 0;
	case FLUSH_NOTHING:
		return 0;
	case FLUSH_NOT_OURS:
		fprintf(stderr, "fdr record: another flusher (a system fdrd?) took the "
			"region's flush; its log is wherever that flusher writes\n");
		return FDR_EXIT_FAILED;
	default:
		return FDR_EXIT_FAILED;	/* flush.c said why */
	}
}
