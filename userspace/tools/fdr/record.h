/* SPDX-License-Identifier: MIT */
/* record.h - the parts of `fdr record`, one job per file. */
#ifndef FDR_RECORD_H
#define FDR_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/types.h>

#include <fdr.h>

#include "arg_spec.h"
#include "elf_info.h"

struct symbols;

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

/* -A/-R/-a specs of shared-library functions, by symbol-table name: ids
 * there are given as the program loads the libraries (record_args.c). */
struct named_specs {
	char **name;
	struct arg_spec *spec;
	size_t n;
};

struct record_opts {
	const char *out_dir;		/* -o DIR */
	long threshold_us;		/* -1: libfdr's default */
	uint64_t buffer_size;
	uint32_t buffers_per_cpu;	/* -n; 0: backend.c's default */
	bool verbose;
	bool no_sched;			/* --no-sched: FDR_INIT_NO_SCHED */
	bool stream;			/* --stream: FDR_INIT_STREAM */
	bool no_libcall;		/* --no-libcall: no library calls */
	bool nest_libcall;		/* --nest-libcall: between libraries too */
	uint64_t trigger_ns;		/* --trigger DUR[:FUNC]; 0: no trigger */
	const char *trigger_func;	/* FUNC, NULL: any function */
	int32_t trigger_fid;		/* FUNC's id (record_filter.c), 0: any */
	const char *only[64];		/* -F: record only these functions */
	size_t nonly;
	const char *hide[64];		/* -N: record all but these */
	size_t nhide;
	const char *argspec[64];	/* -A/-R FUNC@SPEC, in order */
	char argopt[64];		/* 'A' or 'R', each */
	size_t nargspec;
	bool auto_args;			/* -a: every function's, from DWARF */
	struct arg_specs args;		/* what they name, by function id
					 * (record_args.c) */
	struct named_specs dso_args;	/* ... and in shared libraries */
	const char *patch[64];		/* -P: patch these functions' entries */
	size_t npatch;
	char **argv;			/* PROG ARGS..., NULL-terminated; with -p
					 * the process's command line */
	pid_t pid;			/* -p PID: attach to it; 0: run PROG */
	uint64_t duration_us;		/* --duration DUR with -p; 0: until stopped */
};

/* record_opts.c: -1 to run, else the exit status (help, usage error). */
int fdr__record_parse(int argc, char **argv, struct record_opts *o);

/* prog.c: PROG found and instrumented? */
struct prog {
	char path[PATH_MAX];		/* absolute */
	struct fdr_elf_info elf;
	bool script;			/* starts with #!: not checked */
	bool libcall_only;		/* not instrumented: library calls only */
};
/* 0, or the exit status after a message naming the cause and the fix. */
int fdr__prog_check(const char *name, struct prog *p, bool libcall);

/* libcall.c: where libfdr-plt.so is (0), and PROG's environment for it. */
int fdr__libcall_find(char *out, size_t outsz);
int fdr__libcall_env(const char *so, const char *libcall);

/* patch_opts.c: -P's patterns into the environment PROG inherits (0 or
 * the exit status after a message); after the run, what was patched. */
int fdr__patch_setup(const struct record_opts *o, const struct prog *p);
void fdr__patch_summary(const struct record_opts *o, const char *dir);
/* patch_dwarf.c: for -P, DIR/fdr-dwarf.<dev>.<ino>.txt, the function
 * entries of PROG's DWARF (and of the libraries a PATTERN@MODULE names)
 * when it has no .symtab; a message when one cannot be written. */
void fdr__patch_dwarf(const struct record_opts *o, const struct prog *p, const char *dir);

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

/* record_filter.c: the ids (at most max) of PROG's map that name names
 * (as fdr report prints it, or #id); 0 after a message "-OPT NAME: no
 * such function" with the closest names. */
int fdr__record_lookup(const struct symbols *s, const char *name, char opt, int32_t *fids,
		       size_t max);
