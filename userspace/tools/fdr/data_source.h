/* SPDX-License-Identifier: MIT */
/*
 * data_source.h - find what `fdr record` left: the log, and what names its
 * functions: DIR's sym-maps (fdr-syms.*.map, written by fdr record for
 * XRay runs and by the -finstrument-functions hooks), or, for a DIR
 * without any, the XRay instrumentation map of the binary DIR/info names
 * when it is there with the recorded build-id.
 */
#ifndef FDR_DATA_SOURCE_H
#define FDR_DATA_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arg_spec.h"

struct symbols;

/* DIR/info's "finalized trigger" line: the call that ended the recording. */
struct data_trigger {
	bool fired;
	int32_t fid;
	uint64_t duration_ns;
	int32_t pid, tid;
};

struct data_source {
	char dir[PATH_MAX];
	char log[PATH_MAX + 64];
	bool have_info;
	char exe[PATH_MAX];
	char build_id[130];
	char instr[16];			/* xray, cyg, unknown */
	struct data_trigger trigger;
	long threshold_us;		/* calls shorter were not recorded; -1: not known */
	int attached;			/* fdr record -p: 0 no; 1 every exit without
					 * entry ran at the attach; 2 or the ring
					 * overwrote it */
	char **sym_maps;		/* DIR/fdr-syms.*.map: the names, preferred */
	size_t nsym_maps;
	struct arg_specs args;		/* DIR/info's "args" lines: fdr record -A/-R */
	bool exe_names;			/* no sym-map (a DIR of an older fdr):
					 * exe is there, with the recorded build-id */
};

/*
 * arg: a data directory, a log file, or NULL for ./fdr.data.  0, or 1 after
 * a message "fdr CMD: ..." naming the cause.
 */
int fdr__data_open(const char *cmd, const char *arg, struct data_source *ds);
void fdr__data_close(struct data_source *ds);

/* The names for the log (*out NULL: none known, said on stderr); 0. */
int fdr__data_symbols(const char *cmd, const struct data_source *ds, struct symbols **out);

#endif
