// SPDX-License-Identifier: MIT
/*
 * session.c - named sessions of /dev/fdr: binding a control handle to
 * one (create, attach), listing them, and what their refusals mean.
 * The rules are the kernel's (Documentation/abi.md, "Sessions"); the
 * name is checked here first only to say what is wrong with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "internal.h"

__FDR_NO_INSTRUMENT static int session_ioctl(struct fdr_ctl *ctl,
					     unsigned long req,
					     const char *name, uint32_t flags,
					     uint32_t gid, uint32_t owner_uid)
{
	struct fdr_session s = {
		.size = sizeof(s),
		.flags = flags,
		.gid = gid,
		.owner_uid = owner_uid,
	};

	snprintf(s.name, sizeof(s.name), "%s", name);
	return ioctl(ctl->fd, req, &s) ? -errno : 0;
}

/*
 * The session of the owner the target names ("NAME@OWNER"), else the
 * caller's own: the kernel scopes names by owner, so a writer can never
 * be given a session someone else made under the name it expects.
 */
__FDR_NO_INSTRUMENT int fdr__session_attach(struct fdr_ctl *ctl)
{
	const struct fdr_target *t = &ctl->target;
	int ret = session_ioctl(ctl, FDR_IOC_SESSION_ATTACH, t->session,
				t->has_owner ? FDR_SESSION_OWNER : 0, 0,
				t->has_owner ? t->owner_uid : 0);

	ctl->session_refused = ret != 0;
	return ret;
}

FDR_API int fdr_ctl_session_create(struct fdr_ctl *ctl, const char *name,
				   uint32_t flags, uint32_t gid)
{
	int ret;

	if (!ctl || !ctl->ops)
		return -EBADF;
	if (ctl->target.kind != FDR_TARGET_DEVICE)
		return fdr__ctl_note(ctl, -EOPNOTSUPP);
	if (ctl->target.session[0])
		return fdr__ctl_note(ctl, -EBUSY);
	if (!name || !fdr_session_name_ok(name))
		return fdr__ctl_note(ctl, -EINVAL);
	ret = session_ioctl(ctl, FDR_IOC_SESSION_CREATE, name, flags, gid, 0);
	if (!ret)
		snprintf(ctl->target.session, sizeof(ctl->target.session),
			 "%s", name);
	return fdr__ctl_note(ctl, ret);
}

FDR_API int fdr_ctl_session_revoke(struct fdr_ctl *ctl)
{
	if (!ctl || !ctl->ops)
		return -EBADF;
	if (ctl->target.kind != FDR_TARGET_DEVICE)
		return fdr__ctl_note(ctl, -EOPNOTSUPP);
	if (!ctl->target.session[0])
		return fdr__ctl_note(ctl, -EINVAL);
	return fdr__ctl_note(ctl, ioctl(ctl->fd, FDR_IOC_SESSION_REVOKE) ?
				  -errno : 0);
}

/* SESSION_INFO without noting the errno (fdr_ctl_strerror uses it too). */
__FDR_NO_INSTRUMENT static int info_ioctl(int fd, uint32_t index,
					  struct fdr_session_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->index = index;
	return ioctl(fd, FDR_IOC_SESSION_INFO, info) ? -errno : 0;
}

FDR_API int fdr_ctl_session_info(struct fdr_ctl *ctl, uint32_t index,
				 struct fdr_session_info *info)
{
	if (!ctl || !ctl->ops || !info)
		return -EBADF;
	if (ctl->target.kind != FDR_TARGET_DEVICE)
		return fdr__ctl_note(ctl, -EOPNOTSUPP);
	return fdr__ctl_note(ctl, info_ioctl(ctl->fd, index, info));
}

/* The open's ATTACH was refused. */
__FDR_NO_INSTRUMENT static const char *attach_error(const struct fdr_ctl *ctl,
						    int err, char *msg,
						    size_t len)
{
	const char *spec = ctl->target.spec, *name = ctl->target.session;

	if (err == ENOENT && ctl->target.has_owner)
		snprintf(msg, len,
			 "%s: uid %u has no session named %s that you may attach to (only its owner, root, or a member of the group it names may; list yours with 'fdrctl list')",
			 spec, ctl->target.owner_uid, name);
	else if (err == ENOENT)
		snprintf(msg, len,
			 "%s: you have no session named %s (names are per user: another user's session is %s:%s@OWNER; list them with 'fdrctl list'; a session lives while its creator holds it open: 'fdrd --session %s' or 'fdr record' makes one)",
			 spec, name, ctl->target.path, name, name);
	else if (err == EINVAL && ctl->target.has_owner)
		snprintf(msg, len,
			 "%s: cannot attach to session %s: fdr.ko refused the owner (a uid of your user namespace; an fdr.ko older than owner-scoped names does not know it)",
			 spec, name);
	else if (err == ENOTTY)
		snprintf(msg, len,
			 "%s: this fdr.ko predates sessions (no FDR_IOC_SESSION_ATTACH); load the fdr.ko of this build",
			 spec);
	else
		snprintf(msg, len, "%s: cannot attach to session %s: %s", spec,
			 name, strerror(err));
	return msg;
}

