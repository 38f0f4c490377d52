// SPDX-License-Identifier: MIT
/*
 * patch_decode.c - decide whether a function's entry can be patched, and
 * move its first instructions (patch_hook.h), with capstone.
 *
 * Moving an instruction keeps what it does at its new address: a
 * RIP-relative operand gets its displacement rebased, a relative jmp or
 * jcc becomes its rel32 form aimed at the same target, and a call (only
 * as the last moved instruction) pushes the original return address and
 * jumps, so the callee returns behind the patch, where the unwinder
 * knows the frame.  jrcxz and loop have no rel32 form: refused.
 *
 * The whole function is then scanned: a branch to any byte from the
 * entry to the end of the patch would run the jmp again (a loop back to
 * the entry: a second "call") or land inside it; an indirect jump other
 * than a GOT tail call may be a jump table that does the same.  Both
 * refuse the function.  Code reading its own bytes is not detected.
 */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "patch_hook.h"

static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

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
	[FDR_PATCH_RUNTIME] = "used by fdr's runtime",
};

/* The moved code being written: buf[0] runs at at. */
struct emit {
	uint8_t *buf;
	uint32_t len;
	uintptr_t at;
};

void *fdr__patch_decoder_open(void)
{
	csh h;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return NULL;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	return (void *)h;
}

void fdr__patch_decoder_close(void *dec)
{
	csh h = (csh)dec;

	cs_close(&h);
}

static bool put(struct emit *e, const void *b, uint32_t n)
{
	if (e->len + n > FDR_PATCH_CODE_MAX)
		return false;
	memcpy(e->buf + e->len, b, n);
	e->len += n;
	return true;
}

/* to - from as a rel32, if it fits. */
static bool rel32(uintptr_t from, uintptr_t to, int32_t *out)
{
	int64_t d = (int64_t)(to - from);

	*out = (int32_t)d;
	return d == (int64_t)*out;
}

/* op (1 or 2 bytes) + rel32 to target. */
static bool put_branch(struct emit *e, const uint8_t *op, uint32_t oplen, uintptr_t target)
{
	uint8_t b[6];
	int32_t d;

	memcpy(b, op, oplen);
	if (!rel32(e->at + e->len + oplen + 4, target, &d))
		return false;
	memcpy(b + oplen, &d, 4);
	return put(e, b, oplen + 4);
}

/* call target from the moved code, returning to ret: lea -8(%rsp),%rsp
 * (no flags touched); movl lo,(%rsp); movl hi,4(%rsp); jmp target. */
static bool put_call(struct emit *e, uintptr_t ret, uintptr_t target)
{
	uint8_t b[20] = { 0x48, 0x8d, 0x64, 0x24, 0xf8, 0xc7, 0x04, 0x24, 0, 0, 0, 0,
			  0xc7, 0x44, 0x24, 0x04, 0, 0, 0, 0 };
	uint32_t lo = (uint32_t)ret, hi = (uint32_t)((uint64_t)ret >> 32);

	memcpy(b + 8, &lo, 4);
	memcpy(b + 16, &hi, 4);
	return put(e, b, sizeof(b)) && put_branch(e, (const uint8_t[]){ 0xe9 }, 1, target);
}

static bool in_group(const cs_insn *i, uint8_t g)
{
	for (uint8_t k = 0; k < i->detail->groups_count; k++)
		if (i->detail->groups[k] == g)
			return true;
	return false;
}

/* A jcc's condition code (0-15), or -1 (jrcxz, loop...). */
static int jcc_cond(const cs_x86 *x)
{
	if (x->opcode[0] >= 0x70 && x->opcode[0] <= 0x7f)
		return x->opcode[0] - 0x70;
	if (x->opcode[0] == 0x0f && x->opcode[1] >= 0x80 && x->opcode[1] <= 0x8f)
		return x->opcode[1] - 0x80;
	return -1;
}

static bool move_branch(struct emit *e, const cs_insn *i, bool last)
{
	const cs_x86 *x = &i->detail->x86;
	uintptr_t target = (uintptr_t)x->operands[0].imm;
	int cc = jcc_cond(x);

	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return false;
	if (i->id == X86_INS_JMP)
		return put_branch(e, (const uint8_t[]){ 0xe9 }, 1, target);
	if (i->id == X86_INS_CALL)	/* its return must land behind the patch */
		return last && put_call(e, (uintptr_t)(i->address + i->size), target);
	return cc >= 0 && put_branch(e, (const uint8_t[]){ 0x0f, (uint8_t)(0x80 + cc) }, 2,
				     target);
}

static bool rip_relative(const cs_x86 *x)
{
	for (uint8_t k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_MEM && x->operands[k].mem.base == X86_REG_RIP)
			return true;
	return false;
}

/* Copy i, its RIP-relative displacement rebased to the new address. */
static bool move_plain(struct emit *e, const cs_insn *i)
{
	const cs_x86 *x = &i->detail->x86;
	uint8_t b[16];
	int32_t d;

	memcpy(b, i->bytes, i->size);
	if (rip_relative(x)) {
		if (x->encoding.disp_offset == 0 || x->encoding.disp_size != 4 ||
		    x->encoding.disp_offset + 4u > i->size ||
		    !rel32(e->at + e->len + i->size, (uintptr_t)(i->address + i->size + x->disp), &d))
			return false;
		memcpy(b + x->encoding.disp_offset, &d, 4);
	}
	return put(e, b, i->size);
}

