/* SPDX-License-Identifier: MIT */
/*
 * reinit.h - --auto-reset: the next cycle's RESET and INIT, with the
 * geometry, crash and scheduling policy and latency trigger of the last
 * one (its STATUS).
 */
#ifndef FDRD_REINIT_H
#define FDRD_REINIT_H

#include <fdr.h>

/* The INIT of the next cycle from the last cycle's STATUS st. */
void reinit_config(const struct fdr_status *st, struct fdr_init *cfg);

/*
 * RESET, then INIT as reinit_config(); every failure said (msg_error).
 * Returns 0 or the negative errno of the failed call.
 */
int reinit(struct fdr_ctl *ctl, const struct fdr_status *st);

#endif /* FDRD_REINIT_H */
