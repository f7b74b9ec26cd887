/* SPDX-License-Identifier: BSD-2-Clause */
/* addr2line.c - inlined frames and source lines from DWARF with libdw, cached per file and address */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "collapse/addr2line.h"
#include "lib/hash.h"
#include "lib/sbuf.h"

#define A2L_MAX_DSOS 4096
#define A2L_MAX_DEPTH 256

struct a2l_dso {
	char *path;
	size_t len;
	Dwfl *dwfl; /* NULL: the file could not be read */
	Dwfl_Module *mod;
	Elf *elf;
	GElf_Addr bias;
};

struct a2l_slot {
	uint64_t hash; /* 0: empty */
	char *key;     /* "mod\0pc" */
	size_t klen;
	char *frames; /* NULL: unknown */
	size_t len;
};

struct addr2line {
	bool context;
	struct a2l_dso *dsos;
	size_t ndsos;
	struct a2l_slot *slots;
	size_t nslots, used;
	struct sbuf out;
};

static const Dwfl_Callbacks a2l_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct addr2line *addr2line_new(bool context)
{
	struct addr2line *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->context = context;
	a->nslots = 1024;
	a->slots = calloc(a->nslots, sizeof(*a->slots));
	if (!a->slots) {
		free(a);
		return NULL;
	}
	return a;
}

void addr2line_free(struct addr2line *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->ndsos; i++) {
		if (a->dsos[i].dwfl)
			dwfl_end(a->dsos[i].dwfl);
		free(a->dsos[i].path);
	}
	for (size_t i = 0; i < a->nslots; i++) {
		free(a->slots[i].key);
		free(a->slots[i].frames);
	}
	free(a->dsos);
	free(a->slots);
	sbuf_release(&a->out);
	free(a);
}

/* The file, opened once; NULL when it cannot be (missing, not ELF, too many files). */
static struct a2l_dso *dso_get(struct addr2line *a, const char *path, size_t len)
{
	struct a2l_dso *d;

	for (size_t i = 0; i < a->ndsos; i++)
		if (a->dsos[i].len == len && !memcmp(a->dsos[i].path, path, len))
			return a->dsos[i].dwfl ? &a->dsos[i] : NULL;
	if (a->ndsos == A2L_MAX_DSOS || memchr(path, '\0', len))
		return NULL;
	if (!(a->ndsos & (a->ndsos + 1))) {
		struct a2l_dso *n = realloc(a->dsos, (a->ndsos * 2 + 1) * sizeof(*n));

		if (!n)
			return NULL;
		a->dsos = n;
	}
	d = &a->dsos[a->ndsos];
	memset(d, 0, sizeof(*d));
	d->path = strndup(path, len);
	if (!d->path)
		return NULL;
	d->len = len;
	a->ndsos++;
	d->dwfl = dwfl_begin(&a2l_callbacks);
	if (d->dwfl)
		d->mod = dwfl_report_offline(d->dwfl, d->path, d->path, -1);
	if (d->mod && !dwfl_report_end(d->dwfl, NULL, NULL))
		d->elf = dwfl_module_getelf(d->mod, &d->bias);
	if (!d->elf && d->dwfl) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
	}
	return d->dwfl ? d : NULL;
}

/* addr2line looks an address up only inside an allocated section of the file. */
static bool in_section(Elf *elf, GElf_Addr pc)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_type != SHT_NOBITS && pc >= sh.sh_addr && pc - sh.sh_addr < sh.sh_size)
			return true;
	return false;
}

/* The Perl's `nm MOD` fallback: the address of the symbol named exactly name. */
static bool symbol_address(Elf *elf, const char *name, size_t len, GElf_Addr *addr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *s;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    !(s = elf_strptr(elf, sh.sh_link, sym.st_name)))
				continue;
			if (!strncmp(s, name, len) && !s[len]) {
				*addr = sym.st_value;
				return true;
			}
		}
	}
	return false;
}

static int add_name(struct sbuf *sb, const char *name)
{
	char *dm = name && !strncmp(name, "_Z", 2) ? cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI)
						   : NULL;
	int err = sbuf_addstr(sb, dm ? dm : name ? name : "??");

	free(dm);
	return err;
}

