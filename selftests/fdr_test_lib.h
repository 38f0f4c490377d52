/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fdr_test_lib.h - helpers shared by the /dev/fdr selftests: driving the
 * device through its ioctls, mapping the region, reading sysfs, running
 * code in a child process.  Every function returns 0 / a value on
 * success and a negative errno on failure, so tests can ASSERT on both.
 */
#ifndef FDR_TEST_LIB_H
#define FDR_TEST_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/fdr.h>

#define FDRT_DEV	"/dev/fdr"
#define FDRT_KO		"/lib/fdr/fdr.ko"
#define FDRT_PARAMS	"/sys/module/fdr/parameters/"

/* open(/dev/fdr, O_RDWR | O_CLOEXEC): the fd or -errno. */
int fdrt_open(void);
int fdrt_ioctl(int fd, unsigned long cmd);	/* 0 or -errno */
int fdrt_status(int fd, struct fdr_status *st);
int fdrt_init(int fd, uint64_t buffer_size, uint32_t buffers_per_cpu,
	      uint32_t flags);
/* INIT (size VER1, FDR_INIT_NO_SCHED) with a latency trigger: 0 or -errno. */
int fdrt_init_trigger(int fd, uint64_t buffer_size, uint32_t buffers_per_cpu,
		      uint64_t trigger_ns, int32_t trigger_fid,
		      uint32_t holdoff_ms);
/* FDR_IOC_TRIGGER with @flags, @fid and @duration_ns: 0 or -errno. */
int fdrt_trigger(int fd, uint32_t flags, int32_t fid, uint64_t duration_ns);
/* INIT with the module's default geometry. */
int fdrt_init_default(int fd, uint32_t flags);
/* Whatever the state, bring the device back to UNINITIALIZED. */
int fdrt_to_uninitialized(int fd);

/*
 * FDR_IOC_SESSION_CREATE (@cmd) or _ATTACH of session @name on @fd, with
 * @flags and @gid: 0 or -errno.  fdrt_session_new() opens a fresh file
 * and creates @name on it: the fd or -errno.
 */
int fdrt_session(int fd, unsigned long cmd, const char *name, uint32_t flags,
		 uint32_t gid);
/* ATTACH to @owner_uid's session @name (FDR_SESSION_OWNER); 0 or -errno. */
int fdrt_attach_owner(int fd, const char *name, uint32_t owner_uid);
/* Drop to @uid with @gid as its only group (none when 0): 0 or -1. */
int fdrt_become(uid_t uid, gid_t gid);
/* Run @fn(@arg) in a child: its exit code, or 200 + its signal. */
int fdrt_child_result(int (*fn)(void *), void *arg);
int fdrt_session_new(const char *name);
/* FDR_IOC_SESSION_INFO for the @index-th visible session: 0 or -errno. */
int fdrt_session_info(int fd, uint32_t index, struct fdr_session_info *info);
/* How many sessions the caller sees (the INFO calls that succeed). */
int fdrt_session_count(int fd);

/* The whole region, MAP_SHARED with @prot; NULL with errno set. */
void *fdrt_map(int fd, int prot, size_t *len);
struct fdr_buffer_desc *fdrt_desc(void *ctl, uint32_t i);
struct fdr_cpu_ring *fdrt_ring(void *ctl, uint32_t cpu);

/* A module parameter from sysfs as a number; -errno if unreadable. */
long long fdrt_param(const char *name);
/* Write a module parameter through sysfs: 0 or -errno. */
int fdrt_write_param(const char *name, long long v);
/* NUMA node sysfs shows for @cpu; -1 if it shows none. */
int fdrt_cpu_node(unsigned int cpu);
/* 1 + the highest possible CPU id (/sys/devices/system/cpu/possible). */
int fdrt_nr_possible_cpus(void);
/* Is @flag in the "flags" line of /proc/cpuinfo? */
int fdrt_cpuinfo_has(const char *flag);

/* Run fn(arg) in a child; its return value is the exit code. */
pid_t fdrt_spawn(int (*fn)(void *), void *arg);
/* waitpid(): the raw status, or -errno. */
int fdrt_wait(pid_t pid);

/* finit_module(FDRT_KO, params) and delete_module("fdr", O_NONBLOCK). */
int fdrt_load_module(const char *params);
int fdrt_unload_module(void);

/*
 * Free memory in KiB, counting the pages parked on the per-CPU free lists
 * (which MemFree leaves out, and which would blur a freed region):
 * /proc/zoneinfo's "pages free" plus every pageset's "count:".
 */
long long fdrt_mem_free_kib(void);

/* Poll until *word == want or @ms pass; 0 or -ETIMEDOUT. */
int fdrt_wait_u32(const volatile uint32_t *word, uint32_t want, int ms);

#endif /* FDR_TEST_LIB_H */
