/* SPDX-License-Identifier: MIT */
/*
 * sched_file.h - the ".sched" file next to a log: the kernel's scheduling
 * area (uapi/linux/fdr_sched.h) copied ring by ring with the h1/h2 rule,
 * merged into TSC order (ties by CPU) behind a struct fdr_sched_file
 * header (Documentation/format.md, "The scheduling file").
 *
 * The area is the kernel's and mapped read-only, but it is still read as
 * untrusted bytes: its header is copied once and every field is checked
 * against the length STATUS gave (sched_size) before any is used as an
 * offset or a count; a header that does not fit gives no file at all.
 */
#ifndef FDRD_SCHED_FILE_H
#define FDRD_SCHED_FILE_H

#include <stddef.h>
#include <stdint.h>

/* What the file says that the kernel's STATUS vouches for. */
struct sched_facts {
	uint32_t generation;	/* the area's must match */
	uint64_t tsc_hz;
	uint64_t sched_size;	/* the mapping's length must match */
};

struct sched_file {
	void *bytes;		/* header + records (malloc), NULL: none */
	size_t len;
	uint64_t nr_records;
	uint64_t records_lost;	/* numbered below the first one kept */
	uint32_t nr_cpus;
};

/*
 * Build the file's bytes from the len bytes mapped at area.  Returns 0,
 * -ENOMEM, or -EBADMSG with *why saying which field does not fit (no
 * bytes then).  Every record ring c ever got up to its head h1 is either
 * in the file or counted in records_lost.
 */
int sched_file_build(const void *area, size_t len, const struct sched_facts *facts,
		     struct sched_file *out, const char **why);

/*
 * The same, calling during_copy(arg, cpu) between copying ring cpu and
 * loading its head again: tests move a head there, as a CPU that still
 * records would.
 */
int sched_file_build_hooked(const void *area, size_t len,
			    const struct sched_facts *facts, struct sched_file *out,
			    const char **why, void (*during_copy)(void *arg, uint32_t cpu),
			    void *arg);

void sched_file_free(struct sched_file *f);

#endif /* FDRD_SCHED_FILE_H */
