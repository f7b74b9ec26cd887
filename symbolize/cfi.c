/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cfi.c - unwind tables (bpf/unwind.h rows) from an ELF file's .eh_frame and .debug_frame
 *
 * libdw interprets the CFI; this file only asks it questions and writes the answers down.
 * Pass 1 lists every FDE with dwarf_next_cfi and decodes its address range (the one thing
 * libdw leaves to the caller: the pointer encoding named in the CIE's augmentation). FDEs
 * outside the file's executable segments are dropped as corrupt; the rest are sorted by start
 * address, and where two overlap the earlier start wins (.eh_frame before .debug_frame on a
 * tie), so the table does not depend on section order. Pass 2 walks each FDE's range row by
 * row: dwarf_cfi_addrframe at an address gives the row holding it and, with dwarf_frame_info,
 * where that row ends, which is where the next question is asked. Each row's CFA, rbp and
 * return-address rules are mapped to one struct unw_row; equal neighbours merge, gaps between
 * FDEs become UNW_CFA_NONE rows, and the table ends with one.
 *
 * The files are hostile (emberd runs as root on files any user may write), so everything is
 * bounded: rows by max_rows, the rows of one FDE by its instruction bytes (each row needs an
 * advance), and libdw's work, which is quadratic in an FDE's length (every question replays
 * the FDE's program from its start), by a budget proportional to the section's size. lld
 * types .eh_frame SHT_X86_64_UNWIND rather than SHT_PROGBITS; both are read.
 */
#include <errno.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "symbolize/cfi.h"

#define CFI_REG_SP 7
#define CFI_REG_FP 6
#define CFI_REG_RA 16
#define CFI_RA_OFF (-8)
#define CFI_MAX_TEXT 16
/* Larger CFI sections are not read (libLLVM's .eh_frame is 5 MiB). */
#define CFI_MAX_SECTION (256u << 20)
/*
 * libdw replays up to CFI_WORK_MIN + CFI_WORK_PER_BYTE instruction bytes per CFI byte (about a
 * second, plus 1 us per CFI byte) before we call the CFI hostile. Real files need 8-22 per byte
 * (libc, python3, node, libLLVM); gcc's lto-dump 95, 134M for its one 20 KB FDE program.
 */
#define CFI_WORK_PER_BYTE 256
#define CFI_WORK_MIN (256u << 20)

struct cfi_fde {
	uint64_t lo, hi;
	size_t len; /* bytes of the FDE's instructions */
	size_t off; /* section offset: the tie-break */
	int src;    /* 0 .eh_frame, 1 .debug_frame */
};

struct cfi_src {
	Dwarf_CFI *cfi;
	Elf_Data *data;
	uint64_t addr; /* the section's address, base of pc-relative pointers */
	bool eh;
};

struct cfi_build {
	struct cfi_src src[2];
	uint64_t text[CFI_MAX_TEXT][2]; /* executable segments [lo, hi) */
	int ntext;
	unsigned char ident[EI_NIDENT];
	struct cfi_fde *fdes;
	size_t nfdes, fdes_cap;
	struct unw_row *rows;
	size_t nrows, rows_cap, max_rows;
	uint64_t end; /* where the last row's range ends */
	size_t good, bad, unsupported, work, budget, cfi_bytes;
	char *err;
	size_t errlen;
};

/* Reads a pointer in encoding enc (DW_EH_PE_*). Returns its size, or 0 for one we do not read. */
static size_t cfi_read_ptr(const uint8_t *p, const uint8_t *end, uint8_t enc, uint64_t pc,
			   uint64_t *val)
{
	static const uint8_t sizes[16] = {
		[DW_EH_PE_absptr] = 8, [DW_EH_PE_udata2] = 2, [DW_EH_PE_udata4] = 4,
		[DW_EH_PE_udata8] = 8, [DW_EH_PE_sdata2] = 2, [DW_EH_PE_sdata4] = 4,
		[DW_EH_PE_sdata8] = 8
	};
	size_t n = sizes[enc & 0x0f];
	uint64_t v = 0;

	if (!n || (size_t)(end - p) < n || (enc & 0x70) > DW_EH_PE_pcrel || (enc & 0x80))
		return 0;
	memcpy(&v, p, n); /* little-endian, checked with the ELF header */
	if ((enc & 0x08) && n < 8 && (v >> (8 * n - 1)))
		v |= ~0ull << (8 * n); /* sdata: sign-extend */
	*val = v + ((enc & 0x70) == DW_EH_PE_pcrel ? pc : 0);
	return n;
}

/* The FDE pointer encoding a CIE's augmentation names. Returns it, or -1. */
static int cfi_cie_encoding(const Dwarf_CIE *cie, bool eh)
{
	const uint8_t *d = cie->augmentation_data, *end = d + cie->augmentation_data_size;
	uint64_t skip;
	size_t n;

	if (!eh || !cie->augmentation[0])
		return DW_EH_PE_absptr;
	if (cie->augmentation[0] != 'z')
		return -1;
	for (const char *a = cie->augmentation + 1; *a; a++) {
		if (*a == 'R')
			return d < end ? *d : -1;
		if (*a == 'L' && d < end)
			d++;
		else if (*a == 'P' && d < end &&
			 (n = cfi_read_ptr(d + 1, end, *d & 0x0f, 0, &skip)))
			d += 1 + n;
		else if (*a != 'S' && *a != 'B' && *a != 'G')
			return -1;
	}
	return DW_EH_PE_absptr;
}

static int cfi_fail(struct cfi_build *b, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int cfi_fail(struct cfi_build *b, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
	return err;
}

static int cfi_push_fde(struct cfi_build *b, const struct cfi_fde *f)
{
	if (b->nfdes == b->fdes_cap) {
		size_t cap = b->fdes_cap ? 2 * b->fdes_cap : 256;
		struct cfi_fde *n = realloc(b->fdes, cap * sizeof(*n));

		if (!n)
			return cfi_fail(b, -ENOMEM, "out of memory for %zu FDEs", cap);
		b->fdes = n;
		b->fdes_cap = cap;
	}
	b->fdes[b->nfdes++] = *f;
	return 0;
}

static bool cfi_in_text(const struct cfi_build *b, uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < b->ntext; i++)
		if (lo >= b->text[i][0] && hi <= b->text[i][1])
			return true;
	return false;
}

/* Decodes one FDE's range into b->fdes; a corrupt one only counts in b->bad. Returns 0 or -ENOMEM. */
static int cfi_add_fde(struct cfi_build *b, int src, const Dwarf_FDE *fde, size_t off)
{
	const struct cfi_src *s = &b->src[src];
	const uint8_t *buf = s->data->d_buf;
	Dwarf_CFI_Entry cie;
	Dwarf_Off next;
	struct cfi_fde f = { .off = off, .src = src, .len = (size_t)(fde->end - fde->start) };
	uint64_t range;
	size_t n;
	int enc;

	if (dwarf_next_cfi(b->ident, s->data, s->eh, fde->CIE_pointer, &next, &cie) ||
	    !dwarf_cfi_cie_p(&cie) || (enc = cfi_cie_encoding(&cie.cie, s->eh)) < 0)
		goto bad;
	n = cfi_read_ptr(fde->start, fde->end, (uint8_t)enc, s->addr + (fde->start - buf), &f.lo);
	if (!n || !cfi_read_ptr(fde->start + n, fde->end, (uint8_t)enc & 0x0f, 0, &range))
		goto bad;
	f.hi = f.lo + range;
	if (!range)
		return 0; /* an empty FDE (a discarded function's leftover) describes nothing */
	if (f.hi < f.lo || !cfi_in_text(b, f.lo, f.hi))
		goto bad;
	return cfi_push_fde(b, &f);
bad:
	b->bad++;
	return 0;
}

/* Lists the FDEs of one section. Returns 0, -ENOMEM, or -EBADMSG when most of it is unreadable. */
static int cfi_list_fdes(struct cfi_build *b, int src)
{
	const struct cfi_src *s = &b->src[src];
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	int r, err;

	b->cfi_bytes += s->data->d_size;
	while ((r = dwarf_next_cfi(b->ident, s->data, s->eh, off, &next, &e)) == 0) {
		if (!dwarf_cfi_cie_p(&e) && (err = cfi_add_fde(b, src, &e.fde, off)))
			return err;
		if (next <= off)
			break;
		off = next;
	}
	if (r < 0 && off < s->data->d_size / 2)
		return cfi_fail(b, -EBADMSG, "CFI unreadable from offset %llu on",
				(unsigned long long)off);
	return 0;
}

static int cfi_fde_cmp(const void *pa, const void *pb)
{
	const struct cfi_fde *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->src != b->src)
		return a->src - b->src;
	return a->off < b->off ? -1 : a->off > b->off;
}

static bool cfi_fits16(int64_t v)
{
	return v >= INT16_MIN && v <= INT16_MAX;
}

/* The register and offset of a DW_OP_breg<n> or DW_OP_bregx. Returns false for other operations. */
static bool cfi_op_breg(const Dwarf_Op *op, uint64_t *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	*reg = op->number;
	*off = (int64_t)op->number2;
	return op->atom == DW_OP_bregx;
}

/* The offset from the CFA at which a register rule says the register is saved. */
static bool cfi_at_cfa(const Dwarf_Op *ops, size_t n, int64_t *off)
{
	if (n == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		*off = 0;
		return true;
	}
	*off = n == 2 ? (int64_t)ops[1].number : 0;
	return n == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst;
}

/*
 * The x86-64 PLT rule as binutils writes it: CFA = rsp + N + (((rip & 15) >= T) << 3), i.e.
 * DW_OP_breg7 N; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_litT; DW_OP_ge; DW_OP_lit3;
 * DW_OP_shl; DW_OP_plus (T is 11, or 10 in PLTs with endbr64).
 */
static bool cfi_plt(const Dwarf_Op *ops, size_t n, struct unw_row *r)
{
	static const uint8_t shape[] = { DW_OP_breg7, DW_OP_breg16, DW_OP_lit15,
					 DW_OP_and,   DW_OP_lit0,   DW_OP_ge,
					 DW_OP_lit3,  DW_OP_shl,    DW_OP_plus };

	if (n != sizeof(shape))
		return false;
	for (size_t i = 0; i < n; i++)
		if (i != 4 && ops[i].atom != shape[i])
			return false;
	if (ops[1].number || ops[4].atom < DW_OP_lit0 || ops[4].atom > DW_OP_lit15 ||
	    !cfi_fits16((int64_t)ops[0].number))
		return false;
	r->cfa_rule = UNW_CFA_PLT;
	r->cfa_off = (int16_t)ops[0].number;
	r->fp_off = (int16_t)(ops[4].atom - DW_OP_lit0);
	return true;
}

static void cfi_cfa(Dwarf_Frame *fr, struct unw_row *r)
{
	Dwarf_Op *ops;
	size_t n;
	uint64_t reg;
	int64_t off;

	if (dwarf_frame_cfa(fr, &ops, &n) || !n)
		return;
	if (n == 1 && cfi_op_breg(ops, &reg, &off) && cfi_fits16(off) &&
	    (reg == CFI_REG_SP || reg == CFI_REG_FP)) {
		r->cfa_rule = reg == CFI_REG_SP ? UNW_CFA_SP : UNW_CFA_FP;
		r->cfa_off = (int16_t)off;
		return;
	}
	cfi_plt(ops, n, r);
}

enum cfi_reg_rule { CFI_SAME, CFI_UNDEF, CFI_OPS, CFI_ERR };

static enum cfi_reg_rule cfi_reg(Dwarf_Frame *fr, int reg, Dwarf_Op mem[3], Dwarf_Op **ops,
				 size_t *n)
{
	if (dwarf_frame_register(fr, reg, mem, ops, n))
		return CFI_ERR;
	if (*n)
		return CFI_OPS;
	return *ops ? CFI_UNDEF : CFI_SAME;
}

/* Where a signal frame's register reg is saved, as an offset from SP: [DW_OP_breg7 N]. */
static bool cfi_sig_slot(Dwarf_Frame *fr, int reg, int16_t *slot)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	uint64_t base;
	int64_t off;

	if (cfi_reg(fr, reg, mem, &ops, &n) != CFI_OPS)
		return false;
	if (n == 2 && ops[0].atom == DW_OP_call_frame_cfa) { /* libdw pushes the CFA first */
		ops++;
		n--;
	}
	if (n != 1 || !cfi_op_breg(ops, &base, &off) || base != CFI_REG_SP || !cfi_fits16(off))
		return false;
	*slot = (int16_t)off;
	return true;
}

