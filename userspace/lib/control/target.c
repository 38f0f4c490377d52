// SPDX-License-Identifier: MIT
/*
 * target.c - turn a target string into a device path or a shm object name.
 *
 * NULL means $FDR_TARGET, else /dev/fdr.  "embedded:NAME" is the shared
 * memory object /fdr-NAME (/dev/shm/fdr-NAME).  Anything else is a path to
 * a device node, with ":NAME" after it for one of its named sessions.
 *
 * A program that runs with rights its caller lacks (set-user-ID,
 * set-group-ID, file capabilities: AT_SECURE) is not steered by its
 * caller's environment ($FDR_TARGET is read with fdr__env(), which answers nothing then), and
 * opens nothing its real user could not (fdr__target_allowed()).
 */
#include <errno.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "internal.h"
#include "fdr_env.h"

/* Does this process run with rights its caller lacks (AT_SECURE)? */
__FDR_NO_INSTRUMENT bool fdr__secure_exec(void)
{
	return getauxval(AT_SECURE) != 0;
}

/*
 * NAME becomes part of a file name: the alphabet of session names
 * (<linux/fdr.h>), not starting with '.'.
 */
__FDR_NO_INSTRUMENT static bool embedded_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > FDR_NAME_MAX || name[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!fdr_name_char_ok(name[i]))
			return false;
	return true;
}

/*
 * OWNER of "NAME@OWNER": a uid, or a user name (looked up only when one
 * is given, so a plain target never touches NSS).
 */
__FDR_NO_INSTRUMENT static int owner_parse(struct fdr_target *t,
					   const char *owner)
{
	char buf[1024], *end;
	struct passwd pw, *found = NULL;
	unsigned long uid;

	if (!*owner)
		return -EINVAL;
	if (*owner >= '0' && *owner <= '9') {
		errno = 0;
		uid = strtoul(owner, &end, 10);
		if (*end || errno || uid >= UINT32_MAX)
			return -EINVAL;
		t->owner_uid = (uint32_t)uid;
	} else {
		if (getpwnam_r(owner, &pw, buf, sizeof(buf), &found) || !found)
			return -EINVAL;
		t->owner_uid = (uint32_t)found->pw_uid;
	}
	t->has_owner = true;
	return 0;
}

/*
 * "/dev/fdr:NAME" or "/dev/fdr:NAME@OWNER": the device and session NAME
 * of the caller, or of OWNER (a writer of a shared session names whose it
 * expects; the kernel gives no one else's).  A colon inside the path (one
 * before the last '/') is part of the path.
 */
__FDR_NO_INSTRUMENT static int session_split(struct fdr_target *t)
{
	char *colon = strrchr(t->path, ':'), *at;

	if (!colon || strchr(colon, '/'))
		return 0;
	*colon = '\0';
	at = strchr(colon + 1, '@');
	if (at) {
		*at = '\0';
		if (owner_parse(t, at + 1))
			return -EINVAL;
	}
	if (!fdr_session_name_ok(colon + 1) || !t->path[0])
		return -EINVAL;
	snprintf(t->session, sizeof(t->session), "%s", colon + 1);
	return 0;
}

__FDR_NO_INSTRUMENT int fdr__target_parse(struct fdr_target *t, const char *spec)
{
	size_t plen = strlen(FDR_EMBEDDED_PREFIX);

	memset(t, 0, sizeof(*t));
	if (!spec || !*spec)
		spec = fdr__env("FDR_TARGET");
	if (!spec || !*spec)
		spec = FDR_DEFAULT_DEVICE;
	if (strlen(spec) > FDR_NAME_MAX) {
		snprintf(t->spec, sizeof(t->spec), "%.40s...", spec);
		return -ENAMETOOLONG;
	}
	snprintf(t->spec, sizeof(t->spec), "%s", spec);
	if (strncmp(spec, FDR_EMBEDDED_PREFIX, plen) == 0) {
		const char *name = spec + plen;

		t->kind = FDR_TARGET_EMBEDDED;
		if (!embedded_name_ok(name))
			return -EINVAL;
		snprintf(t->shm_name, sizeof(t->shm_name), "%s%s",
			 FDR_EMBEDDED_SHM_PREFIX, name);
		snprintf(t->path, sizeof(t->path), "%s%s", FDR_SHM_DIR,
			 t->shm_name);
		return 0;
	}
	t->kind = FDR_TARGET_DEVICE;
	snprintf(t->path, sizeof(t->path), "%s", spec);
	return session_split(t);
}

/*
 * In a set-user-ID (or set-group-ID, or capability-raised) program: may
 * the real user open @t?  access() checks with the real ids.  A named
 * session is the effective uid's to attach to (the kernel decides by
 * it), so such a program opens none.  An embedded region not there yet
 * is the program's own to make.  0, or -EACCES with @detail set.
 */
__FDR_NO_INSTRUMENT int fdr__target_allowed(const struct fdr_target *t,
					    char *detail, size_t len)
{
	if (!fdr__secure_exec())
		return 0;
	if (t->kind == FDR_TARGET_DEVICE && t->session[0]) {
		snprintf(detail, len, "a set-user-ID program does not attach to a named session (its real user may not own it)");
		return -EACCES;
	}
	if (access(t->path, R_OK | W_OK) == 0 ||
	    (errno == ENOENT && t->kind == FDR_TARGET_EMBEDDED))
		return 0;
	snprintf(detail, len, "a set-user-ID program opens only what its real user may (%s)",
		 strerror(errno));
	return -EACCES;
}
