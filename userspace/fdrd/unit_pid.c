// SPDX-License-Identifier: MIT
/*
 * unit_pid.c - a systemd unit's main PID (unit_pid.h).  systemctl runs
 * with its argv given as is (no shell: the unit name is the user's), its
 * output bounded; "0" is systemd's "not running".
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"
#include "unit_pid.h"

extern char **environ;

/* Run systemctl; its stdout (at most size - 1 bytes) in out.  Its exit status, or -1. */
static int run_systemctl(const char *unit, char *out, size_t size)
{
	char *argv[] = { "systemctl", "show", "-p", "MainPID", "--value", "--",
			 (char *)unit, NULL };
	posix_spawn_file_actions_t fa;
	size_t n = 0;
	ssize_t r;
	int p[2], st, err;
	pid_t child;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	err = posix_spawnp(&child, "systemctl", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (err) {
		close(p[0]);
		msg_error("--attach-unit %s: cannot run systemctl: %s (fdrd looks a unit's "
			  "main PID up with it; give --attach-pid PID instead)", unit,
			  strerror(err));
		return -1;
	}
	while (n < size - 1 && (r = read(p[0], out + n, size - 1 - n)) != 0)
		if (r > 0)
			n += (size_t)r;
		else if (errno != EINTR)
			break;
	out[n] = 0;
	close(p[0]);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

pid_t unit_main_pid(const char *unit)
{
	char out[64], *end;
	long v;
	int rc = run_systemctl(unit, out, sizeof(out));

	if (rc < 0)
		return -1;
	errno = 0;
	v = strtol(out, &end, 10);
	if (rc || end == out || (*end && *end != '\n') || errno || v < 0 || v > 4194304) {
		msg_error("--attach-unit %s: systemctl show -p MainPID --value gave "
			  "'%.*s' (exit %d): is it a unit of this system's systemd?",
			  unit, (int)strcspn(out, "\n"), out, rc);
		return -1;
	}
	return (pid_t)v;
}