/* A signal trampoline (glibc's __restore_rt): the interrupted registers are in the ucontext at SP. */
static void cfi_signal_row(Dwarf_Frame *fr, struct unw_row *r)
{
	if (cfi_sig_slot(fr, CFI_REG_SP, &r->cfa_off) && cfi_sig_slot(fr, CFI_REG_FP, &r->fp_off) &&
	    cfi_sig_slot(fr, CFI_REG_RA, &r->ra_off))
		r->cfa_rule = UNW_CFA_SIGNAL;
}

static void cfi_fp(Dwarf_Frame *fr, struct unw_row *r)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	int64_t off;

	switch (cfi_reg(fr, CFI_REG_FP, mem, &ops, &n)) {
	case CFI_SAME:
		return;
	case CFI_OPS:
		if (cfi_at_cfa(ops, n, &off) && cfi_fits16(off)) {
			r->fp_rule = UNW_FP_AT_CFA;
			r->fp_off = (int16_t)off;
			return;
		}
		/* fallthrough */
	default:
		r->fp_rule = UNW_FP_UNDEF;
	}
}

/* One row of rules; UNW_CFA_NONE when they do not fit the row format. */
static void cfi_row(Dwarf_Frame *fr, bool sig, struct unw_row *r)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	int64_t off;

	memset(r, 0, sizeof(*r));
	if (sig) {
		cfi_signal_row(fr, r);
		return;
	}
	switch (cfi_reg(fr, CFI_REG_RA, mem, &ops, &n)) {
	case CFI_UNDEF:
		r->cfa_rule = UNW_CFA_END;
		return;
	case CFI_OPS:
		if (cfi_at_cfa(ops, n, &off) && off == CFI_RA_OFF)
			break;
		/* fallthrough */
	default:
		return;
	}
	cfi_cfa(fr, r);
	if (r->cfa_rule == UNW_CFA_NONE)
		return;
	r->ra_off = CFI_RA_OFF;
	cfi_fp(fr, r);
	if (r->cfa_rule == UNW_CFA_PLT && r->fp_rule != UNW_FP_SAME)
		memset(r, 0, sizeof(*r)); /* fp_off holds the PLT threshold */
}