/* record_filter.c: is name (not #id) in PROG's map (0), else in an XRay
 * library PROG links, or one it may dlopen() (1, its symbol-table name
 * into raw)?  Else the exit status after a message. */
int fdr__record_dso_name(const struct prog *p, const struct symbols *s, const char *name,
			 char opt, char *raw, size_t rawsz);

/* record_args.c: -A/-R/-a into o->args, and $FDR_XRAY_ARGS for the XRay
 * mode into *env (malloc'd, NULL if none); 0 or the exit status after a
 * message. */
int fdr__record_args(const struct prog *p, struct record_opts *o, char **env);
void fdr__record_args_free(struct record_opts *o);
/* record_args_dso.c: -a on the XRay libraries PROG links, into named. */
int fdr__auto_args_libs(const struct prog *p, struct named_specs *named);
/* record_args_dso.c: add s to name's spec as arg_specs_merge does; 0 or -1. */
int fdr__named_specs_merge(struct named_specs *all, const char *name, const struct arg_spec *s);
const struct arg_spec *fdr__named_specs_find(const struct named_specs *all, const char *name);
void fdr__named_specs_free(struct named_specs *all);
/* auto_args.c: -a, the spec of every function of syms (PROG's map) that
 * PROG's DWARF describes, into out; 0 or the exit status after a message. */
int fdr__auto_args(const struct prog *p, const struct symbols *syms, struct arg_specs *out);
/* ... of the object at path; quiet: no message when it has no DWARF (a
 * library), just FDR_EXIT_FAILED. */
int fdr__auto_args_path(const char *path, const struct symbols *syms, struct arg_specs *out,
			bool quiet);

/* record_filter.c: o->trigger_fid of o->trigger_func; 0 or the exit status. */
int fdr__record_trigger_fid(const struct prog *p, struct record_opts *o);
/* DIR/fdr-syms.xray.map naming the functions of an XRay PROG and of the
 * shared libraries the XRay mode patched (xray_objects.c). */
int fdr__xray_objects_names(const char *dir, const struct prog *p);
/* The ids the library functions of named got in the run, with their
 * specs, into out (for DIR/info's args lines); 0 or FDR_EXIT_FAILED. */
int fdr__xray_objects_args(const char *dir, const struct named_specs *named,
			   struct arg_specs *out);

/* record_args_plt.c: -A/-R on the library calls of a PROG not built
 * with fdr-cc: the names into named; after the run, the ids the calls
 * got (the sym-maps in dir) with their specs into out.  0 or the exit
 * status after a message. */
int fdr__record_args_plt(const struct record_opts *o, struct named_specs *named);
int fdr__libcall_args(const char *dir, const struct named_specs *named, struct arg_specs *out);

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
	const char *args;		/* $FDR_XRAY_ARGS, "" for none */
	const char *plt_args;		/* $FDR_PLT_ARGS (library calls), "" */
	long threshold_us;
	const char *symdir;
	const char *preload;		/* libfdr-plt.so, NULL: no library calls */
	const char *libcall;		/* $FDR_LIBCALL ("1", "nest"), NULL: none */
};
/* 0 with PROG's wait status once every descendant is gone, or the exit status. */
int fdr__run(const struct prog *p, char **argv, const struct run_env *env, int *wstatus);

/* env_fd.c: in PROG's child, fdr's variables into the memfd at FDR_ENV_FD
 * (fdr_env.h) for programs run with an environment of their own; 0 or -errno. */
int fdr__env_fd_pass(void);

/* attach_prog.c: with -p, PROG is the process's executable, o->argv its
 * command line; only an fdr-cc build (XRay or --gcc) can be attached.
 * -1 to go on, else the exit status after a message. */
int fdr__attach_prog(struct record_opts *o, struct prog *p);

/* attach_run.c: with -p, record the running process instead of running
 * PROG: attach, wait for a stop, detach.  0 or the exit status. */
