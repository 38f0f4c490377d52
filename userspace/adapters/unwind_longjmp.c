// SPDX-License-Identifier: MIT
/*
 * unwind_longjmp.c - close the frames a longjmp() jumps over.
 *
 * fdr-cc links programs with --wrap for longjmp, _longjmp, siglongjmp and
 * __longjmp_chk (what _FORTIFY_SOURCE turns the three into), so the
 * program's calls land here first.  The frames jumped over are those
 * below the stack pointer that setjmp() saved in the jmp_buf; glibc keeps
 * it mangled with the thread's pointer guard (PTR_MANGLE on x86-64: xor
 * with %fs:0x30, then rotate left by 17).  A saved stack pointer that is
 * not above ours cannot be a live frame's: then nothing is closed.
 */
#include <setjmp.h>
#include <stdint.h>

#include <linux/fdr.h>
#include "plt_hook.h"
#include "unwind_frames.h"

#define JB_RSP		6	/* glibc's sysdeps/x86_64/jmpbuf-offsets.h */
#define PTR_GUARD_FS	0x30	/* tcbhead_t.pointer_guard */

__FDR_NO_INSTRUMENT static uint64_t saved_sp(const struct __jmp_buf_tag *env)
{
	uint64_t v = (uint64_t)env->__jmpbuf[JB_RSP];
	uint64_t guard;

	__asm__("movq %%fs:%c1, %0" : "=r"(guard) : "i"(PTR_GUARD_FS));
	return ((v >> 17) | (v << 47)) ^ guard;
}

__FDR_NO_INSTRUMENT static void close_jumped_frames(const struct __jmp_buf_tag *env)
{
	uint64_t target = saved_sp(env);

	if (target > (uint64_t)(uintptr_t)__builtin_frame_address(0)) {
		/* hooked library calls (plt_shadow.c): real return addresses
		 * for the walk; those jumped over closed in order, the others
		 * hooked again */
		fdr__plt_unhook_returns();
		fdr__unwind_close_stack_below(target);
		fdr__plt_rehook_returns((uintptr_t)target);
	}
}

/* __wrap_NAME: close the frames, then the real NAME (glibc's). */
#define JUMP_WRAPPER(name)							\
	void __real_##name(struct __jmp_buf_tag *env, int val)			\
		__attribute__((noreturn));					\
	__FDR_NO_INSTRUMENT __attribute__((noreturn))					\
	void __wrap_##name(struct __jmp_buf_tag *env, int val)			\
	{									\
		close_jumped_frames(env);					\
		__real_##name(env, val);					\
	}

JUMP_WRAPPER(longjmp)
JUMP_WRAPPER(_longjmp)
JUMP_WRAPPER(siglongjmp)
JUMP_WRAPPER(__longjmp_chk)
