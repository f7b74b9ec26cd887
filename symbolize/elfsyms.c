/* SPDX-License-Identifier: BSD-2-Clause */
/* elfsyms.c - the function symbols, load segments and identity of one ELF file (libelf) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "symbolize/elfsyms.h"
#include "symbolize/minidebug.h"

/* Caps against hostile files: a real libxul has about 300k function symbols. */
#define ELFSYMS_MAX_SYMS (4u << 20)
#define ELFSYMS_MAX_NAME 4096
#define ELFSYMS_MAX_SEGS 64
/* A symbol of size 0 covers up to the next one, but no further than this. */
#define ELFSYMS_UNSIZED_SPAN 4096
/* How far back a lookup looks for a symbol that encloses smaller ones. */
#define ELFSYMS_ENCLOSE_SCAN 8

struct elf_seg {
	uint64_t vaddr, off, filesz;
};

struct elf_sym {
	uint64_t addr;
	uint32_t size, name;
	uint8_t bind;
	uint8_t label; /* an untyped assembler label, not a function symbol */
};

struct elfsyms {
	struct elfsyms_info info;
	char *debuglink;
	struct elf_seg segs[ELFSYMS_MAX_SEGS];
	size_t nsegs;
	struct elf_sym *syms;
	size_t nsyms, syms_cap;
	char *names;
	size_t names_len, names_cap;
	char **alt;
	size_t alt_bytes;
};

static int elfsyms_init_libelf(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok ? 0 : -ENOTSUP;
}

static int elfsyms_add_name(struct elfsyms *es, const char *name, uint32_t *off)
{
	size_t len = strnlen(name, ELFSYMS_MAX_NAME);

	if (es->names_len + len + 1 > es->names_cap) {
		size_t ncap = es->names_cap ? es->names_cap * 2 : 4096;
		char *nb;

		while (ncap < es->names_len + len + 1)
			ncap *= 2;
		if (ncap > UINT32_MAX)
			return -EFBIG;
		nb = realloc(es->names, ncap);
		if (!nb)
			return -ENOMEM;
		es->names = nb;
		es->names_cap = ncap;
	}
	memcpy(es->names + es->names_len, name, len);
	es->names[es->names_len + len] = '\0';
	*off = (uint32_t)es->names_len;
	es->names_len += len + 1;
	return 0;
}

/*
 * Append one symbol, its name copied into the names pool (kept as an offset: the pool moves as it
 * grows). A size above 32 bits is clamped; label marks an assembler label (NOTYPE), which never
 * wins over a function at the same address. Returns 0, -ENOMEM, or -EFBIG past ELFSYMS_MAX_SYMS.
 */