/* As bfd: the linkage name when there is one (demangled), else the name. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *s;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) &&
	    (s = dwarf_formstring(&attr)))
		return s;
	if (dwarf_attr_integrate(die, DW_AT_name, &attr))
		return dwarf_formstring(&attr);
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* One frame before those already in out: "name" or "name:file:line". */
static int prepend_frame(struct addr2line *a, const char *name, const char *file, int line)
{
	struct sbuf f = SBUF_INIT;
	int err = add_name(&f, name);

	if (!err && a->context) {
		file = base_name(file);
		err = line ? sbuf_addf(&f, ":%s:%d", file ? file : "??", line)
			   : sbuf_addf(&f, ":%s:?", file ? file : "??");
	}
	if (!err && a->out.len)
		err = sbuf_addch(&f, ';') ?: sbuf_add(&f, a->out.buf, a->out.len);
	if (!err) {
		sbuf_setlen(&a->out, 0);
		err = sbuf_add(&a->out, f.buf, f.len);
	}
	sbuf_release(&f);
	return err;
}

static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* Each inlined call in chain (innermost first, from dwarf_getscopes_die) adds its caller. */
static int add_callers(struct addr2line *a, Dwarf_Die *cu, Dwarf_Die *chain, int n)
{
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	int err = 0;

	dwarf_getsrcfiles(cu, &files, &nfiles);
	for (int i = 0, depth = 0; !err && i < n && depth < A2L_MAX_DEPTH; depth++) {
		Dwarf_Attribute attr;
		Dwarf_Word cf = 0, cl = 0;
		const char *file;
		int caller = i + 1;

		if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine)
			break;
		while (caller < n && !is_function(&chain[caller]))
			caller++;
		if (caller == n)
			break;
		if (dwarf_attr(&chain[i], DW_AT_call_file, &attr))
			dwarf_formudata(&attr, &cf);
		if (dwarf_attr(&chain[i], DW_AT_call_line, &attr))
			dwarf_formudata(&attr, &cl);
		file = files && cf < nfiles ? dwarf_filesrc(files, cf, NULL, NULL) : NULL;
		err = prepend_frame(a, die_name(&chain[caller]), file, (int)cl);
		i = caller;
	}
	return err;
}

/* The innermost function at addr with the line of addr, then its inlined callers. */
static int frames_from_scopes(struct addr2line *a, Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Die *scopes = NULL, *chain = NULL;
	Dwarf_Line *line = dwarf_getsrc_die(cu, addr);
	const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	int lineno = 0, n = dwarf_getscopes(cu, addr, &scopes), i = 0, err, nchain;

	if (line)
		dwarf_lineno(line, &lineno);
	while (i < n && !is_function(&scopes[i]))
		i++;
	err = prepend_frame(a, i < n ? die_name(&scopes[i]) : NULL, file, lineno);
	/* the scopes past an inlined instance are its abstract origin's: ask for the concrete ones */
	if (!err && i < n && (nchain = dwarf_getscopes_die(&scopes[i], &chain)) > 0)
		err = add_callers(a, cu, chain, nchain);
	free(chain);
	free(scopes);
	return err;
}

/* The unit holding addr; without .debug_aranges (clang emits none) each unit's ranges are read. */
static Dwarf_Die *unit_at(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);

	while (!cu && (cu = dwfl_module_nextcu(mod, cu, bias)))
		if (dwarf_haspc(cu, addr - *bias) == 1)
			break;
	return cu;
}

/* Returns 1 with a->out set, 0 when pc is in no section of the file, or -ENOMEM. */
static int resolve(struct addr2line *a, struct a2l_dso *d, GElf_Addr pc)
{
	Dwarf_Addr cubias = 0, addr = pc + d->bias;
	Dwarf_Die *cu;
	int err;

	sbuf_setlen(&a->out, 0);
	if (!in_section(d->elf, pc))
		return 0;
	cu = unit_at(d->mod, addr, &cubias);
	if (cu)
		err = frames_from_scopes(a, cu, addr - cubias);
	else
		err = prepend_frame(a, dwfl_module_addrname(d->mod, addr), NULL, 0);
	return err ? err : 1;
}

