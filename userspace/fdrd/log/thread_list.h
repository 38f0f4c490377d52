/* SPDX-License-Identifier: MIT */
/*
 * thread_list.h - the threads of a log for its side table: each (tid,
 * pid) of the buffers once, in order of its first buffer, with its
 * number of buffers, the command and executable of the first valid owner
 * note among its buffers (owner_note.h), and its process's command and
 * executable read from /proc once per process, for threads without one.  O(n log n) in buffers: a region can hold
 * hundreds of thousands of threads.
 */
#ifndef FDRD_THREAD_LIST_H
#define FDRD_THREAD_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "log_layout.h"

struct thread_row {
	int32_t tid, pid;
	size_t buffers;
	size_t first;			/* index of its first buffer */
	const struct proc_facts *proc;	/* comm and exe of pid */
	char *note_comm, *note_exe;	/* from an owner note, or NULL */
};

struct proc_facts {
	int32_t pid;
	char comm[64];		/* "unknown" if the process is gone */
	char *exe;		/* "unknown" likewise */
};

struct thread_list {
	struct thread_row *rows;
	size_t nr_rows;
	struct proc_facts *procs;	/* sorted by pid */
	size_t nr_procs;
};

/* 0, or -ENOMEM.  proc_root: "/proc", or a fake tree in tests. */
int thread_list_build(struct thread_list *t, const struct log_layout *l,
		      const char *proc_root);
void thread_list_free(struct thread_list *t);

/* /proc/<pid>/comm without its newline, or "unknown". */
void thread_list_read_comm(const char *proc_root, int32_t pid, char *out, size_t len);

#endif /* FDRD_THREAD_LIST_H */