static int elfsyms_add_sym(struct elfsyms *es, const GElf_Sym *sym, const char *name, int label)
{
	struct elf_sym *s;
	int err;

	if (es->nsyms >= ELFSYMS_MAX_SYMS)
		return -EFBIG;
	if (es->nsyms == es->syms_cap) {
		size_t ncap = es->syms_cap ? es->syms_cap * 2 : 256;
		struct elf_sym *ns = realloc(es->syms, ncap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		es->syms = ns;
		es->syms_cap = ncap;
	}
	s = &es->syms[es->nsyms];
	err = elfsyms_add_name(es, name, &s->name);
	if (err)
		return err;
	s->addr = sym->st_value;
	s->size = sym->st_size > UINT32_MAX ? UINT32_MAX : (uint32_t)sym->st_size;
	s->bind = GELF_ST_BIND(sym->st_info);
	s->label = (uint8_t)label;
	es->nsyms++;
	return 0;
}

static int elfsyms_is_func(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_shndx != SHN_UNDEF &&
	       sym->st_value != 0;
}

/*
 * An assembler label that names code, as perf takes them (ld.so's _start and
 * _dl_start_user): untyped, inside an executable section. Not the assembler's
 * local labels (.L*) nor the mapping symbols of ARM and RISC-V ($x, $d...).
 */
static int elfsyms_is_label(Elf *e, const GElf_Sym *sym, const char *name)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (GELF_ST_TYPE(sym->st_info) != STT_NOTYPE || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE || !strncmp(name, ".L", 2) || name[0] == '$')
		return 0;
	scn = elf_getscn(e, sym->st_shndx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
	       sym->st_value >= sh.sh_addr && sym->st_value - sh.sh_addr < sh.sh_size;
}

/* Add the function symbols and code labels of one symbol table section. Returns 0 or -errno. */
static int elfsyms_add_table(struct elfsyms *es, Elf *e, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	GElf_Shdr shdr;
	size_t n;

	if (!data || !data->d_buf || !entsize || !gelf_getshdr(scn, &shdr))
		return 0;
	n = data->d_size / entsize;
	for (size_t i = 0; i < n; i++) {
		const char *name;
		GElf_Sym sym;
		int func, err;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		func = elfsyms_is_func(&sym);
		if (!func && GELF_ST_TYPE(sym.st_info) != STT_NOTYPE)
			continue;
		name = elf_strptr(e, shdr.sh_link, sym.st_name);
		if (!name || !*name || (!func && !elfsyms_is_label(e, &sym, name)))
			continue;
		err = elfsyms_add_sym(es, &sym, name, !func);
		if (err)
			return err;
	}
	return 0;
}

static int elfsyms_rank(const struct elf_sym *s)
{
	return s->bind == STB_GLOBAL ? 0 : s->bind == STB_WEAK ? 1 : 2;
}

static const struct elfsyms *elfsyms_sorting;

/*
 * By address, then the preferred alias first: a function before a label, global, fewer
 * leading '_', shorter.
 */
static int elfsyms_cmp(const void *pa, const void *pb)
{
	const struct elf_sym *a = pa, *b = pb;
	const char *na, *nb;
	size_t ua, ub;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->label != b->label)
		return a->label - b->label;
	if (elfsyms_rank(a) != elfsyms_rank(b))
		return elfsyms_rank(a) - elfsyms_rank(b);
	na = elfsyms_sorting->names + a->name;
	nb = elfsyms_sorting->names + b->name;
	ua = strspn(na, "_");
	ub = strspn(nb, "_");
	if (ua != ub)
		return ua < ub ? -1 : 1;
	if (strlen(na) != strlen(nb))
		return strlen(na) < strlen(nb) ? -1 : 1;
	return strcmp(na, nb);
}

/*
 * Sort, keep one symbol per address and no label inside a sized function (a branch
 * target there must not rename the rest of it), give unsized symbols a bounded extent.
 */
static void elfsyms_finish(struct elfsyms *es)
{
	uint64_t func_end = 0;
	size_t n = 0;

	elfsyms_sorting = es;
	if (es->nsyms > 1)
		qsort(es->syms, es->nsyms, sizeof(*es->syms), elfsyms_cmp);
	for (size_t i = 0; i < es->nsyms; i++) {
		const struct elf_sym *s = &es->syms[i];

		if ((n && es->syms[n - 1].addr == s->addr) || (s->label && s->addr < func_end))
			continue;
		if (!s->label && s->addr + s->size > func_end)
			func_end = s->addr + s->size;
		es->syms[n++] = *s;
	}
	es->nsyms = n;
	for (size_t i = 0; i < n; i++) {
		uint64_t span;

		if (es->syms[i].size)
			continue;
		span = i + 1 < n ? es->syms[i + 1].addr - es->syms[i].addr : ELFSYMS_UNSIZED_SPAN;
		es->syms[i].size =
			span < ELFSYMS_UNSIZED_SPAN ? (uint32_t)span : ELFSYMS_UNSIZED_SPAN;
	}
}

static void elfsyms_read_segments(struct elfsyms *es, Elf *e)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return;
	for (size_t i = 0; i < n && es->nsegs < ELFSYMS_MAX_SEGS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		es->segs[es->nsegs++] = (struct elf_seg){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
}

static int elfsyms_note_build_id(Elf_Data *data, uint8_t *id, size_t cap)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz > 0 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
			size_t len = nh.n_descsz < cap ? nh.n_descsz : cap;

			memcpy(id, (char *)data->d_buf + desc_off, len);
			return (int)len;
		}
		off = next;
	}
	return 0;
}

