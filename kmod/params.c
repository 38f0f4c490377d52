// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - module parameters, validated when they are set so that a
 * bad value is refused at insmod time (or by the sysfs write) instead of
 * surfacing later as a confusing INIT failure.
 *
 * Every writable parameter has an upper bound as well as a lower one, so
 * that no value a writer can set makes a size the INIT arithmetic cannot
 * hold; an INIT reads each one once (fdr_init_params_read()) and uses
 * only that copy, so a write in the middle of an INIT changes nothing it
 * does.
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
static unsigned int max_user_mb = 256;
static unsigned int max_user_sched = 4;

/* The bounds of the writable parameters (abi.md, "Module parameters"). */
#define FDR_PARAM_BUFFER_SIZE_MAX	(1ul << 30)	/* 1 GiB */
#define FDR_PARAM_BUFFERS_PER_CPU_MAX	65536u
#define FDR_PARAM_MB_MAX		(1u << 20)	/* 1 TiB */
#define FDR_PARAM_SCHED_RING_KB_MAX	65536u		/* 2^21 records */
#define FDR_PARAM_USER_SESSIONS_MAX	4096u

static int fdr_set_buffer_size(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int err = kstrtoul(val, 0, &v);

	if (err)
		return err;
	if (!v || !IS_ALIGNED(v, PAGE_SIZE) || v > FDR_PARAM_BUFFER_SIZE_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned long *)kp->arg, v);
	return 0;
}

/* A uint parameter in [1, max]; max is the ops' private bound. */
static int fdr_set_bounded_uint(const char *val, const struct kernel_param *kp,
				unsigned int max)
{
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;
	if (!v || v > max)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int fdr_set_buffers_per_cpu(const char *val,
				   const struct kernel_param *kp)
{
	return fdr_set_bounded_uint(val, kp, FDR_PARAM_BUFFERS_PER_CPU_MAX);
}

static int fdr_set_mb(const char *val, const struct kernel_param *kp)
{
	return fdr_set_bounded_uint(val, kp, FDR_PARAM_MB_MAX);
}

static int fdr_set_sched_ring_kb(const char *val,
				 const struct kernel_param *kp)
{
	return fdr_set_bounded_uint(val, kp, FDR_PARAM_SCHED_RING_KB_MAX);
}

static int fdr_set_user_sessions(const char *val,
				 const struct kernel_param *kp)
{
	return fdr_set_bounded_uint(val, kp, FDR_PARAM_USER_SESSIONS_MAX);
}

static int fdr_set_user_sched(const char *val, const struct kernel_param *kp)
{
	return fdr_set_bounded_uint(val, kp, FDR_SCHED_SLOTS);
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

#define FDR_UINT_PARAM_OPS(name, setter)				\
	static const struct kernel_param_ops name = {			\
		.set = setter,						\
		.get = param_get_uint,					\
	}

FDR_UINT_PARAM_OPS(fdr_buffers_per_cpu_ops, fdr_set_buffers_per_cpu);
FDR_UINT_PARAM_OPS(fdr_mb_ops, fdr_set_mb);
FDR_UINT_PARAM_OPS(fdr_sched_ring_kb_ops, fdr_set_sched_ring_kb);
FDR_UINT_PARAM_OPS(fdr_user_sessions_ops, fdr_set_user_sessions);
FDR_UINT_PARAM_OPS(fdr_user_sched_ops, fdr_set_user_sched);

static const struct kernel_param_ops fdr_mode_ops = {
	.set = fdr_set_mode,
	.get = fdr_get_mode,
};

module_param_cb(buffer_size, &fdr_buffer_size_ops, &buffer_size, 0644);
MODULE_PARM_DESC(buffer_size,
		 "default bytes per buffer, a non-zero page multiple, at most 1 GiB (65536)");
module_param_cb(buffers_per_cpu, &fdr_buffers_per_cpu_ops, &buffers_per_cpu,
		0644);
MODULE_PARM_DESC(buffers_per_cpu,
		 "default buffers per CPU, 1..65536 (8)");
module_param_cb(dev_mode, &fdr_mode_ops, &dev_mode, 0444);
MODULE_PARM_DESC(dev_mode, "mode of /dev/fdr, octal (0600)");
module_param(dev_gid, uint, 0444);
MODULE_PARM_DESC(dev_gid,
		 "group whose members may open /dev/fdr without CAP_SYS_ADMIN; 0: none (0)");
module_param(crash_finalize, bool, 0644);
MODULE_PARM_DESC(crash_finalize,
		 "finalize when a writer dies from a fatal signal, read at INIT (1)");
module_param_cb(max_total_mb, &fdr_mb_ops, &max_total_mb, 0644);
MODULE_PARM_DESC(max_total_mb,
		 "memory of the live regions of all sessions, MiB, 1..1048576 (1024)");
module_param_cb(sched_ring_kb, &fdr_sched_ring_kb_ops, &sched_ring_kb, 0644);
MODULE_PARM_DESC(sched_ring_kb,
		 "scheduling records kept per CPU, KiB of 32-byte records, 1..65536, read at INIT (256)");

module_param_cb(max_user_sessions, &fdr_user_sessions_ops, &max_user_sessions,
		0644);
MODULE_PARM_DESC(max_user_sessions,
		 "named sessions one uid may own at once, 1..4096 (16)");
module_param_cb(max_user_mb, &fdr_mb_ops, &max_user_mb, 0644);
MODULE_PARM_DESC(max_user_mb,
		 "memory of the live regions of one uid's sessions, MiB, 1..1048576 (256)");
module_param_cb(max_user_sched, &fdr_user_sched_ops, &max_user_sched, 0644);
MODULE_PARM_DESC(max_user_sched,
		 "regions one uid may record the scheduling view of at once, 1..16 (4)");

/**
 * fdr_init_params_read - the parameters one INIT uses, each read once
 * @p: filled; the INIT uses these copies and never the parameters again
 */
void fdr_init_params_read(struct fdr_init_params *p)
{
	p->max_total_bytes = (u64)READ_ONCE(max_total_mb) << 20;
	p->max_user_bytes = (u64)READ_ONCE(max_user_mb) << 20;
	p->sched_ring_bytes = (u64)READ_ONCE(sched_ring_kb) << 10;
	p->max_user_sched = READ_ONCE(max_user_sched);
	p->crash_finalize = READ_ONCE(crash_finalize);
}

u64 fdr_param_buffer_size(void)
{
	return READ_ONCE(buffer_size);
}

u32 fdr_param_buffers_per_cpu(void)
{
	return READ_ONCE(buffers_per_cpu);
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
