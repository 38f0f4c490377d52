// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - decoding of the /dev/fdr ioctls.  All user memory is copied
 * here, outside dev->lock; state.c only sees kernel copies.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include "fdr_dev.h"

/*
 * Size-carrying structs: smaller than version 0 is EINVAL, larger than a
 * page is E2BIG, a larger one is accepted only with a zero tail (E2BIG
 * otherwise, from copy_struct_from_user()).
 */
static int fdr_copy_sized(void *dst, size_t ksize, size_t min_size,
			  const void __user *uarg, u32 *usize)
{
	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < min_size)
		return -EINVAL;
	if (*usize > PAGE_SIZE)
		return -E2BIG;
	return copy_struct_from_user(dst, ksize, uarg, *usize);
}

static int fdr_ioctl_init(struct fdr_dev *dev, void __user *uarg)
{
	struct fdr_init cfg;
	u32 usize;
	int err;

	err = fdr_copy_sized(&cfg, sizeof(cfg), FDR_INIT_SIZE_VER0, uarg,
			     &usize);
	if (err)
		return err;
	return fdr_state_init(dev, &cfg);
}

/* Any flag this kernel does not know, or a reserved bit, is refused. */
static int fdr_ioctl_trigger(struct fdr_dev *dev, const void __user *uarg)
{
	struct fdr_trigger trig;
	u32 usize;
	int err;

	err = fdr_copy_sized(&trig, sizeof(trig), FDR_TRIGGER_SIZE_VER0, uarg,
			     &usize);
	if (err)
		return err;
	if ((trig.flags & ~FDR_TRIGGER_FLAGS_ALL) || trig.reserved)
		return -EINVAL;
	return fdr_state_trigger(dev, &trig);
}

/* Only the size is input; the kernel writes min(size, its size) bytes. */
static int fdr_ioctl_status(struct fdr_file *ff, void __user *uarg)
{
	struct fdr_status st;
	u32 usize;
	int err;

	err = fdr_copy_sized(&st, sizeof(st), FDR_STATUS_SIZE_VER0, uarg,
			     &usize);
	if (err)
		return err;
	memset(&st, 0, sizeof(st));
	fdr_state_status(ff->dev, ff, &st);
	st.size = min_t(u32, usize, sizeof(st));
	if (copy_to_user(uarg, &st, st.size))
		return -EFAULT;
	return 0;
}

/*
 * The numbers of the sized structs once encoded sizeof() of the header
 * a caller was built with; they are pinned now, and these are the other
 * numbers such headers gave (the struct's own size field governs).  Any
 * other size in the number stays unknown (ENOTTY).
 */
static const struct {
	unsigned int alias;
	unsigned int cmd;
} fdr_ioctl_aliases[] = {
	{ _IOC(_IOC_WRITE, FDR_IOC_MAGIC, 1, FDR_INIT_SIZE_VER1),
	  FDR_IOC_INIT },
	{ _IOC(_IOC_READ | _IOC_WRITE, FDR_IOC_MAGIC, 7, FDR_STATUS_SIZE_VER0),
	  FDR_IOC_STATUS },
	{ _IOC(_IOC_READ | _IOC_WRITE, FDR_IOC_MAGIC, 7, FDR_STATUS_SIZE_VER2),
	  FDR_IOC_STATUS },
};

static unsigned int fdr_ioctl_cmd(unsigned int cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fdr_ioctl_aliases); i++)
		if (cmd == fdr_ioctl_aliases[i].alias)
			return fdr_ioctl_aliases[i].cmd;
	return cmd;
}

/**
 * fdr_ioctl - the /dev/fdr ioctls
 * @file: an open /dev/fdr
 * @cmd: FDR_IOC_*
 * @arg: the argument struct's user address, for the sized ones
 *
 * Return: 0 or a negative errno; -ENOTTY for an unknown @cmd.
 */
long fdr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct fdr_file *ff = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (fdr_ioctl_cmd(cmd)) {
	case FDR_IOC_INIT:
		return fdr_ioctl_init(ff->dev, uarg);
	case FDR_IOC_FINALIZE:
		return fdr_state_finalize(ff->dev);
	case FDR_IOC_TRIGGER:
		/* Whoever may finalize may trigger: the same effect. */
		return fdr_ioctl_trigger(ff->dev, uarg);
	case FDR_IOC_FLUSH_BEGIN:
		return fdr_state_flush_begin(ff->dev, ff);
	case FDR_IOC_FLUSH_DONE:
		return fdr_state_flush_done(ff->dev, ff);
	case FDR_IOC_FLUSH_ABORT:
		return fdr_state_flush_abort(ff->dev, ff);
	case FDR_IOC_FLUSH_FORCE_ABORT:
		/* Not for every member of dev_gid: it ends another's flush. */
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return fdr_state_flush_force_abort(ff->dev);
	case FDR_IOC_RESET:
		return fdr_state_reset(ff->dev);
	case FDR_IOC_STATUS:
		return fdr_ioctl_status(ff, uarg);
	default:
		return -ENOTTY;
	}
}
