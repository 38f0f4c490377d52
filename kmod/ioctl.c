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

/*
 * Any flag this kernel does not know, or a reserved bit, is refused.  A
 * trigger by hand is the owner's: it skips the holdoff, so a writer
 * could otherwise end the owner's recording whenever it liked.
 */
static int fdr_ioctl_trigger(struct fdr_file *ff, const void __user *uarg)
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
	if ((trig.flags & FDR_TRIGGER_BY_HAND) && ff->role == FDR_ROLE_WRITER)
		return -EPERM;
	return fdr_state_trigger(fdr_file_dev(ff), &trig);
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
	fdr_state_status(fdr_file_dev(ff), ff, &st);
	st.size = min_t(u32, usize, sizeof(st));
	if (copy_to_user(uarg, &st, st.size))
		return -EFAULT;
	return 0;
}

/* CREATE or ATTACH: the name must be NUL-terminated in the copy. */
static int fdr_ioctl_session(struct fdr_file *ff, const void __user *uarg,
			     bool create)
{
	struct fdr_session req;
	u32 usize;
	int err;

	err = fdr_copy_sized(&req, sizeof(req), FDR_SESSION_SIZE_VER0, uarg,
			     &usize);
	if (err)
		return err;
	if (!memchr(req.name, '\0', sizeof(req.name)))
		return -EINVAL;
	return create ? fdr_session_create(ff, &req) :
			fdr_session_attach(ff, &req);
}

static int fdr_ioctl_session_info(void __user *uarg)
{
	struct fdr_session_info info;
	u32 usize, index;
	int err;

	err = fdr_copy_sized(&info, sizeof(info), FDR_SESSION_INFO_SIZE_VER0,
			     uarg, &usize);
	if (err)
		return err;
	index = info.index;
	memset(&info, 0, sizeof(info));
	info.index = index;
	err = fdr_session_info(&info);
	if (err)
		return err;
	info.size = min_t(u32, usize, sizeof(info));
	if (copy_to_user(uarg, &info, info.size))
		return -EFAULT;
	return 0;
}

/*
 * What a file bound as a session's writer may not do: everything that
 * changes the session's state but its latency trigger.
 */
static bool fdr_owner_only(unsigned int cmd)
{
	switch (cmd) {
	case FDR_IOC_INIT:
	case FDR_IOC_FINALIZE:
	case FDR_IOC_FLUSH_BEGIN:
	case FDR_IOC_FLUSH_DONE:
	case FDR_IOC_FLUSH_ABORT:
	case FDR_IOC_FLUSH_FORCE_ABORT:
	case FDR_IOC_RESET:
	case FDR_IOC_SESSION_REVOKE:
		return true;
	default:
		return false;
	}
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
	struct fdr_dev *dev = fdr_file_dev(ff);
	void __user *uarg = (void __user *)arg;

	cmd = fdr_ioctl_cmd(cmd);
	/* A revoked writer is no part of the session any more. */
	if (ff->role == FDR_ROLE_WRITER &&
	    (fdr_owner_only(cmd) || READ_ONCE(ff->revoked)))
		return -EPERM;
	switch (cmd) {
	case FDR_IOC_INIT:
		return fdr_ioctl_init(dev, uarg);
	case FDR_IOC_FINALIZE:
		return fdr_state_finalize(dev);
	case FDR_IOC_TRIGGER:
		/* A writer: its latency trigger only, held off. */
		return fdr_ioctl_trigger(ff, uarg);
	case FDR_IOC_FLUSH_BEGIN:
		return fdr_state_flush_begin(dev, ff);
	case FDR_IOC_FLUSH_DONE:
		return fdr_state_flush_done(dev, ff);
	case FDR_IOC_FLUSH_ABORT:
		return fdr_state_flush_abort(dev, ff);
	case FDR_IOC_FLUSH_FORCE_ABORT:
		/* Not for every member of dev_gid: it ends another's flush. */
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return fdr_state_flush_force_abort(dev);
	case FDR_IOC_RESET:
		return fdr_state_reset(dev);
	case FDR_IOC_STATUS:
		return fdr_ioctl_status(ff, uarg);
	case FDR_IOC_SESSION_CREATE:
		return fdr_ioctl_session(ff, uarg, true);
	case FDR_IOC_SESSION_ATTACH:
		return fdr_ioctl_session(ff, uarg, false);
	case FDR_IOC_SESSION_INFO:
		return fdr_ioctl_session_info(uarg);
	case FDR_IOC_SESSION_REVOKE:
		return fdr_session_revoke(dev);
	default:
		return -ENOTTY;
	}
}