/* Build-id from SHT_NOTE sections, else from PT_NOTE segments. Returns length or 0. */
static int elfsyms_find_build_id(Elf *e, uint8_t *id, size_t cap)
{
	Elf_Scn *scn = NULL;
	size_t n;
	int len;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && data->d_buf && (len = elfsyms_note_build_id(data, id, cap)) > 0)
			return len;
	}
	if (elf_getphdrnum(e, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		Elf_Data *data;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(e, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (data && data->d_buf && (len = elfsyms_note_build_id(data, id, cap)) > 0)
			return len;
	}
	return 0;
}

/* .gnu_debuglink: a NUL-terminated name, padding to 4, a CRC32. */
static int elfsyms_read_debuglink(struct elfsyms *es, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t len, crc_off;
	uint32_t crc;

	if (!data || !data->d_buf || data->d_size < 8)
		return 0;
	len = strnlen(data->d_buf, data->d_size);
	crc_off = (len + 4) & ~(size_t)3;
	if (len == 0 || len >= 256 || crc_off + 4 > data->d_size || memchr(data->d_buf, '/', len))
		return 0;
	es->debuglink = strndup(data->d_buf, len);
	if (!es->debuglink)
		return -ENOMEM;
	memcpy(&crc, (char *)data->d_buf + crc_off, 4);
	es->info.debuglink = es->debuglink;
	es->info.debuglink_crc = crc;
	return 0;
}

/* Symbols of the ELF image embedded xz-compressed in .gnu_debugdata. */
static int elfsyms_add_debugdata(struct elfsyms *es, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *s = NULL;
	size_t len;
	void *img;
	Elf *e;
	int err;

	if (!data || !data->d_buf)
		return 0;
	err = minidebug_decompress(data->d_buf, data->d_size, &img, &len);
	if (err)
		return err == -ENOMEM ? err : 0;
	e = elf_memory(img, len);
	err = 0;
	while (e && !err && (s = elf_nextscn(e, s))) {
		GElf_Shdr sh;

		if (gelf_getshdr(s, &sh) && sh.sh_type == SHT_SYMTAB)
			err = elfsyms_add_table(es, e, s);
	}
	if (e && !err)
		es->info.has_debugdata = 1;
	elf_end(e);
	free(img);
	return err;
}

struct elfsyms_scns {
	Elf_Scn *symtab, *dynsym, *debuglink, *debugdata;
};

/*
 * The first .symtab and .dynsym by type, and .gnu_debuglink and .gnu_debugdata by name, unless
 * NOBITS (no contents, as in a debug file); what is missing stays NULL.
 */
static void elfsyms_find_scns(Elf *e, struct elfsyms_scns *sc)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	memset(sc, 0, sizeof(*sc));
	if (elf_getshdrstrndx(e, &shstrndx))
		return;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !sc->symtab)
			sc->symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM && !sc->dynsym)
			sc->dynsym = scn;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || sh.sh_type == SHT_NOBITS)
			continue;
		if (!strcmp(name, ".gnu_debuglink"))
			sc->debuglink = scn;
		else if (!strcmp(name, ".gnu_debugdata"))
			sc->debugdata = scn;
	}
}

static int elfsyms_check(Elf *e)
{
	GElf_Ehdr eh;

	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
		return -ENOEXEC;
	return eh.e_type == ET_EXEC || eh.e_type == ET_DYN ? 0 : -ENOEXEC;
}

/*
 * An executable or shared object's segments, build-id, debuglink and function symbols: .symtab when
 * present, else .dynsym with the MiniDebugInfo .symtab that stripped distribution binaries carry in
 * .gnu_debugdata. Returns 0 with *out set, or a negative errno (-ENOEXEC for other files).
 */
static int elfsyms_from_elf(Elf *e, struct elfsyms **out)
{
	struct elfsyms *es;
	struct elfsyms_scns sc;
	int err = elfsyms_check(e);

	if (err)
		return err;
	es = calloc(1, sizeof(*es));
	if (!es)
		return -ENOMEM;
	elfsyms_read_segments(es, e);
	es->info.build_id_len =
		(size_t)elfsyms_find_build_id(e, es->info.build_id, sizeof(es->info.build_id));
	elfsyms_find_scns(e, &sc);
	if (sc.debuglink && (err = elfsyms_read_debuglink(es, sc.debuglink)))
		goto cleanup;
	if (sc.symtab) {
		err = elfsyms_add_table(es, e, sc.symtab);
		es->info.has_symtab = 1;
	} else {
		if (sc.dynsym)
			err = elfsyms_add_table(es, e, sc.dynsym);
		if (!err && sc.debugdata)
			err = elfsyms_add_debugdata(es, sc.debugdata);
	}
	if (err)
		goto cleanup;
	elfsyms_finish(es);
	*out = es;
	return 0;
cleanup:
	elfsyms_free(es);
	return err;
}

