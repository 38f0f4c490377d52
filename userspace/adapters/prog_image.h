/* SPDX-License-Identifier: MIT */
/*
 * prog_image.h - is the running executable the program `fdr record`
 * started, or one that program exec()ed?
 *
 * fdr record puts PROG's real path in $FDR_PROG.  An image whose
 * /proc/self/exe differs from it was exec()ed by PROG (or by one of its
 * descendants): its functions must not take the ids PROG's own take, so
 * that one table names both (Documentation/integrations.md, "Programs
 * that PROG runs").  Without $FDR_PROG (a program not started by fdr
 * record, an attach) every executable counts as PROG, as before.
 */
#ifndef FDR_PROG_IMAGE_H
#define FDR_PROG_IMAGE_H

/* 1: this image is PROG (or nobody said which is); 0: another program. */
int fdr__image_is_prog(void);

#endif /* FDR_PROG_IMAGE_H */
