// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - module parameters, validated when they are set so that a
 * bad value is refused at insmod time (or by the sysfs write) instead of
 * surfacing later as a confusing INIT failure.
 */
#include <linux/cred.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>
#include <linux/uidgid.h>
#include "fdr_dev.h"

static unsigned long buffer_size = 65536;
static unsigned int buffers_per_cpu = 8;
static unsigned int dev_mode = 0600;
static unsigned int dev_gid;
static bool crash_finalize = true;
static unsigned int max_total_mb = 1024;
static unsigned int sched_ring_kb = 256;
static unsigned int max_user_sessions = 16;
static unsigned int max_user_mb = 1024;

static int fdr_set_buffer_size(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int err = kstrtoul(val, 0, &v);

	if (err)
		return err;
	if (!v || !IS_ALIGNED(v, PAGE_SIZE))
		return -EINVAL;
	WRITE_ONCE(*(unsigned long *)kp->arg, v);
	return 0;
}

static int fdr_set_nonzero_uint(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;
	if (!v)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int fdr_set_mode(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int err = kstrtouint(val, 8, &v);

	if (err)
		return err;
	if (v & ~0777u)
		return -EINVAL;
	*(unsigned int *)kp->arg = v;
	return 0;
}

static int fdr_get_mode(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "0%o\n", *(unsigned int *)kp->arg);
}

static const struct kernel_param_ops fdr_buffer_size_ops = {
	.set = fdr_set_buffer_size,
	.get = param_get_ulong,
};

static const struct kernel_param_ops fdr_nonzero_uint_ops = {
	.set = fdr_set_nonzero_uint,
	.get = param_get_uint,
};

static const struct kernel_param_ops fdr_mode_ops = {
	.set = fdr_set_mode,
	.get = fdr_get_mode,
};

module_param_cb(buffer_size, &fdr_buffer_size_ops, &buffer_size, 0644);
MODULE_PARM_DESC(buffer_size,
		 "default bytes per buffer, a non-zero page multiple (65536)");
module_param_cb(buffers_per_cpu, &fdr_nonzero_uint_ops, &buffers_per_cpu,
		0644);
MODULE_PARM_DESC(buffers_per_cpu, "default buffers per CPU, non-zero (8)");
module_param_cb(dev_mode, &fdr_mode_ops, &dev_mode, 0444);
MODULE_PARM_DESC(dev_mode, "mode of /dev/fdr, octal (0600)");
module_param(dev_gid, uint, 0444);
MODULE_PARM_DESC(dev_gid,
		 "group whose members may open /dev/fdr without CAP_SYS_ADMIN; 0: none (0)");
module_param(crash_finalize, bool, 0644);
MODULE_PARM_DESC(crash_finalize,
		 "finalize when a writer dies from a fatal signal, read at INIT (1)");
module_param_cb(max_total_mb, &fdr_nonzero_uint_ops, &max_total_mb, 0644);
MODULE_PARM_DESC(max_total_mb,
		 "memory of the live regions of all sessions, MiB (1024)");
module_param_cb(sched_ring_kb, &fdr_nonzero_uint_ops, &sched_ring_kb, 0644);
MODULE_PARM_DESC(sched_ring_kb,
		 "scheduling records kept per CPU, KiB of 32-byte records, read at INIT (256)");

module_param_cb(max_user_sessions, &fdr_nonzero_uint_ops, &max_user_sessions,
		0644);
MODULE_PARM_DESC(max_user_sessions,
		 "named sessions one uid may own at once (16)");
module_param_cb(max_user_mb, &fdr_nonzero_uint_ops, &max_user_mb, 0644);
MODULE_PARM_DESC(max_user_mb,
		 "memory of the live regions of one uid's sessions, MiB (1024)");

u64 fdr_param_buffer_size(void)
{
	return READ_ONCE(buffer_size);
}

u32 fdr_param_buffers_per_cpu(void)
{
	return READ_ONCE(buffers_per_cpu);
}

bool fdr_param_crash_finalize(void)
{
	return READ_ONCE(crash_finalize);
}

u64 fdr_param_max_total_bytes(void)
{
	return (u64)READ_ONCE(max_total_mb) << 20;
}

u64 fdr_param_sched_ring_bytes(void)
{
	return (u64)READ_ONCE(sched_ring_kb) << 10;
}

umode_t fdr_param_dev_mode(void)
{
	return dev_mode;
}

/* INVALID_GID when no group was configured. */
kgid_t fdr_param_dev_gid(void)
{
	return dev_gid ? make_kgid(&init_user_ns, dev_gid) : INVALID_GID;
}

u32 fdr_param_max_user_sessions(void)
{
	return READ_ONCE(max_user_sessions);
}

u64 fdr_param_max_user_bytes(void)
{
	return (u64)READ_ONCE(max_user_mb) << 20;
}
