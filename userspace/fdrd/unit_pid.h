/* SPDX-License-Identifier: MIT */
/* unit_pid.h - a systemd unit's main PID, for fdrd --attach-unit. */
#ifndef FDRD_UNIT_PID_H
#define FDRD_UNIT_PID_H

#include <sys/types.h>

/*
 * `systemctl show -p MainPID --value UNIT` (systemctl from $PATH, so
 * that fdrd needs no libsystemd).  The PID, 0 when the unit does not run
 * now, or -1 after a message (no systemctl, no such unit, an answer that
 * is no PID).
 */
pid_t unit_main_pid(const char *unit);

#endif /* FDRD_UNIT_PID_H */
