// SPDX-License-Identifier: MIT
/*
 * xray_sleds.c - retarget patched sleds to our trampolines.
 *
 * A patched sled (LLVM 19, x86-64) is 11 bytes:
 *   41 ba <fid:4>  e8|e9 <rel32:4>     mov $fid,%r10d; call|jmp tramp
 * (call for entry and tail-call sleds, jmp for exit sleds).  Only rel32
 * changes, and the fid in a program PROG exec()ed (xray_exec_id.h).  It
 * is rewritten the way compiler-rt patches sleds, so that a thread
 * running through it meanwhile never executes a half-written
 * instruction: first the sled is disabled with one atomic store of its
 * first bytes (entry/tail: `jmp +9` over the sled; exit: `ret`, what the
 * sled replaced), then rel32 is written, then `41 ba` is stored back
 * with release order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/fdr.h>
#include "xray_args.h"
#include "xray_exec_id.h"
#include "xray_sleds.h"

volatile uint8_t fdr__xray_fast_on;

extern const struct xray_sled __start_xray_instr_map[] __attribute__((weak));
extern const struct xray_sled __stop_xray_instr_map[] __attribute__((weak));

void __xray_FunctionEntry(void);
void __xray_FunctionExit(void);
void __xray_FunctionTailExit(void);
void __xray_ArgLoggerEntry(void);
void fdr__xray_entry_tramp(void);
void fdr__xray_exit_tramp(void);
void fdr__xray_tail_tramp(void);
void fdr__xray_arg1_tramp(void);
void fdr__xray_args_entry_tramp(void);
void fdr__xray_args_exit_tramp(void);


struct retarget {
	void (*xray)(void);	/* the trampoline the sled must call now */
	void (*ours)(void);
	uint8_t opcode;		/* call or jmp */
};

/* A function with an -A/-R spec: its entry sled and, with a return value
 * to log, its exit sleds call the args trampolines (xray_args.h); the
 * rest keep the lean ones. */
__FDR_NO_INSTRUMENT static const struct retarget *args_retarget_for(uint8_t kind)
{
	static const struct retarget entry = {
		__xray_FunctionEntry, fdr__xray_args_entry_tramp, CALL_OPCODE };
	static const struct retarget exit_ = {
		__xray_FunctionExit, fdr__xray_args_exit_tramp, JMP_OPCODE };

	return kind == 0 ? &entry : kind == 1 ? &exit_ : NULL;
}

__FDR_NO_INSTRUMENT static const struct retarget *retarget_for(uint8_t kind)
{
	static const struct retarget entry = {
		__xray_FunctionEntry, fdr__xray_entry_tramp, CALL_OPCODE };
	static const struct retarget exit_ = {
		__xray_FunctionExit, fdr__xray_exit_tramp, JMP_OPCODE };
	static const struct retarget tail = {
		__xray_FunctionTailExit, fdr__xray_tail_tramp, CALL_OPCODE };
	static const struct retarget arg1 = {
		__xray_ArgLoggerEntry, fdr__xray_arg1_tramp, CALL_OPCODE };

	switch (kind) {
	case 0: return &entry;
	case 1: return &exit_;
	case 2: return &tail;
	case 3: return &arg1;
	default: return NULL;	/* custom and typed events: compiler-rt's */
	}
}

__FDR_NO_INSTRUMENT static int32_t rel32_to(const uint8_t *sled, void (*target)(void))
{
	return (int32_t)((intptr_t)target - (intptr_t)(sled + SLED_SIZE));
}

__FDR_NO_INSTRUMENT int fdr__xray_window_close(struct fdr__xray_window *w)
{
	int ret = 0;

	if (w->lo < w->hi &&
	    mprotect((void *)w->lo, w->hi - w->lo, PROT_READ | PROT_EXEC))
		ret = -errno;
	w->lo = w->hi = 0;
	return ret;
}

/* Make the pages under [p, p + SLED_SIZE) writable (and keep them
 * executable: other threads may be running there). */
