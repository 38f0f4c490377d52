// SPDX-License-Identifier: MIT
/*
 * patch_why.c - the names of the reasons a function entry is not
 * patched (patch_hook.h), apart from the decoder: fdr-cc --patchable's
 * runtime counts its refusals with them and links no capstone.
 */
#include "patch_hook.h"

const char *const fdr__patch_why_name[FDR_PATCH_NWHY] = {
	[FDR_PATCH_OK] = "patched",
	[FDR_PATCH_TOO_SHORT] = "too short",
	[FDR_PATCH_UNDECODABLE] = "undecodable",
	[FDR_PATCH_JUMP_INTO] = "jump into the patch",
	[FDR_PATCH_INDIRECT] = "indirect jump",
	[FDR_PATCH_UNMOVABLE] = "unmovable first instruction",
	[FDR_PATCH_NO_ROOM] = "no trampoline room",
	[FDR_PATCH_READ_ONLY] = "text not writable",
	[FDR_PATCH_ENTRY] = "program entry point",
	[FDR_PATCH_THREADS] = "other threads running",
	[FDR_PATCH_NOT_NOP] = "not a 5-byte nop",
	[FDR_PATCH_NOT_ATOMIC] = "nop not in one 8-byte word",
	[FDR_PATCH_RUNTIME] = "used by fdr's runtime",
};