int elfsyms_load_fd(int fd, struct elfsyms **out)
{
	Elf *e;
	int err = elfsyms_init_libelf();

	if (err)
		return err;
	e = elf_begin(fd, ELF_C_READ, NULL);
	err = elfsyms_from_elf(e, out);
	elf_end(e);
	return err;
}

int elfsyms_load_mem(const void *buf, size_t len, struct elfsyms **out)
{
	char *copy;
	Elf *e;
	int err = elfsyms_init_libelf();

	if (err)
		return err;
	/* libelf may convert an image in place: give it our own copy. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	e = elf_memory(copy, len);
	err = elfsyms_from_elf(e, out);
	elf_end(e);
	free(copy);
	return err;
}

int elfsyms_read_build_id(int fd, uint8_t *id, size_t cap)
{
	Elf *e;
	int len = elfsyms_init_libelf();

	if (len)
		return len;
	e = elf_begin(fd, ELF_C_READ, NULL);
	len = elfsyms_check(e);
	if (!len)
		len = elfsyms_find_build_id(e, id, cap);
	elf_end(e);
	return len;
}

int elfsyms_use_debug_fd(struct elfsyms *es, int fd)
{
	struct elfsyms_scns sc;
	struct elfsyms tmp = { 0 };
	Elf *e;
	int err = elfsyms_init_libelf();

	if (err)
		return err;
	e = elf_begin(fd, ELF_C_READ, NULL);
	err = elfsyms_check(e);
	if (err)
		goto cleanup;
	elfsyms_find_scns(e, &sc);
	err = sc.symtab ? elfsyms_add_table(&tmp, e, sc.symtab) : -ENOENT;
	if (err)
		goto cleanup;
	elfsyms_finish(&tmp);
	free(es->syms);
	free(es->names);
	es->syms = tmp.syms;
	es->nsyms = tmp.nsyms;
	es->syms_cap = tmp.syms_cap;
	es->names = tmp.names;
	es->names_len = tmp.names_len;
	es->names_cap = tmp.names_cap;
	es->info.has_symtab = 1;
	tmp.syms = NULL;
	tmp.names = NULL;
cleanup:
	free(tmp.syms);
	free(tmp.names);
	elf_end(e);
	return err;
}

void elfsyms_free(struct elfsyms *es)
{
	if (!es)
		return;
	if (es->alt)
		for (size_t i = 0; i < es->nsyms; i++)
			free(es->alt[i]);
	free(es->alt);
	free(es->syms);
	free(es->names);
	free(es->debuglink);
	free(es);
}

const struct elfsyms_info *elfsyms_info(const struct elfsyms *es)
{
	return &es->info;
}

int elfsyms_off_to_vaddr(const struct elfsyms *es, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < es->nsegs; i++) {
		const struct elf_seg *sg = &es->segs[i];

		if (off >= sg->off && off - sg->off < sg->filesz) {
			*vaddr = sg->vaddr + (off - sg->off);
			return 0;
		}
	}
	return -ENOENT;
}

long elfsyms_find(const struct elfsyms *es, uint64_t vaddr)
{
	size_t lo = 0, hi = es->nsyms;

	/* Find the last symbol starting at or below vaddr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i > 0 && k < ELFSYMS_ENCLOSE_SCAN; i--, k++) {
		const struct elf_sym *s = &es->syms[i - 1];

		if (vaddr - s->addr < s->size)
			return (long)(i - 1);
	}
	return -1;
}

const char *elfsyms_name(const struct elfsyms *es, long idx)
{
	return es->names + es->syms[idx].name;
}

uint64_t elfsyms_addr(const struct elfsyms *es, long idx)
{
	return es->syms[idx].addr;
}

const char *elfsyms_alt_name(const struct elfsyms *es, long idx)
{
	return es->alt ? es->alt[idx] : NULL;
}

int elfsyms_set_alt_name(struct elfsyms *es, long idx, char *name)
{
	if (!es->alt) {
		es->alt = calloc(es->nsyms, sizeof(*es->alt));
		if (!es->alt)
			return -ENOMEM;
	}
	free(es->alt[idx]);
	es->alt[idx] = name;
	es->alt_bytes += strlen(name) + 1;
	return 0;
}

size_t elfsyms_count(const struct elfsyms *es)
{
	return es->nsyms;
}

size_t elfsyms_bytes(const struct elfsyms *es)
{
	return sizeof(*es) + es->syms_cap * sizeof(*es->syms) + es->names_cap +
	       (es->alt ? es->nsyms * sizeof(*es->alt) : 0) + es->alt_bytes;
}