__FDR_NO_INSTRUMENT int fdr__xray_window_cover(struct fdr__xray_window *w, uintptr_t p)
{
	uintptr_t lo = p & ~(uintptr_t)(w->page - 1);
	uintptr_t hi = (p + SLED_SIZE + w->page - 1) & ~(uintptr_t)(w->page - 1);
	int ret;

	if (lo >= w->lo && hi <= w->hi)
		return 0;
	ret = fdr__xray_window_close(w);
	if (ret)
		return ret;
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC))
		return -errno;
	w->lo = lo;
	w->hi = hi;
	return 0;
}

/* Does the sled call compiler-rt's trampoline r->xray right now? */
__FDR_NO_INSTRUMENT static int calls_xray(const uint8_t *sled, const struct retarget *r)
{
	uint16_t head;
	int32_t rel;

	memcpy(&head, sled, sizeof(head));
	memcpy(&rel, sled + 7, sizeof(rel));
	return head == MOV_R10_SEQ && sled[6] == r->opcode &&
	       rel == rel32_to(sled, r->xray);
}

__FDR_NO_INSTRUMENT static void rewrite(uint8_t *sled, const struct retarget *r)
{
	int32_t rel = rel32_to(sled, r->ours);

	if (r->opcode == JMP_OPCODE)
		__atomic_store_n(sled, (uint8_t)RET_OPCODE, __ATOMIC_RELEASE);
	else
		__atomic_store_n((uint16_t *)sled, (uint16_t)JMP9_SEQ,
				 __ATOMIC_RELEASE);
	memcpy(sled + 7, &rel, sizeof(rel));
	if (fdr__xray_main_base) {	/* an exec()ed program's own ids */
		int32_t fid;

		memcpy(&fid, sled + 2, sizeof(fid));
		fid |= fdr__xray_main_base;
		memcpy(sled + 2, &fid, sizeof(fid));
	}
	__atomic_store_n((uint16_t *)sled, (uint16_t)MOV_R10_SEQ,
			 __ATOMIC_RELEASE);
}

__FDR_NO_INSTRUMENT uint8_t *fdr__xray_sled_address(const struct xray_sled *s)
{
	return (uint8_t *)((uintptr_t)&s->address + s->address);
}

/* The function id the sled loads into r10 (41 ba <fid:4>). */
__FDR_NO_INSTRUMENT static int32_t sled_fid(const uint8_t *sled)
{
	int32_t fid;

	memcpy(&fid, sled + 2, sizeof(fid));
	return fid;
}

/* Both trampolines in rel32 reach of the sled (same executable: yes). */
__FDR_NO_INSTRUMENT static int in_reach(const uint8_t *sled, void (*target)(void))
{
	intptr_t d = (intptr_t)target - (intptr_t)(sled + SLED_SIZE);

	return d >= INT32_MIN && d <= INT32_MAX;
}

__FDR_NO_INSTRUMENT int fdr__xray_sleds_retarget(void)
{
	struct fdr__xray_window w = { .page = sysconf(_SC_PAGESIZE) };
	const char *env = secure_getenv("FDR_XRAY_SLEDS");
	const struct xray_sled *s;
	int done = 0, ret = 0, closed;

	if (env && strcmp(env, "xray") == 0)
		return 0;
	for (s = __start_xray_instr_map; s && s < __stop_xray_instr_map; s++) {
		const struct retarget *r = retarget_for(s->kind);
		uint8_t *sled;

		if (!r || s->version < 2)	/* old absolute format: leave it */
			continue;
		sled = fdr__xray_sled_address(s);
		if (fdr__xray_args_wants(sled_fid(sled), s->kind))
			r = args_retarget_for(s->kind);
		if (!calls_xray(sled, r) || !in_reach(sled, r->ours))
			continue;
		ret = fdr__xray_window_cover(&w, (uintptr_t)sled);
		if (ret)
			break;
		rewrite(sled, r);
		done++;
	}
	closed = fdr__xray_window_close(&w);
	if (closed && !ret)
		ret = closed;
	return ret ? ret : done;
}
