/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inlines.c - the functions inlined at an address, from the DWARF of an ELF file (libdw)
 *
 * The DWARF comes from files other users control. The scope tree is walked down from the
 * compile unit in a loop bounded by INLINES_MAX_DEPTH, not with libdw's recursive
 * dwarf_getscopes(), which a file of 100,000 nested lexical blocks (1 MB of DWARF) drove off
 * the end of the stack. The file is read through a descriptor of our own, not mapped: a
 * mapping of a file its owner truncates raises SIGBUS.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <unistd.h>

#include "symbolize/inlines.h"

/* Scopes deeper than this (blocks in inlined functions in blocks...) are not looked into. */
#define INLINES_MAX_DEPTH 256

struct inlines {
	Elf *elf;
	Dwarf *dw;
	int fd;
};

struct inlines *inlines_open(int fd)
{
	struct inlines *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->fd = -1;
	elf_version(EV_CURRENT);
	in->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (in->fd >= 0)
		in->elf = elf_begin(in->fd, ELF_C_READ, NULL);
	if (in->elf)
		in->dw = dwarf_begin_elf(in->elf, DWARF_C_READ, NULL);
	if (!in->dw) {
		inlines_free(in);
		return NULL;
	}
	return in;
}

void inlines_free(struct inlines *in)
{
	if (!in)
		return;
	if (in->dw)
		dwarf_end(in->dw);
	if (in->elf)
		elf_end(in->elf);
	if (in->fd >= 0)
		close(in->fd);
	free(in);
}

/* The compile unit covering vaddr: by .debug_aranges, else (clang omits them) unit by unit. */
static int inlines_cu(Dwarf *dw, uint64_t vaddr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, vaddr, cu))
		return 0;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, vaddr) == 1)
			return 0;
		off = next;
	}
	return -1;
}

static int inlines_container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type;
}

/*
 * The child of die whose code holds vaddr, into *child: a function, an inlined one or a block
 * whose ranges hold it, or a namespace (or class) that holds such a child, searched no deeper
 * than depth_left. Returns 0, or -1 when none does.
 */
static int inlines_child_at(Dwarf_Die *die, uint64_t vaddr, Dwarf_Die *child, int depth_left)
{
	if (depth_left <= 0 || dwarf_child(die, child) != 0)
		return -1;
	do {
		int tag = dwarf_tag(child);
		Dwarf_Die inner;

		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		     tag == DW_TAG_lexical_block) &&
		    dwarf_haspc(child, vaddr) == 1)
			return 0;
		if (inlines_container(tag) &&
		    !inlines_child_at(child, vaddr, &inner, depth_left - 1))
			return 0;
	} while (dwarf_siblingof(child, child) == 0);
	return -1;
}

int inlines_at(struct inlines *in, uint64_t vaddr, const char **names, int cap)
{
	Dwarf_Die die, child;
	int n = 0;

	if (inlines_cu(in->dw, vaddr, &die))
		return 0;
	/* Down from the unit, outermost first; the inlined ones sit inside the real function. */
	for (int depth = 0; depth < INLINES_MAX_DEPTH && n < cap; depth++) {
		if (inlines_child_at(&die, vaddr, &child, INLINES_MAX_DEPTH - depth))
			break;
		die = child;
		if (dwarf_tag(&die) == DW_TAG_inlined_subroutine) {
			const char *name = dwarf_diename(&die); /* follows DW_AT_abstract_origin */

			names[n++] = name ? name : "[inlined]";
		}
	}
	return n;
}