/* Appends a row unless it repeats the last one. Returns 0, -E2BIG or -ENOMEM. */
static int cfi_push_row(struct cfi_build *b, uint64_t pc, const struct unw_row *r)
{
	const size_t rule = offsetof(struct unw_row, cfa_rule);
	struct unw_row *last = b->nrows ? &b->rows[b->nrows - 1] : NULL;

	if (last && !memcmp((char *)last + rule, (const char *)r + rule, sizeof(*r) - rule))
		return 0;
	if (b->nrows == b->max_rows)
		return cfi_fail(b, -E2BIG, "more than %zu unwind rows", b->max_rows);
	if (b->nrows == b->rows_cap) {
		size_t cap = b->rows_cap ? 2 * b->rows_cap : 1024;
		struct unw_row *n;

		cap = cap < b->max_rows ? cap : b->max_rows;
		n = realloc(b->rows, cap * sizeof(*n));
		if (!n)
			return cfi_fail(b, -ENOMEM, "out of memory for %zu unwind rows", cap);
		b->rows = n;
		b->rows_cap = cap;
	}
	b->rows[b->nrows] = *r;
	b->rows[b->nrows++].pc = (uint32_t)pc;
	return 0;
}

/* The row for [lo, hi), after a UNW_CFA_NONE row for any gap since the last one. */
static int cfi_emit(struct cfi_build *b, uint64_t lo, uint64_t hi, const struct unw_row *r)
{
	static const struct unw_row none;
	int err;

	if (b->nrows && lo > b->end && (err = cfi_push_row(b, b->end, &none)))
		return err;
	b->end = hi;
	return cfi_push_row(b, lo, r);
}

