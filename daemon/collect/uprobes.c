/* SPDX-License-Identifier: BSD-2-Clause */
/* uprobes.c - find functions in an ELF file and attach multi-uprobes (and sessions) to them */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "daemon/collect/uprobes.h"

/* A symbol's file offset: where its load segment puts it. Returns 0 or -ENOENT. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t nph;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &nph))
		return -ENOENT;
	for (size_t i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_memsz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static void text_range(Elf *elf, uint64_t *lo, uint64_t *hi)
{
	size_t nph;
	GElf_Phdr ph;

	*lo = UINT64_MAX;
	*hi = 0;
	if (elf_getphdrnum(elf, &nph))
		return;
	for (size_t i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (ph.p_vaddr < *lo)
			*lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > *hi)
			*hi = ph.p_vaddr + ph.p_memsz;
	}
}

static int name_index(const char *sym, const char *prefix, const char *const *names, size_t n)
{
	size_t plen = strlen(prefix);

	if (strncmp(sym, prefix, plen))
		return -1;
	sym += plen;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(sym, names[i]))
			return i;
	return -1;
}

/* Match the defined functions of one symbol table section. */
static void scan_symtab(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, const char *prefix,
			const char *const *names, size_t n, struct uprobes_sym *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Sym sym;

	for (size_t i = 0; data && i < count; i++) {
		const char *name;
		int idx;

		if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		idx = name ? name_index(name, prefix, names, n) : -1;
		if (idx < 0 || out[idx].vaddr ||
		    vaddr_to_offset(elf, sym.st_value, &out[idx].offset))
			continue;
		out[idx].vaddr = sym.st_value;
	}
}

int uprobes_resolve(const char *path, const char *prefix, const char *const *names, size_t n,
		    struct uprobes_sym *out, uint64_t *text_lo, uint64_t *text_hi)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd, found = 0;
	Elf *elf;

	memset(out, 0, n * sizeof(*out));
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(fd);
		return -ENOEXEC;
	}
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB))
			scan_symtab(elf, scn, &sh, prefix, names, n, out);
	text_range(elf, text_lo, text_hi);
	for (size_t i = 0; i < n; i++)
		found += out[i].vaddr != 0;
	elf_end(elf);
	close(fd);
	return found;
}

/* The link_create layout of union bpf_attr for uprobe_multi (kernel 6.6+), absent from older headers. */
struct uprobe_multi_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__aligned_u64 path;
	__aligned_u64 offsets;
	__aligned_u64 ref_ctr_offsets;
	__aligned_u64 cookies;
	__u32 cnt;
	__u32 multi_flags;
	__u32 pid;
	__u32 pad[9]; /* the rest of union bpf_attr, zeroed */
};

int uprobes_attach(int prog_fd, unsigned int attach_type, const char *path, const uint64_t *offsets,
		   const uint64_t *cookies, size_t n, uint32_t pid)
{
	struct uprobe_multi_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = prog_fd;
	attr.attach_type = attach_type;
	attr.path = (uintptr_t)path;
	attr.offsets = (uintptr_t)offsets;
	attr.cookies = (uintptr_t)cookies;
	attr.cnt = n;
	attr.pid = pid;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}
