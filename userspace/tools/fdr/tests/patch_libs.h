/* SPDX-License-Identifier: MIT */
/*
 * patch_libs.h - the counters of patch_libs_test.sh's program: each
 * function of patch_libs_prog.c, patch_libs_own.c and patch_libs_plug.c
 * counts its own calls in counts[] (the executable's, exported), and the
 * program prints them: the oracle of fdr record -P PATTERN@MODULE.
 */
#ifndef PATCH_LIBS_H
#define PATCH_LIBS_H

enum {
	C_OWN_LEAF, C_OWN_MID, C_OWN_REC, C_OWN_API, C_OWN_LOAD,
	C_PLUG_LEAF, C_PLUG_ENTRY, C_PLUG_REC, C_DEEP_LEAF, C_DEEP_ENTRY,
	C_N
};

#define COUNT_NAMES { "own_leaf", "own_mid", "own_rec", "own_api", "own_load", \
		      "plug_leaf", "plug_entry", "plug_rec", "deep_leaf", "deep_entry" }

extern unsigned long counts[C_N];

#endif