/* Rows for [lo, f->hi). Returns 0, 1 when libdw cannot read the FDE, or a -errno. */
static int cfi_walk_fde(struct cfi_build *b, const struct cfi_fde *f, uint64_t lo)
{
	size_t calls = 0;
	int err;

	for (uint64_t a = lo, end; a < f->hi; a = end) {
		Dwarf_Frame *fr;
		Dwarf_Addr start;
		struct unw_row r;
		bool sig, ok;

		if (calls++ > f->len)
			return 1; /* more rows than instruction bytes: not this FDE's program */
		if ((b->work += f->len) > b->budget)
			return cfi_fail(b, -EBADMSG, "CFI too costly to read (over %zu steps)",
					b->budget);
		if (dwarf_cfi_addrframe(b->src[f->src].cfi, a, &fr))
			return 1;
		ok = dwarf_frame_info(fr, &start, &end, &sig) >= 0 && end > a;
		if (ok)
			cfi_row(fr, sig, &r);
		free(fr);
		if (!ok)
			return 1;
		b->unsupported += r.cfa_rule == UNW_CFA_NONE;
		end = end < f->hi ? end : f->hi;
		if ((err = cfi_emit(b, a, end, &r)))
			return err;
	}
	return 0;
}

/* Rows for every FDE in address order, overlaps to the earlier start. Returns 0 or -errno. */
static int cfi_walk(struct cfi_build *b)
{
	static const struct unw_row none;
	uint64_t covered = 0;
	int r;

	if (b->nfdes)
		qsort(b->fdes, b->nfdes, sizeof(*b->fdes), cfi_fde_cmp);
	b->budget = CFI_WORK_PER_BYTE * b->cfi_bytes;
	b->budget = b->budget > CFI_WORK_MIN ? b->budget : CFI_WORK_MIN;
	for (size_t i = 0; i < b->nfdes; i++) {
		const struct cfi_fde *f = &b->fdes[i];

		if (f->hi <= covered)
			continue;
		r = cfi_walk_fde(b, f, f->lo > covered ? f->lo : covered);
		if (r < 0)
			return r;
		*(r ? &b->bad : &b->good) += 1;
		covered = f->hi;
	}
	return b->nrows ? cfi_push_row(b, b->end, &none) : 0;
}

