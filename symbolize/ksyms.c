/* SPDX-License-Identifier: BSD-2-Clause */
/* ksyms.c - kernel and module function symbols from /proc/kallsyms */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/ksyms.h"

/* kallsyms has no sizes: a symbol ends at the next one, and never further than this. */
#define KSYMS_MAX_SPAN (1u << 20)
#define KSYMS_MAX_SYMS (8u << 20)

struct ksym {
	uint64_t addr;
	uint32_t name, module; /* offsets into names; module 0: core kernel */
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	int restricted;
};

static int ksyms_add_name(struct ksyms *ks, const char *s, size_t len, uint32_t *off)
{
	if (ks->names_len + len + 1 > ks->names_cap) {
		size_t ncap = ks->names_cap ? ks->names_cap * 2 : 1 << 20;
		char *nb;

		while (ncap < ks->names_len + len + 1)
			ncap *= 2;
		if (ncap > UINT32_MAX)
			return -EFBIG;
		nb = realloc(ks->names, ncap);
		if (!nb)
			return -ENOMEM;
		ks->names = nb;
		ks->names_cap = ncap;
	}
	memcpy(ks->names + ks->names_len, s, len);
	ks->names[ks->names_len + len] = '\0';
	*off = (uint32_t)ks->names_len;
	ks->names_len += len + 1;
	return 0;
}

static int ksyms_push(struct ksyms *ks, uint64_t addr, uint32_t name, uint32_t module)
{
	if (ks->n >= KSYMS_MAX_SYMS)
		return -EFBIG;
	if (ks->n == ks->cap) {
		size_t ncap = ks->cap ? ks->cap * 2 : 65536;
		struct ksym *ns = realloc(ks->syms, ncap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		ks->syms = ns;
		ks->cap = ncap;
	}
	ks->syms[ks->n++] = (struct ksym){ addr, name, module };
	return 0;
}

/* "ffffffff81000000 T name" or "... t name\t[module]". Modules come grouped. */
static int ksyms_parse_line(struct ksyms *ks, char *line, uint32_t *last_mod, int *nonzero)
{
	char *name, *mod, *end, sep;
	uint32_t name_off, mod_off = 0;
	uint64_t addr;
	size_t len;
	int err;

	addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !strchr("tTwW", end[1]) || end[2] != ' ')
		return 0;
	if (addr)
		*nonzero = 1;
	name = end + 3;
	len = strcspn(name, "\t\n");
	sep = name[len];
	name[len] = '\0';
	mod = sep == '\t' ? name + len + 1 : NULL;
	if (!len || !addr)
		return 0;
	if (mod && mod[0] == '[') {
		size_t ml = strcspn(mod + 1, "]\n");

		if (*last_mod && !strncmp(ks->names + *last_mod, mod + 1, ml) &&
		    ks->names[*last_mod + ml] == '\0')
			mod_off = *last_mod;
		else if ((err = ksyms_add_name(ks, mod + 1, ml, &mod_off)))
			return err;
		*last_mod = mod_off;
	}
	err = ksyms_add_name(ks, name, len, &name_off);
	return err ? err : ksyms_push(ks, addr, name_off, mod_off);
}

static int ksyms_cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int ksyms_read(struct ksyms *ks, FILE *f)
{
	uint32_t last_mod = 0, dummy;
	char *line = NULL;
	size_t cap = 0;
	int nonzero = 0, err;

	/* Offset 0 of the pool is the empty string: "no module". */
	err = ksyms_add_name(ks, "", 0, &dummy);
	while (!err && getline(&line, &cap, f) > 0)
		err = ksyms_parse_line(ks, line, &last_mod, &nonzero);
	free(line);
	if (err)
		return err;
	if (ferror(f))
		return -EIO;
	ks->restricted = !nonzero;
	if (ks->n > 1)
		qsort(ks->syms, ks->n, sizeof(*ks->syms), ksyms_cmp);
	return 0;
}

int ksyms_load(const char *path, struct ksyms **out)
{
	struct ksyms *ks;
	FILE *f = fopen(path, "re");
	int err;

	if (!f)
		return -errno;
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		fclose(f);
		return -ENOMEM;
	}
	err = ksyms_read(ks, f);
	fclose(f);
	if (err) {
		ksyms_free(ks);
		return err;
	}
	*out = ks;
	return 0;
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->names);
	free(ks);
}

const char *ksyms_lookup(const struct ksyms *ks, uint64_t addr, const char **module)
{
	size_t lo = 0, hi = ks->n;
	const struct ksym *s;
	uint64_t end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &ks->syms[lo - 1];
	end = lo < ks->n ? ks->syms[lo].addr : s->addr + KSYMS_MAX_SPAN;
	if (addr >= end || addr - s->addr >= KSYMS_MAX_SPAN)
		return NULL;
	*module = s->module ? ks->names + s->module : NULL;
	return ks->names + s->name;
}

int ksyms_restricted(const struct ksyms *ks)
{
	return ks->restricted;
}

size_t ksyms_count(const struct ksyms *ks)
{
	return ks->n;
}

size_t ksyms_bytes(const struct ksyms *ks)
{
	return sizeof(*ks) + ks->cap * sizeof(*ks->syms) + ks->names_cap;
}

uint64_t ksyms_modules_signature(const char *modules_path)
{
	uint64_t h = 1469598103934665603ull;
	char *line = NULL, name[64];
	uint64_t addr;
	size_t cap = 0;
	FILE *f = fopen(modules_path, "re");

	if (!f)
		return 0;
	/* "name size refcount deps state address": refcounts change, names and addresses do not. */
	while (getline(&line, &cap, f) > 0) {
		name[0] = '\0';
		if (sscanf(line, "%63s %*s %*s %*s %*s %" SCNx64, name, &addr) != 2)
			addr = 0;
		for (const char *c = name; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ addr) * 1099511628211ull;
	}
	free(line);
	fclose(f);
	return h;
}
