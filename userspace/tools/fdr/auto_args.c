// SPDX-License-Identifier: MIT
/*
 * auto_args.c - `fdr record -a` (uftrace's --auto-args): the argument
 * spec of every function of PROG's XRay map, from its DWARF (a -g
 * build).  Each formal parameter, in order, takes the next integer or
 * floating-point argument register as the x86-64 SysV ABI assigns them
 * (past the registers, the next stack slot);
 * its type picks the format: signed or unsigned of its size, a char,
 * a float or double, a C string for a pointer to char, else a pointer.
 * A parameter the registers cannot hold (a struct or long double by
 * value) ends the function's list there: where the following ones went
 * is not known without the whole ABI classification.  The return type
 * gives retval likewise (none for void or a struct).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "symbols_internal.h"

/* The type of die (typedefs and qualifiers peeled) into *t; 0 or -1. */
static int type_of(Dwarf_Die *die, Dwarf_Die *t)
{
	Dwarf_Attribute at;

	if (!dwarf_attr_integrate(die, DW_AT_type, &at) || !dwarf_formref_die(&at, t))
		return -1;
	return dwarf_peel_type(t, t) == 0 ? 0 : -1;
}

static bool is_char(Dwarf_Die *t)
{
	Dwarf_Attribute at;
	Dwarf_Word enc = 0;

	return dwarf_tag(t) == DW_TAG_base_type && dwarf_bytesize(t) == 1 &&
	       dwarf_attr(t, DW_AT_encoding, &at) && !dwarf_formudata(&at, &enc) &&
	       (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char);
}

/* A base type's item; 0, or -1 for one no register holds. */
static int base_item(Dwarf_Die *t, struct arg_item *it)
{
	Dwarf_Attribute at;
	Dwarf_Word enc = 0;
	int size = dwarf_bytesize(t);

	if (!dwarf_attr(t, DW_AT_encoding, &at) || dwarf_formudata(&at, &enc) ||
	    (size != 1 && size != 2 && size != 4 && size != 8))
		return -1;
	it->bits = (uint8_t)(size * 8);
	if (enc == DW_ATE_float) {
		it->fmt = 'f';
		it->fp = true;
		return size == 4 || size == 8 ? 0 : -1;
	}
	if (is_char(t))
		it->fmt = 'c';
	else if (enc == DW_ATE_signed)
		it->fmt = 'd';
	else if (enc == DW_ATE_unsigned || enc == DW_ATE_boolean)
		it->fmt = 'u';
	else
		return -1;
	return 0;
}

/* The item of a value of type t; 0, or -1 (no register holds it). */
static int type_item(Dwarf_Die *t, struct arg_item *it)
{
	Dwarf_Die to;

	memset(it, 0, sizeof(*it));
	it->bits = 64;
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		it->fmt = dwarf_tag(t) == DW_TAG_pointer_type && !type_of(t, &to) &&
			  is_char(&to) ? 's' : 'p';
		return 0;
	case DW_TAG_enumeration_type:
		it->fmt = 'd';
		it->bits = (uint8_t)(dwarf_bytesize(t) > 0 ? dwarf_bytesize(t) * 8 : 32);
		return 0;
	case DW_TAG_base_type:
		return base_item(t, it);
	default:
		return -1;
	}
}

struct regs_used {
	unsigned ints, fps, stack;	/* stack: the 8-byte slots taken */
};

/* Parameter p into s, on the next register of its class, else on the
 * next stack slot (as the spec numbers it: argN is slot N - 6, fpargN
 * slot N - 8, whatever the class of the slots before); 0 or -1 (stop). */
static int add_param(Dwarf_Die *p, struct arg_spec *s, struct regs_used *u)
{
	struct arg_item it;
	Dwarf_Die t;
	unsigned regs;

	if (s->n == FDR_ENTER_ARGS_MAX || type_of(p, &t) || type_item(&t, &it))
		return -1;
	regs = it.fp ? 8 : 6;
	if ((it.fp ? u->fps : u->ints) < regs)
		it.reg = (uint8_t)(it.fp ? ++u->fps : ++u->ints);
	else if (regs + u->stack + 1 <= ARG_SPEC_REG_MAX)
		it.reg = (uint8_t)(regs + ++u->stack);
	else
		return -1;
	s->arg[s->n++] = it;
	return 0;
}

/* The parameters of fn (or of its abstract origin, when the concrete
 * instance lists none). */