/* The executable segments, which every FDE must lie in. Returns 0 or -errno. */
static int cfi_read_elf(struct cfi_build *b, Elf *elf)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t n;

	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		return cfi_fail(b, -EBADMSG, "not an ELF file: %s", elf_errmsg(-1));
	if (eh.e_machine != EM_X86_64 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return cfi_fail(b, -ENOTSUP, "unwind tables are for x86-64 ELF64 (machine %d)",
				eh.e_machine);
	memcpy(b->ident, eh.e_ident, EI_NIDENT);
	for (size_t i = 0; i < n && gelf_getphdr(elf, (int)i, &ph); i++) {
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || !ph.p_memsz)
			continue;
		if (ph.p_vaddr > UINT32_MAX || ph.p_memsz > UINT32_MAX - ph.p_vaddr)
			return cfi_fail(b, -ERANGE, "code at 0x%llx beyond the 32-bit row pc",
					(unsigned long long)ph.p_vaddr);
		if (b->ntext == CFI_MAX_TEXT)
			return cfi_fail(b, -EBADMSG, "over %d executable segments", CFI_MAX_TEXT);
		b->text[b->ntext][0] = ph.p_vaddr;
		b->text[b->ntext++][1] = ph.p_vaddr + ph.p_memsz;
	}
	return b->ntext ? 0 : cfi_fail(b, -ENOENT, "no executable segment");
}

