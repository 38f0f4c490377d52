// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - /dev/fdr: the misc device, its file operations and the module.
 *
 * fdr.ko owns the memory of a flight data recorder for function-call
 * traces (LLVM XRay FDR): userspace writers record into buffers mapped
 * from here, fdrd flushes them.  Documentation/abi.md is the contract.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "fdr_dev.h"
#include "sched.h"

/*
 * The trust model (Documentation/abi.md): everyone who may open the
 * device may drive the default session and read and write its traces;
 * a named session is its owner's (session.c).  Opening takes
 * CAP_SYS_ADMIN or membership of dev_gid, on top of the node's mode, so
 * a too-permissive node alone does not open the device.
 */
static int fdr_check_access(void)
{
	kgid_t gid = fdr_param_dev_gid();

	if (capable(CAP_SYS_ADMIN))
		return 0;
	if (gid_valid(gid) && in_group_p(gid))
		return 0;
	return -EPERM;
}

/* A change of the file's session: wake the file's own pollers. */
static int fdr_file_wake(struct wait_queue_entry *wq, unsigned int mode,
			 int sync, void *key)
{
	struct fdr_file *ff = container_of(wq, struct fdr_file, wake);

	wake_up_interruptible_all(&ff->waitq);
	return 0;
}

static int fdr_open(struct inode *inode, struct file *file)
{
	struct fdr_file *ff;
	int err;

	err = fdr_check_access();
	if (err)
		return err;
	ff = kzalloc(sizeof(*ff), GFP_KERNEL);
	if (!ff)
		return -ENOMEM;
	ff->dev = &fdr_default_session;
	ff->role = FDR_ROLE_OWNER;
	ff->file = file;
	INIT_LIST_HEAD(&ff->wnode);
	mutex_init(&ff->wlock);
	INIT_LIST_HEAD(&ff->wmaps);
	xa_init(&ff->spare);
	ff->opener = get_pid(task_tgid(current));
	ff->events_seen = READ_ONCE(fdr_default_session.events);
	init_waitqueue_head(&ff->waitq);
	init_waitqueue_func_entry(&ff->wake, fdr_file_wake);
	add_wait_queue(&fdr_default_session.waitq, &ff->wake);
	file->private_data = ff;
	return nonseekable_open(inode, file);
}

static int fdr_release(struct inode *inode, struct file *file)
{
	struct fdr_file *ff = file->private_data;
	struct fdr_dev *dev = fdr_file_dev(ff);

	/* A flush begun on the default session as the file was bound. */
	if (dev != &fdr_default_session)
		fdr_state_release(&fdr_default_session, ff);
	fdr_state_release(dev, ff);
	remove_wait_queue(&dev->waitq, &ff->wake);
	fdr_reclaim_on_release(ff);
	/* No mapping is left: they hold the file. */
	fdr_session_unbind_writer(ff);
	fdr_file_free_spare(ff);
	mutex_destroy(&ff->wlock);
	put_pid(ff->opener);
	kfree(ff);
	fdr_session_put(dev);
	return 0;
}

static __poll_t fdr_poll(struct file *file, poll_table *wait)
{
	struct fdr_file *ff = file->private_data;

	/* Queued first: a bind after this wakes the queue. */
	poll_wait(file, &ff->waitq, wait);
	/*
	 * A revoked writer may ask nothing more (every ioctl is EPERM, STATUS
	 * too): a change it could never read would keep a level-triggered
	 * poller spinning.  It is told once and for all instead.
	 */
	if (READ_ONCE(ff->revoked))
		return EPOLLERR | EPOLLHUP;
	return fdr_state_poll_mask(fdr_file_dev(ff), ff);
}

static const struct file_operations fdr_fops = {
	.owner = THIS_MODULE,
	.open = fdr_open,
	.release = fdr_release,
	.unlocked_ioctl = fdr_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = fdr_mmap,
	.poll = fdr_poll,
};

static struct miscdevice fdr_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = FDR_DEVICE_NAME,
	.fops = &fdr_fops,
};

static int __init fdr_module_init(void)
{
	int err;

	fdr_session_module_init();
	fdr_sched_module_init();
	fdr_miscdev.mode = fdr_param_dev_mode();
	err = misc_register(&fdr_miscdev);
	if (err) {
		pr_err("fdr: cannot register /dev/%s: %d\n", FDR_DEVICE_NAME,
		       err);
		fdr_dev_teardown(&fdr_default_session);
	}
	return err;
}

/* Runs only when no file (hence no mapping) of the device is left. */
static void __exit fdr_module_exit(void)
{
	misc_deregister(&fdr_miscdev);
	fdr_sched_module_exit();
	fdr_dev_teardown(&fdr_default_session);
}

module_init(fdr_module_init);
module_exit(fdr_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fdr: kernel-backed flight data recorder for XRay FDR traces");
MODULE_VERSION("1");