__FDR_NO_INSTRUMENT static const char *create_error(const struct fdr_ctl *ctl,
						    int err, char *msg,
						    size_t len)
{
	const char *spec = ctl->target.spec;

	switch (err) {
	case EEXIST:
		snprintf(msg, len, "%s: cannot create the session: you have a session of that name already (pick another, or see 'fdrctl list')", spec);
		break;
	case EDQUOT:
		snprintf(msg, len, "%s: cannot create the session: you own as many sessions as fdr.ko allows (max_user_sessions); end one first", spec);
		break;
	case EPERM:
		snprintf(msg, len, "%s: cannot create the session: a shared session must name a group you are in", spec);
		break;
	case EINVAL:
		snprintf(msg, len, "%s: cannot create the session: invalid name (1 to 63 letters, digits, '.', '-' or '_', starting with a letter or digit)", spec);
		break;
	case EBUSY:
		snprintf(msg, len, "%s: cannot create the session: this handle is bound to a session already", spec);
		break;
	case ENOTTY:
		snprintf(msg, len, "%s: this fdr.ko predates sessions (no FDR_IOC_SESSION_CREATE); load the fdr.ko of this build", spec);
		break;
	case EOPNOTSUPP:
		snprintf(msg, len, "%s: an embedded region has no sessions (it is private already)", spec);
		break;
	default:
		snprintf(msg, len, "%s: cannot create the session: %s", spec,
			 strerror(err));
	}
	return msg;
}

/* Is ctl the writer (not the owner) of its session? */
__FDR_NO_INSTRUMENT static bool is_writer(const struct fdr_ctl *ctl)
{
	struct fdr_session_info info;

	uint32_t owner = ctl->target.has_owner ? ctl->target.owner_uid :
						 (uint32_t)geteuid();

	/* Names are per owner: the session of this name that is ctl's. */
	for (uint32_t i = 0; info_ioctl(ctl->fd, i, &info) == 0; i++)
		if (!strcmp(info.name, ctl->target.session) &&
		    info.owner_uid == owner)
			return info.role == FDR_ROLE_WRITER;
	return false;
}

/* A writer of a shared session asked for an owner's operation. */
__FDR_NO_INSTRUMENT static const char *role_error(const struct fdr_ctl *ctl,
						  const char *op, char *msg,
						  size_t len)
{
	if (!is_writer(ctl))
		return NULL;
	snprintf(msg, len,
		 "%s: cannot %s: you are a writer of session %s, not its owner (only the owner or root may %s it)",
		 ctl->target.spec, op, ctl->target.session, op);
	return msg;
}

__FDR_NO_INSTRUMENT const char *fdr__session_strerror(const struct fdr_ctl *ctl,
						      const char *op, int err,
						      char *msg, size_t len)
{
	if (!strcmp(op, "session create"))
		return create_error(ctl, err, msg, len);
	if (err == EOPNOTSUPP && ctl->target.kind == FDR_TARGET_EMBEDDED) {
		snprintf(msg, len, "%s: cannot %s: an embedded region has no sessions (it is private already)",
			 ctl->target.spec, op);
		return msg;
	}
	if (!ctl->target.session[0])
		return NULL;
	if (ctl->session_refused)
		return attach_error(ctl, err, msg, len);
	if (err == EPERM || (err == EACCES && !strncmp(op, "map", 3)))
		return role_error(ctl, op, msg, len);
	if (err == EDQUOT) {
		snprintf(msg, len,
			 "%s: cannot %s: your sessions would take more memory than fdr.ko allows one user (max_user_mb); use a smaller --buffer-size or --buffers-per-cpu, or end a session",
			 ctl->target.spec, op);
		return msg;
	}
	return NULL;
}
