// SPDX-License-Identifier: MIT
/*
 * xray_regs.c - every XRay sled kind, with every register live across it.
 *
 * Built with clang-19 -O2 -fxray-instrument: each target's body is its
 * sleds and nothing else (the untraced run of regs_test.c proves it), so
 * whatever register changes across a call was changed by a trampoline or
 * a handler.  Entry and exit (plain), tail exit (tail_call: a jump to
 * tail_leaf; tail_indirect: a jump through a register), arg1 entry
 * (with_arg), custom and typed events (the flags too: the compiler may
 * keep them live across an event sled, which sits inside a function).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "regs_run.h"

#define SLEDS	__attribute__((noinline, xray_always_instrument))

SLEDS void plain(void)
{
}

SLEDS void tail_leaf(void)
{
}

SLEDS void tail_call(void)
{
	tail_leaf();
}

SLEDS void tail_indirect(void (*to)(void))
{
	to();
}

SLEDS __attribute__((xray_log_args(1))) void with_arg(long v __attribute__((unused)))
{
}

static char event_data[] = "register check";

/* The flags across the event sled alone (entry and exit sleds may
 * change them: flags are dead at function boundaries), carried in rax,
 * which the check of these targets therefore skips. */
static __thread uint64_t flags_in, flags_out;

SLEDS void with_event(void *data, size_t len)
{
	__asm__ volatile("pushq %0; popfq" : : "a"(flags_in) : "cc");
	__xray_customevent(data, len);
	__asm__ volatile("pushfq; popq %0" : "=a"(flags_out));
}

SLEDS void with_typed(size_t type, void *data, size_t len)
{
	__asm__ volatile("pushq %0; popfq" : : "a"(flags_in) : "cc");
	__xray_typedevent(type, data, len);
	__asm__ volatile("pushfq; popq %0" : "=a"(flags_out));
}

static void args_tail(struct regs *r)
{
	r->gpr[R_RDI] = (uintptr_t)tail_leaf;
}

static void args_event(struct regs *r)
{
	r->gpr[R_RDI] = (uintptr_t)event_data;
	r->gpr[R_RSI] = sizeof(event_data) - 1;
	flags_in = r->flags;
}

static void args_typed(struct regs *r)
{
	r->gpr[R_RDI] = 7;
	r->gpr[R_RSI] = (uintptr_t)event_data;
	r->gpr[R_RDX] = sizeof(event_data) - 1;
	flags_in = r->flags;
}

static bool flags_kept(char *why, size_t whylen)
{
	if (flags_in == flags_out)
		return true;
	snprintf(why, whylen, "flags across the event sled: %#lx became %#lx",
		 (unsigned long)flags_in, (unsigned long)flags_out);
	return false;
}

static const struct regs_target targets[] = {
	{ "plain (entry, exit)", plain, NULL, NULL, 0 },
	{ "tail_call (entry, tail exit; entry, exit)", tail_call, NULL, NULL, 0 },
	{ "tail_indirect (entry, tail exit through a register)",
	  (void (*)(void))tail_indirect, args_tail, NULL, 0 },
	{ "with_arg (arg1 entry, exit)", (void (*)(void))with_arg, NULL, NULL, 0 },
	{ "with_event (custom event)", (void (*)(void))with_event, args_event,
	  flags_kept, 1u << R_RAX },
	{ "with_typed (typed event)", (void (*)(void))with_typed, args_typed,
	  flags_kept, 1u << R_RAX },
};

int main(int argc, char **argv)
{
	return regs_main(argc, argv, targets, sizeof(targets) / sizeof(targets[0]),
			 REGS_SLED);
}