int fdr__attach_run(const struct record_opts *o, const struct prog *p,
		    const struct run_env *env, struct backend *b);

/* attach_symmap.c: an attached --gcc program's sym-map, opened through
 * /proc/PID/fd (-1: none open yet), copied into DIR at the end (0, or
 * the exit status after a message; none at all is only a note). */
int fdr__attach_symmap_open(pid_t pid);
int fdr__attach_symmap_copy(int fd, pid_t pid, const char *dir);

/* flush_log.c: write the finalized region as DIR/log.xray + .threads (+ .sched). */
struct flush_summary {
	bool written;
	uint64_t records, threads, recycled, dropped;
	bool sched;			/* log.xray.sched written */
	uint64_t sched_records, sched_lost;
	bool stream_wait_known;		/* --stream: its thread's run-queue wait */
	uint64_t stream_wait_ns, stream_gap_ns;	/* and the longest gap between looks */
	uint64_t stream_write_ns;		/* and its longest append */
	bool stream_rt;			/* its thread had SCHED_FIFO (stream_sched.h) */
	int stream_error;		/* -errno that stopped the stream mid-run (disk
					 * full, ulimit -f): the log holds what came
					 * before; 0: none */
};
int fdr__flush_log(struct backend *b, const struct fdr_status *st, const char *dir,
		   struct flush_summary *sum);
/* What the side files of the log just written say, into *sum. */
void fdr__read_side_table(const char *log, struct flush_summary *sum);
void fdr__read_sched_header(const char *log, struct flush_summary *sum);

/*
 * flush_stream.c: with --stream, the log is written while PROG runs, by a
 * thread of fdr's that owns the region's stream flush from before PROG
 * starts; it ends after the finalize.  0 or the exit status; 0 also when
 * a write stopped the stream mid-run but the log of what came before was
 * named (sum->stream_error says why it stopped).
 */
struct stream_run;
int fdr__stream_start(struct backend *b, const char *dir, struct stream_run **out);
int fdr__stream_finish(struct stream_run *s, const struct fdr_status *st,
		       struct flush_summary *sum);

/* host_facts.c: the machine, for DIR/info ("-" where a fact is unknown). */
struct host_facts {
	char hostname[256];
	char kernel[512];		/* uname: sysname release version machine */
	char cpu[256];			/* /proc/cpuinfo's model name */
	long ncpus;			/* online */
	char distro[256];		/* /etc/os-release's PRETTY_NAME */
};
void fdr__host_facts(struct host_facts *h);

/* What cmd_record.c measured of PROG's run, for DIR/info. */
struct run_facts {
	char **cmdline;			/* fdr's own: "record" and its options */
	struct timespec started;	/* CLOCK_REALTIME at PROG's start */
	uint64_t elapsed_ns;		/* start to the last descendant's exit */
	int wstatus;			/* PROG's */
	struct rusage usage;		/* PROG and every descendant reaped */
};

/*
 * info_file.c: DIR/info, what `fdr report` needs to name functions and
 * what `fdr info` shows of the run.
 */
int fdr__info_write(const char *dir, const struct prog *p, const struct record_opts *o,
		    const struct backend *b, const struct fdr_status *st,
		    const struct flush_summary *sum, const struct run_facts *run,
		    const struct arg_specs *dso_args);

/*
 * info_read.c: each "key<TAB>value" line of DIR/info, the value
 * unescaped, to fn (which may keep neither pointer); stops at fn's first
 * non-zero return and returns it.  -1 with errno when DIR/info cannot be
 * read.
 */
int fdr__info_read(const char *dir, int (*fn)(const char *key, const char *value, void *arg),
		   void *arg);

/* msg.c */
void fdr__msg_set_prefix(const char *prefix);
void fdr__msg_set_verbose(bool on);

int fdr__cmd_record(int argc, char **argv);

#endif