static void params(Dwarf_Die *fn, struct arg_spec *s)
{
	struct regs_used u = { 0 };
	Dwarf_Attribute at;
	Dwarf_Die child, origin;
	bool any = false;

	if (dwarf_child(fn, &child) == 0) {
		do {
			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			any = true;
			if (add_param(&child, s, &u))
				break;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!any && dwarf_attr(fn, DW_AT_abstract_origin, &at) &&
	    dwarf_formref_die(&at, &origin) && dwarf_haschildren(&origin) > 0)
		params(&origin, s);
}

/* fn's spec from its DWARF; false when it has nothing to log. */
static bool spec_of(Dwarf_Die *fn, struct arg_spec *s)
{
	Dwarf_Die t;

	memset(s, 0, sizeof(*s));
	params(fn, s);
	if (!type_of(fn, &t) && !type_item(&t, &s->ret))
		s->has_ret = true;
	return s->n || s->has_ret;
}

struct fn_addr {
	uint64_t address;
	int32_t fid;
};

static int by_address(const void *a, const void *b)
{
	const struct fn_addr *x = a, *y = b;

	return x->address < y->address ? -1 : x->address > y->address;
}

struct walk {
	const struct fn_addr *fns;	/* sorted by address */
	size_t n;
	struct arg_specs *out;
	size_t matched;			/* map functions DWARF describes */
	int err;
};

/* A subprogram whose entry is one of the map's functions: its spec. */
static void visit(struct walk *w, Dwarf_Die *die)
{
	struct fn_addr key = { 0 };
	const struct fn_addr *f;
	struct arg_spec s;

	if (dwarf_lowpc(die, &key.address))
		return;
	f = bsearch(&key, w->fns, w->n, sizeof(key), by_address);
	if (!f)
		return;
	w->matched++;
	if (spec_of(die, &s) && arg_specs_merge(w->out, f->fid, &s))
		w->err = -1;
}

/* The subprograms under parent: at the top of a CU, or in a namespace
 * (C++ definitions outside theirs point at them with
 * DW_AT_specification, which dwarf_attr_integrate follows). */
static void walk_children(struct walk *w, Dwarf_Die *parent)
{
	Dwarf_Die d;

	if (dwarf_child(parent, &d))
		return;
	do {
		if (dwarf_tag(&d) == DW_TAG_subprogram)
			visit(w, &d);
		else if (dwarf_tag(&d) == DW_TAG_namespace)
			walk_children(w, &d);
	} while (!w->err && dwarf_siblingof(&d, &d) == 0);
}

/*
 * Every CU in turn: clang does not write .debug_aranges, so
 * dwarf_addrdie() finds nothing in its builds.
 */
static int walk_units(Dwarf *dw, struct walk *w)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (!w->err && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			walk_children(w, &cu);
		off = next;
	}
	return w->err;
}

static void no_dwarf(const char *path)
{
	fprintf(stderr, "fdr record: -a: %s has no DWARF for its functions: rebuild it "
		"with -g, or give the arguments with -A FUNC@SPEC\n", path);
}

int fdr__auto_args_path(const char *path, const struct symbols *syms, struct arg_specs *out,
			bool quiet)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;
	Dwarf *dw = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
	struct walk w = { .fns = NULL, .n = syms->n, .out = out };
	struct fn_addr *fns;

	if (!dw) {
		if (!quiet)
			no_dwarf(path);
		if (fd >= 0)
			close(fd);
		return FDR_EXIT_FAILED;
	}
	fns = calloc(syms->n + 1, sizeof(*fns));
	for (size_t k = 0; fns && k < syms->n; k++)
		fns[k] = (struct fn_addr){ syms->v[k].address, syms->v[k].fid };
	if (fns) {
		qsort(fns, syms->n, sizeof(*fns), by_address);
		w.fns = fns;
	}
	if (!fns || walk_units(dw, &w)) {
		fprintf(stderr, "fdr record: -a: out of memory\n");
		r = FDR_EXIT_FAILED;
	} else if (!w.matched && syms->n) {	/* DWARF of libfdr's objects only */
		if (!quiet)
			no_dwarf(path);
		r = FDR_EXIT_FAILED;
	}
	free(fns);
	dwarf_end(dw);
	close(fd);
	return r;
}

int fdr__auto_args(const struct prog *p, const struct symbols *syms, struct arg_specs *out)
{
	return fdr__auto_args_path(p->path, syms, out, false);
}