/* "func+0xOFF" as /^(.+)\+0x([0-9a-f]+)$/: sets the length of func and the offset. */
static bool split_symoff(const char *s, size_t len, size_t *flen, GElf_Addr *off)
{
	size_t i = len;

	*off = 0;
	while (i > 0 &&
	       ((s[i - 1] >= '0' && s[i - 1] <= '9') || (s[i - 1] >= 'a' && s[i - 1] <= 'f')))
		i--;
	if (i == len || i < 4 || memcmp(s + i - 3, "+0x", 3) || len - i > 16)
		return false;
	for (size_t j = i; j < len; j++)
		*off = *off * 16 + (GElf_Addr)(s[j] <= '9' ? s[j] - '0' : s[j] - 'a' + 10);
	*flen = i - 3;
	return true;
}

/* What the Perl keeps: NULL for "", "??" and "??:??:0" (addr2line knew nothing). */
static int lookup(struct addr2line *a, GElf_Addr pc, const char *sym, size_t symlen,
		  const char *mod, size_t modlen, char **frames, size_t *len)
{
	struct a2l_dso *d = dso_get(a, mod, modlen);
	int r = d ? resolve(a, d, pc) : -ENOENT;
	size_t flen;
	GElf_Addr off, base;
	char *name;

	*frames = NULL;
	*len = 0;
	if (r == -ENOENT)
		return 0;
	if (r == 0 && split_symoff(sym, symlen, &flen, &off)) {
		name = strndup(sym, flen);
		if (!name)
			return -ENOMEM;
		if (symbol_address(d->elf, name, flen, &base))
			r = resolve(a, d, base + off);
		free(name);
	}
	if (r < 0)
		return r;
	if (r == 0 || !strcmp(a->out.buf, "??") || !strcmp(a->out.buf, "??:??:0"))
		return 0;
	*frames = strndup(a->out.buf, a->out.len);
	*len = a->out.len;
	return *frames ? 0 : -ENOMEM;
}

static int grow(struct addr2line *a)
{
	size_t n = a->nslots * 2;
	struct a2l_slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < a->nslots; i++) {
		size_t j = a->slots[i].hash & (n - 1);

		if (!a->slots[i].hash)
			continue;
		while (s[j].hash)
			j = (j + 1) & (n - 1);
		s[j] = a->slots[i];
	}
	free(a->slots);
	a->slots = s;
	a->nslots = n;
	return 0;
}

static int parse_hex(const char *s, size_t len, GElf_Addr *v)
{
	size_t i = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;

	*v = 0;
	if (i == len || len - i > 16)
		return -EINVAL;
	for (; i < len; i++) {
		char c = s[i] | 0x20;

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return -EINVAL;
		*v = *v * 16 + (GElf_Addr)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return 0;
}

int addr2line_frames(struct addr2line *a, const char *pc, size_t pclen, const char *sym,
		     size_t symlen, const char *mod, size_t modlen, const char **out, size_t *len)
{
	struct sbuf key = SBUF_INIT;
	struct a2l_slot *s;
	GElf_Addr addr;
	uint64_t h;
	size_t i;
	int err;

	*out = NULL;
	*len = 0;
	if (parse_hex(pc, pclen, &addr))
		return 0;
	if (sbuf_add(&key, mod, modlen) || sbuf_addch(&key, '\0') || sbuf_add(&key, pc, pclen))
		return -ENOMEM;
	h = ember_hash(key.buf, key.len);
	for (i = h & (a->nslots - 1); a->slots[i].hash; i = (i + 1) & (a->nslots - 1)) {
		s = &a->slots[i];
		if (s->hash == h && s->klen == key.len && !memcmp(s->key, key.buf, key.len)) {
			sbuf_release(&key);
			*out = s->frames;
			*len = s->len;
			return 0;
		}
	}
	s = &a->slots[i];
	err = lookup(a, addr, sym, symlen, mod, modlen, &s->frames, &s->len);
	if (err) {
		sbuf_release(&key);
		return err;
	}
	s->hash = h;
	s->key = key.buf; /* the slot owns it now */
	s->klen = key.len;
	*out = s->frames;
	*len = s->len;
	if (++a->used * 2 > a->nslots)
		return grow(a);
	return 0;
}
