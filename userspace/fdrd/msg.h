/* SPDX-License-Identifier: MIT */
/* msg.h - fdrd's messages: stderr in the foreground, else syslog. */
#ifndef FDRD_MSG_H
#define FDRD_MSG_H

#include <stdbool.h>

void msg_use_syslog(bool on);
void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* FDRD_MSG_H */
