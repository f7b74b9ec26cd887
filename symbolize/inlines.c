/* SPDX-License-Identifier: BSD-2-Clause */
/* inlines.c - the functions inlined at an address, from the DWARF of an ELF file (libdw) */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "symbolize/inlines.h"

struct inlines {
	Dwarf *dw;
	int fd;
};

struct inlines *inlines_open(int fd)
{
	struct inlines *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (in->fd >= 0)
		in->dw = dwarf_begin(in->fd, DWARF_C_READ);
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

int inlines_at(struct inlines *in, uint64_t vaddr, const char **names, int cap)
{
	Dwarf_Die cu, *scopes = NULL;
	int nscopes, n = 0;

	if (inlines_cu(in->dw, vaddr, &cu))
		return 0;
	nscopes = dwarf_getscopes(&cu, vaddr, &scopes);
	/* Scopes come innermost first; the inlined ones sit inside the real function. */
	for (int i = nscopes - 1; i >= 0 && n < cap; i--) {
		const char *name;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_diename(&scopes[i]); /* follows DW_AT_abstract_origin */
		names[n++] = name ? name : "[inlined]";
	}
	free(scopes);
	return n;
}
