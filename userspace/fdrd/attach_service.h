/* SPDX-License-Identifier: MIT */
/*
 * attach_service.h - fdrd --attach-pid / --attach-unit: keep a running
 * fdr-cc program (a service) recording into fdrd's region, through the
 * code `fdr record -p` uses (attach/attach_pid.h); Documentation/fdrd.md,
 * "Attaching to a service".
 */
#ifndef FDRD_ATTACH_SERVICE_H
#define FDRD_ATTACH_SERVICE_H

#include <stdbool.h>
#include <sys/types.h>

#include "attach_pid.h"
#include "options.h"

struct service {
	struct attached a;
	int pidfd;		/* of the attached process, -1: none attached */
	pid_t last;		/* the last one attached to (not again once it exited) */
	int symfd;		/* a --gcc or --patchable one's sym-map, -1: none */
};

void service_init(struct service *s);
/* The PID to attach to now: --attach-pid's, or the unit's main PID; 0
 * if none (not running, or the one attached to before exited), -1 after
 * a message. */
pid_t service_pid(const struct service *s, const struct fdrd_options *o);
/* Can pid be attached to (its program built by fdr-cc to be)?  0, or -1
 * after a message: fdrd says so before it daemonizes. */
int service_check(pid_t pid);
/* Check the program pid runs and make it record into fdrd's region.
 * 0, or -1 after a message. */
int service_attach(struct service *s, pid_t pid, const struct fdrd_options *o);
/* Has the attached process exited?  Then it is attached no more. */
bool service_exited(struct service *s);
/* Stop recording in it and leave it as it was (if attached). */
void service_detach(struct service *s);
/* Copy the names of the functions of the service fdrd attached last
 * (--gcc, --patchable: its sym-map, read through /proc/PID/fd) into dir,
 * as fdr-syms.PID.map, where fdr report finds them: after each log
 * written, since the service names more functions as it runs. */
void service_names(struct service *s, const char *dir);

static inline bool service_attached(const struct service *s)
{
	return s->pidfd >= 0;
}

#endif /* FDRD_ATTACH_SERVICE_H */