/* The section called name, when it has contents. */
static Elf_Scn *cfi_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	const char *s;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) &&
		    (sh->sh_type == SHT_PROGBITS || sh->sh_type == SHT_X86_64_UNWIND) &&
		    (s = elf_strptr(elf, strndx, sh->sh_name)) && !strcmp(s, name))
			return scn;
	return NULL;
}

/* Source src from a section and libdw's reader of it; absent sections leave it empty. */
static void cfi_use(struct cfi_build *b, int src, Elf *elf, Dwarf_CFI *cfi, const char *name)
{
	struct cfi_src *s = &b->src[src];
	GElf_Shdr sh;
	Elf_Scn *scn = cfi ? cfi_section(elf, name, &sh) : NULL;

	s->data = scn ? elf_getdata(scn, NULL) : NULL;
	s->cfi = s->data && s->data->d_buf ? cfi : NULL;
	s->addr = scn ? sh.sh_addr : 0;
	s->eh = src == 0;
	if (src == 0 && cfi && !s->cfi)
		dwarf_cfi_end(cfi);
}

static int cfi_finish(struct cfi_build *b, struct cfi_table *t)
{
	if (b->bad > b->good)
		return cfi_fail(b, -EBADMSG, "%zu of %zu FDEs unreadable", b->bad,
				b->bad + b->good);
	if (!b->nrows)
		return cfi_fail(b, -ENOENT, "no FDE describes code");
	t->rows = b->rows;
	t->nrows = b->nrows;
	t->cfi_bytes = b->cfi_bytes;
	t->unsupported = b->unsupported;
	t->skipped = b->bad;
	b->rows = NULL;
	return 0;
}

/*
 * libdw's readers of .eh_frame and of the debug file's .debug_frame. Returns 0, -ENOENT, or
 * -E2BIG for an .eh_frame over CFI_MAX_SECTION (libdw would read it whole: a sparse file makes
 * a huge one cheap).
 */
static int cfi_open(struct cfi_build *b, Elf *elf, int debug_fd, Elf **delf, Dwarf **dw)
{
	GElf_Shdr sh;

	if (cfi_section(elf, ".eh_frame", &sh) && sh.sh_size > CFI_MAX_SECTION)
		return cfi_fail(b, -E2BIG, ".eh_frame of %llu bytes, over %u MiB",
				(unsigned long long)sh.sh_size, CFI_MAX_SECTION >> 20);
	cfi_use(b, 0, elf, dwarf_getcfi_elf(elf), ".eh_frame");
	if (debug_fd >= 0) {
		*delf = elf_begin(debug_fd, ELF_C_READ, NULL);
		*dw = *delf ? dwarf_begin_elf(*delf, DWARF_C_READ, NULL) : NULL;
		cfi_use(b, 1, *delf, *dw ? dwarf_getcfi(*dw) : NULL, ".debug_frame");
	}
	if (!b->src[0].cfi && !b->src[1].cfi)
		return cfi_fail(b, -ENOENT, "no .eh_frame or .debug_frame");
	return 0;
}

int cfi_table_build(int fd, int debug_fd, size_t max_rows, struct cfi_table *t, char *err,
		    size_t errlen)
{
	struct cfi_build b = { .max_rows = max_rows, .err = err, .errlen = errlen };
	Elf *elf, *delf = NULL;
	Dwarf *dw = NULL;
	int ret;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ret = cfi_read_elf(&b, elf);
	if (!ret)
		ret = cfi_open(&b, elf, debug_fd, &delf, &dw);
	for (int i = 0; i < 2 && !ret; i++)
		if (b.src[i].cfi)
			ret = cfi_list_fdes(&b, i);
	if (!ret)
		ret = cfi_walk(&b);
	if (!ret)
		ret = cfi_finish(&b, t);
	free(b.fdes);
	free(b.rows);
	if (b.src[0].cfi)
		dwarf_cfi_end(b.src[0].cfi);
	dwarf_end(dw);
	elf_end(delf);
	elf_end(elf);
	return ret;
}

void cfi_table_free(struct cfi_table *t)
{
	if (!t)
		return;
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}