static bool move_insn(struct emit *e, const cs_insn *i, bool last)
{
	if (in_group(i, CS_GRP_BRANCH_RELATIVE))
		return move_branch(e, i, last);
	return move_plain(e, i);
}

/* Is i a branch that makes the patch of [lo, end) unsafe? */
static enum fdr_patch_why check_branch(const cs_insn *i, uintptr_t lo, uintptr_t end)
{
	const cs_x86 *x = &i->detail->x86;
	const cs_x86_op *op = &x->operands[0];
	bool call = in_group(i, CS_GRP_CALL);

	if (!call && !in_group(i, CS_GRP_JUMP))
		return FDR_PATCH_OK;
	if (x->op_count == 1 && op->type == X86_OP_IMM) {
		uintptr_t t = (uintptr_t)op->imm;

		/* a call of the function itself is a call, recorded once */
		if (t >= lo + (call ? 1 : 0) && t < end)
			return FDR_PATCH_JUMP_INTO;
		return FDR_PATCH_OK;
	}
	if (call)
		return FDR_PATCH_OK;
	/* jmp *sym@GOTPCREL(%rip): a tail call, no table */
	if (x->op_count == 1 && op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
	    op->mem.index == X86_REG_INVALID)
		return FDR_PATCH_OK;
	return FDR_PATCH_INDIRECT;
}

/* Move the first instructions at plan->at until they cover the jmp. */
static enum fdr_patch_why move_head(csh h, cs_insn *i, uintptr_t end, uintptr_t tramp,
				    struct fdr_patch_plan *plan)
{
	struct emit e = { plan->code, 0, tramp };
	const uint8_t *code = (const uint8_t *)plan->at;
	size_t left = end - plan->at;
	uint64_t addr = plan->at;

	while (plan->len < FDR_PATCH_JMP_LEN) {
		if (!cs_disasm_iter(h, &code, &left, &addr, i))
			return left ? FDR_PATCH_UNDECODABLE : FDR_PATCH_TOO_SHORT;
		plan->len += i->size;
		if (!move_insn(&e, i, plan->len >= FDR_PATCH_JMP_LEN))
			return FDR_PATCH_UNMOVABLE;
	}
	if (!put_branch(&e, (const uint8_t[]){ 0xe9 }, 1, plan->at + plan->len))
		return FDR_PATCH_UNMOVABLE;
	plan->code_len = e.len;
	return FDR_PATCH_OK;
}

/* Every instruction of the function, for branches into the patch. */
static enum fdr_patch_why scan_body(csh h, cs_insn *i, uintptr_t fn, uintptr_t end,
				    const struct fdr_patch_plan *plan)
{
	const uint8_t *code = (const uint8_t *)plan->at;
	size_t left = end - plan->at;
	uint64_t addr = plan->at;
	enum fdr_patch_why why = FDR_PATCH_OK;

	while (left && why == FDR_PATCH_OK) {
		if (!cs_disasm_iter(h, &code, &left, &addr, i))
			return FDR_PATCH_UNDECODABLE;
		why = check_branch(i, fn, plan->at + plan->len);
	}
	return why;
}

/* Bytes of alignment padding (nops, int3) from p, at most max. */
static size_t padding(csh h, cs_insn *i, uintptr_t p, size_t max)
{
	const uint8_t *code = (const uint8_t *)p;
	size_t left = max;
	uint64_t addr = p;

	while (left && cs_disasm_iter(h, &code, &left, &addr, i) &&
	       (i->id == X86_INS_NOP || i->id == X86_INS_INT3 ||
		(i->size == 2 && i->bytes[0] == 0x66 && i->bytes[1] == 0x90)))
		;
	return (size_t)(addr - p);
}

enum fdr_patch_why fdr__patch_plan(void *dec, const struct fdr_patch_func *f, uintptr_t tramp,
				   struct fdr_patch_plan *plan)
{
	csh h = (csh)dec;
	uintptr_t fn = f->at, end = f->at + f->size;
	cs_insn *i;
	enum fdr_patch_why why;

	memset(plan, 0, sizeof(*plan));
	plan->at = fn;
	/* an indirect call's landing pad stays at the entry, the jmp after it */
	if (f->size >= sizeof(endbr64) && !memcmp((const void *)fn, endbr64, sizeof(endbr64)))
		plan->at += sizeof(endbr64);
	i = cs_malloc(h);
	if (!i)
		return FDR_PATCH_UNDECODABLE;
	/* a short function: the jmp may cover the padding nothing runs
	 * (not behind a symbol without a size: elf_symtab gives it 1) */
	if (end < plan->at + FDR_PATCH_JMP_LEN && f->room > f->size && f->size > 1)
		end += padding(h, i, end, f->room - f->size);
	why = end < plan->at + FDR_PATCH_JMP_LEN ? FDR_PATCH_TOO_SHORT
						  : move_head(h, i, end, tramp, plan);
	if (why == FDR_PATCH_OK)
		why = scan_body(h, i, fn, fn + f->size, plan);
	cs_free(i, 1);
	return why;
}
