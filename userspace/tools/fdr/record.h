/* SPDX-License-Identifier: MIT */
/* record.h - the parts of `fdr record`, one job per file. */
#ifndef FDR_RECORD_H
#define FDR_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fdr.h>

#include "elf_info.h"

#define FDR_DEFAULT_DATA_DIR	"fdr.data"
#define FDR_LOG_NAME		"log.xray"
#define FDR_INFO_NAME		"info"
/* libfdr's func_duration_threshold_us when none is given (DEFAULT_THRESHOLD_US
 * in lib/record/options.c): what DIR/info's "threshold_us default" means. */
#define FDR_LIBFDR_THRESHOLD_US	5
/* Exit statuses of fdr itself, as env(1) and timeout(1) use them. */
#define FDR_EXIT_FAILED		125	/* fdr record could not do its job */
#define FDR_EXIT_CANNOT_EXEC	126
#define FDR_EXIT_NOT_FOUND	127

struct record_opts {
	const char *out_dir;		/* -o DIR */
	long threshold_us;		/* -1: libfdr's default */
	uint64_t buffer_size;
	uint32_t buffers_per_cpu;
	bool verbose;
	bool no_sched;			/* --no-sched: FDR_INIT_NO_SCHED */
	bool stream;			/* --stream: FDR_INIT_STREAM */
	uint64_t trigger_ns;		/* --trigger DUR[:FUNC]; 0: no trigger */
	const char *trigger_func;	/* FUNC, NULL: any function */
	int32_t trigger_fid;		/* FUNC's id (record_filter.c), 0: any */
	const char *only[64];		/* -F: record only these functions */
	size_t nonly;
	const char *hide[64];		/* -N: record all but these */
	size_t nhide;
	char **argv;			/* PROG ARGS..., NULL-terminated */
};

/* record_opts.c: -1 to run, else the exit status (help, usage error). */
int fdr__record_parse(int argc, char **argv, struct record_opts *o);

/* prog.c: PROG found and instrumented? */
struct prog {
	char path[PATH_MAX];		/* absolute */
	struct fdr_elf_info elf;
	bool script;			/* starts with #!: not checked */
};
/* 0, or the exit status after a message naming the cause and the fix. */
int fdr__prog_check(const char *name, struct prog *p);

/* record_filter.c: $FDR_XRAY_FUNCTIONS for -F/-N ("" if none); 0 or the exit status. */
int fdr__record_filter(const struct prog *p, const struct record_opts *o,
		       char *out, size_t outsz, char *dso, size_t dsosz);

/* prog_libs.c: the shared libraries PROG links, resolved by the loader. */
struct prog_libs {
	char **path;			/* absolute */
	size_t n;
};
/* 0 (l->n may be 0: static, or nothing resolved) or -errno; free with _free. */
int fdr__prog_libs(const char *prog, struct prog_libs *l);
void fdr__prog_libs_free(struct prog_libs *l);

/* record_filter.c: o->trigger_fid of o->trigger_func; 0 or the exit status. */
int fdr__record_trigger_fid(const struct prog *p, struct record_opts *o);
/* DIR/fdr-syms.xray.map naming the functions of PROG and of the shared
 * libraries the XRay mode patched, when it patched any (xray_objects.c). */
int fdr__xray_objects_names(const char *dir, const struct prog *p);

/* data_dir.c: DIR is written as a whole or not at all. */
struct data_dir {
	char final[PATH_MAX];		/* DIR, absolute */
	char staging[PATH_MAX];		/* hidden sibling, renamed to DIR at the end */
};
int fdr__data_dir_begin(struct data_dir *d, const char *dir);
int fdr__data_dir_commit(struct data_dir *d);
void fdr__data_dir_abort(struct data_dir *d);

/* backend.c: the region this run records into. */
struct backend {
	struct fdr_ctl *ctl;
	char target[96];		/* FDR_TARGET for PROG */
	bool embedded;
	bool session;			/* a named session of /dev/fdr, ours */
};
int fdr__backend_open(struct backend *b, const struct record_opts *o);
/* Finalize (unless the kernel did for a crash); *st is the status after. */
int fdr__backend_finalize(struct backend *b, struct fdr_status *st);
/* Give the region back: RESET the device, remove the embedded object. */
void fdr__backend_close(struct backend *b);

/* run.c: PROG under the recording environment, and all its descendants. */
struct run_env {
	const char *target;
	const char *functions;		/* $FDR_XRAY_FUNCTIONS, "" for all */
	const char *dso_functions;	/* $FDR_XRAY_DSO_FUNCTIONS, "" for all */
	long threshold_us;
	const char *symdir;
};
/* 0 with PROG's wait status once every descendant is gone, or the exit status. */
int fdr__run(const struct prog *p, char **argv, const struct run_env *env, int *wstatus);

/* flush_log.c: write the finalized region as DIR/log.xray + .threads (+ .sched). */
struct flush_summary {
	bool written;
	uint64_t records, threads, recycled, dropped;
	bool sched;			/* log.xray.sched written */
	uint64_t sched_records, sched_lost;
};
int fdr__flush_log(struct backend *b, const struct fdr_status *st, const char *dir,
		   struct flush_summary *sum);
/* What the side files of the log just written say, into *sum. */
void fdr__read_side_table(const char *log, struct flush_summary *sum);
void fdr__read_sched_header(const char *log, struct flush_summary *sum);

/*
 * flush_stream.c: with --stream, the log is written while PROG runs, by a
 * thread of fdr's that owns the region's stream flush from before PROG
 * starts; it ends after the finalize.  0 or the exit status.
 */
struct stream_run;
int fdr__stream_start(struct backend *b, const char *dir, struct stream_run **out);
int fdr__stream_finish(struct stream_run *s, const struct fdr_status *st,
		       struct flush_summary *sum);

/* info_file.c: DIR/info, what `fdr report` needs to name functions. */
int fdr__info_write(const char *dir, const struct prog *p, char **argv,
		    const struct backend *b, const struct record_opts *o,
		    const struct fdr_status *st, const struct flush_summary *sum);

/* msg.c */
void fdr__msg_set_prefix(const char *prefix);
void fdr__msg_set_verbose(bool on);

int fdr__cmd_record(int argc, char **argv);

#endif
