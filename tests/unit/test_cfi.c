/* SPDX-License-Identifier: BSD-2-Clause */
/* test_cfi.c - unwind tables: libc, python3, a gcc -O2 fixture row by row, corrupt input */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "symbolize/elfsyms.h"
#include "symbolize/cfi.h"
#include "tests/unit/harness.h"

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"
#define MAX_ROWS (1 << 22)

static char errbuf[256];

/* build/fixtures/cfi/NAME, found from build/tests/test_cfi. */
static const char *fx(const char *name)
{
	static char path[2048];
	char exe[1024];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	if (strrchr(exe, '/'))
		*strrchr(exe, '/') = '\0';
	snprintf(path, sizeof(path), "%s/../fixtures/cfi/%s", exe, name);
	return path;
}

static int build(const char *path, const char *debug, size_t max_rows, struct cfi_table *t)
{
	int fd = open(path, O_RDONLY), dfd = debug ? open(debug, O_RDONLY) : -1, ret;

	errbuf[0] = '\0';
	ret = fd < 0 ? -errno : cfi_table_build(fd, dfd, max_rows, t, errbuf, sizeof(errbuf));
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

/* Sorted, no empty or repeated rows, a NONE row last. Returns 0 or the index of the bad row. */
static size_t check_rows(const struct cfi_table *t)
{
	const size_t rule = offsetof(struct unw_row, cfa_rule);

	if (!t->nrows || t->rows[t->nrows - 1].cfa_rule != UNW_CFA_NONE)
		return t->nrows ? t->nrows - 1 : 1;
	for (size_t i = 1; i < t->nrows; i++)
		if (t->rows[i].pc <= t->rows[i - 1].pc ||
		    !memcmp((char *)&t->rows[i] + rule, (char *)&t->rows[i - 1] + rule,
			    sizeof(struct unw_row) - rule))
			return i;
	return 0;
}

/* The row holding pc, or NULL below the first row. */
static const struct unw_row *row_at(const struct cfi_table *t, uint64_t pc)
{
	size_t lo = 0, hi = t->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->rows[lo - 1] : NULL;
}

static void assert_row(const struct cfi_table *t, uint64_t pc, int rule, int off, int fp_rule,
		       int fp_off)
{
	const struct unw_row *r = row_at(t, pc);

	ASSERT_TRUE(r);
	ASSERT_EQ_INT(r->cfa_rule, rule);
	ASSERT_EQ_INT(r->cfa_off, off);
	ASSERT_EQ_INT(r->fp_rule, fp_rule);
	ASSERT_EQ_INT(r->fp_off, fp_off);
	ASSERT_EQ_INT(r->ra_off, rule == UNW_CFA_END || rule == UNW_CFA_NONE ? 0 : -8);
}

static uint64_t sym(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY);
	struct elfsyms *es;
	uint64_t a = 0;

	if (fd < 0 || elfsyms_load_fd(fd, &es))
		harness_fail(__FILE__, __LINE__, "cannot read symbols of '%s'", path);
	close(fd);
	for (size_t i = 0; i < elfsyms_count(es) && !a; i++)
		if (!strcmp(elfsyms_name(es, (long)i), name))
			a = elfsyms_addr(es, (long)i);
	elfsyms_free(es);
	if (!a)
		harness_fail(__FILE__, __LINE__, "no symbol '%s' in '%s'", name, path);
	return a;
}

/* The file offset, size and address of section name. */
static void section(const char *path, const char *name, GElf_Shdr *out)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t strndx;
	int found = 0;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !elf_getshdrstrndx(e, &strndx) && !found && (scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && !strcmp(elf_strptr(e, strndx, sh.sh_name), name)) {
			*out = sh;
			found = 1;
		}
	elf_end(e);
	close(fd);
	if (!found)
		harness_fail(__FILE__, __LINE__, "no section '%s' in '%s'", name, path);
}

TEST(libc_table_is_sorted_and_ends_in_none)
{
	struct cfi_table t;

	ASSERT_EQ_INT(build(LIBC, NULL, MAX_ROWS, &t), 0);
	ASSERT_TRUE(t.nrows > 5000);
	ASSERT_TRUE(t.cfi_bytes > 50000);
	ASSERT_EQ_INT(check_rows(&t), 0);
	/* Only the few functions with frames over 32 KiB do not fit a row. */
	ASSERT_TRUE(t.unsupported < t.nrows / 100);
	ASSERT_EQ_INT(t.skipped, 0);
	cfi_table_free(&t);
}

TEST(python3_table_is_sorted_and_ends_in_none)
{
	struct cfi_table t;

	ASSERT_EQ_INT(build("/usr/bin/python3", NULL, MAX_ROWS, &t), 0);
	ASSERT_TRUE(t.nrows > 10000);
	ASSERT_EQ_INT(check_rows(&t), 0);
	ASSERT_TRUE(t.unsupported < t.nrows / 100);
	cfi_table_free(&t);
}

static void on_signal(int sig)
{
}

/* glibc installs its __restore_rt as every handler's sa_restorer: ask the kernel for it. */
TEST(libc_restore_rt_is_a_signal_row)
{
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		uint64_t mask;
	} k;
	struct sigaction sa = { .sa_handler = on_signal };
	struct cfi_table t;
	Dl_info info;
	uint64_t pc;

	ASSERT_EQ_INT(sigaction(SIGUSR2, &sa, NULL), 0);
	ASSERT_EQ_INT(syscall(SYS_rt_sigaction, SIGUSR2, NULL, &k, 8), 0);
	ASSERT_TRUE(dladdr(k.restorer, &info) && strstr(info.dli_fname, "libc.so"));
	pc = (uint64_t)((char *)k.restorer - (char *)info.dli_fbase);
	ASSERT_EQ_INT(build(LIBC, NULL, MAX_ROWS, &t), 0);
	for (uint64_t a = pc - 1; a <= pc; a++) { /* the FDE starts at the nop before it */
		const struct unw_row *r = row_at(&t, a);

		ASSERT_EQ_INT(r->cfa_rule, UNW_CFA_SIGNAL);
		ASSERT_EQ_INT(r->cfa_off, offsetof(ucontext_t, uc_mcontext.gregs[REG_RSP]));
		ASSERT_EQ_INT(r->fp_off, offsetof(ucontext_t, uc_mcontext.gregs[REG_RBP]));
		ASSERT_EQ_INT(r->ra_off, offsetof(ucontext_t, uc_mcontext.gregs[REG_RIP]));
	}
	cfi_table_free(&t);
}

TEST(fixture_rows_at_known_instructions)
{
	const char *path = fx("fx_cfi");
	uint64_t f = sym(path, "fx_frame"), p = sym(path, "fx_pushes");
	struct cfi_table t;

	ASSERT_EQ_INT(build(path, NULL, MAX_ROWS, &t), 0);
	ASSERT_EQ_INT(check_rows(&t), 0);
	assert_row(&t, sym(path, "_start"), UNW_CFA_END, 0, 0, 0);
	/* gcc -O2: push %r13 (2 bytes) first */
	assert_row(&t, p, UNW_CFA_SP, 8, UNW_FP_SAME, 0);
	assert_row(&t, p + 2, UNW_CFA_SP, 16, UNW_FP_SAME, 0);
	/* push %rbp; mov %rsp,%rbp; lea 1(%rdi),%rax; pop %rbp; ret */
	assert_row(&t, f, UNW_CFA_SP, 8, UNW_FP_SAME, 0);
	assert_row(&t, f + 1, UNW_CFA_SP, 16, UNW_FP_AT_CFA, -16);
	assert_row(&t, f + 4, UNW_CFA_FP, 16, UNW_FP_AT_CFA, -16);
	assert_row(&t, f + 8, UNW_CFA_FP, 16, UNW_FP_AT_CFA, -16);
	assert_row(&t, f + 9, UNW_CFA_SP, 8, UNW_FP_AT_CFA, -16);
	assert_row(&t, sym(path, "fx_expr"), UNW_CFA_NONE, 0, 0, 0);
	ASSERT_EQ_INT(t.unsupported, 1);
	cfi_table_free(&t);
}

/* PLT0 pushes (rsp+16, then +24); each entry is rsp+8, +16 once it pushed its index. */
TEST(fixture_plt_rows)
{
	const char *path = fx("fx_cfi");
	struct cfi_table t;
	GElf_Shdr plt;

	section(path, ".plt", &plt);
	ASSERT_EQ_INT(build(path, NULL, MAX_ROWS, &t), 0);
	assert_row(&t, plt.sh_addr, UNW_CFA_SP, 16, UNW_FP_SAME, 0);
	assert_row(&t, plt.sh_addr + 6, UNW_CFA_SP, 24, UNW_FP_SAME, 0);
	/* fp_off: the (pc & 15) threshold from which the entry has pushed */
	assert_row(&t, plt.sh_addr + 16, UNW_CFA_PLT, 8, UNW_FP_SAME, 11);
	assert_row(&t, plt.sh_addr + plt.sh_size - 1, UNW_CFA_PLT, 8, UNW_FP_SAME, 11);
	cfi_table_free(&t);
}

TEST(debug_frame_of_a_separate_debug_file_completes_the_table)
{
	char debug[2048];
	const char *path;
	struct cfi_table t;
	uint64_t f;

	snprintf(debug, sizeof(debug), "%s", fx("fx_cfi_df.debug"));
	f = sym(debug, "fx_frame");
	path = fx("fx_cfi_df");
	ASSERT_EQ_INT(build(path, NULL, MAX_ROWS, &t), 0);
	ASSERT_TRUE(!row_at(&t, f) || row_at(&t, f)->cfa_rule == UNW_CFA_NONE);
	cfi_table_free(&t);
	ASSERT_EQ_INT(build(path, debug, MAX_ROWS, &t), 0);
	ASSERT_EQ_INT(check_rows(&t), 0);
	assert_row(&t, f + 4, UNW_CFA_FP, 16, UNW_FP_AT_CFA, -16);
	assert_row(&t, sym(debug, "_start"), UNW_CFA_END, 0, 0, 0);
	cfi_table_free(&t);
}

TEST(row_cap_is_e2big)
{
	struct cfi_table t;

	ASSERT_EQ_INT(build(LIBC, NULL, 1000, &t), -E2BIG);
	ASSERT_TRUE(strstr(errbuf, "1000"));
}

TEST(not_elf_and_no_cfi_are_errors)
{
	struct cfi_table t;

	ASSERT_EQ_INT(build("/dev/null", NULL, MAX_ROWS, &t), -EBADMSG);
	ASSERT_TRUE(errbuf[0]);
	ASSERT_EQ_INT(build(fx("fx_cfi_df.debug"), NULL, MAX_ROWS, &t), -ENOENT);
	ASSERT_TRUE(errbuf[0]);
}

struct image {
	char *buf;
	size_t len;
	GElf_Shdr eh; /* .eh_frame */
};

static void load_image(const char *path, struct image *im)
{
	FILE *f = fopen(path, "r");

	section(path, ".eh_frame", &im->eh);
	im->buf = malloc(1 << 22);
	im->len = f && im->buf ? fread(im->buf, 1, 1 << 22, f) : 0;
	if (f)
		fclose(f);
	if (!im->len || im->eh.sh_offset + im->eh.sh_size > im->len)
		harness_fail(__FILE__, __LINE__, "cannot read '%s'", path);
}

/* Builds from the first len bytes of buf: 0 with a good table, or an error with its reason. */
static int build_mem(const char *buf, size_t len, struct cfi_table *t)
{
	int fd = memfd_create("cfi", 0), ret;

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		harness_fail(__FILE__, __LINE__, "memfd: %s", strerror(errno));
	errbuf[0] = '\0';
	ret = cfi_table_build(fd, -1, MAX_ROWS, t, errbuf, sizeof(errbuf));
	close(fd);
	if (!ret && check_rows(t))
		harness_fail(__FILE__, __LINE__, "bad table from %zu bytes", len);
	if (ret && !errbuf[0])
		harness_fail(__FILE__, __LINE__, "error %d without a reason", ret);
	if (!ret)
		cfi_table_free(t);
	return ret;
}

TEST(truncated_copies_give_errors)
{
	struct image im;
	struct cfi_table t;
	size_t errors = 0, cuts = 0;

	load_image(fx("fx_cfi"), &im);
	for (size_t len = 0; len < im.len; len += len < im.eh.sh_offset ? 97 : 3, cuts++)
		errors += build_mem(im.buf, len, &t) != 0;
	/* libelf reads the section headers at the end of the file: every cut loses them */
	ASSERT_EQ_INT(errors, cuts);
	free(im.buf);
}

TEST(flipped_eh_frame_bytes_never_crash)
{
	struct image im;
	struct cfi_table t;
	size_t errors = 0;

	load_image(fx("fx_cfi"), &im);
	for (size_t i = 0; i < im.eh.sh_size; i++) {
		for (int bit = 0; bit < 8; bit++) {
			im.buf[im.eh.sh_offset + i] ^= (char)(1 << bit);
			errors += build_mem(im.buf, im.len, &t) != 0;
			im.buf[im.eh.sh_offset + i] ^= (char)(1 << bit);
		}
	}
	ASSERT_TRUE(errors > 0);
	ASSERT_EQ_INT(build_mem(im.buf, im.len, &t), 0);
	free(im.buf);
}

/* Sets the address range of every FDE (up to n of them) to range; returns how many it set. */
static int set_fde_ranges(struct image *im, uint32_t range, int n)
{
	char *eh = im->buf + im->eh.sh_offset;
	uint32_t len, id;
	int set = 0;

	for (size_t off = 0; off + 16 <= im->eh.sh_size && set < n; off += 4 + len) {
		memcpy(&len, eh + off, 4);
		memcpy(&id, eh + off + 4, 4);
		if (!len)
			break;
		if (id) { /* an FDE: pc_begin (pcrel sdata4), then pc_range */
			memcpy(eh + off + 12, &range, 4);
			set++;
		}
	}
	return set;
}

TEST(fde_with_an_absurd_range_is_skipped)
{
	struct image im;
	struct cfi_table t;
	int fd;

	load_image(fx("fx_cfi"), &im);
	ASSERT_EQ_INT(set_fde_ranges(&im, 0x7fffffff, 1), 1);
	fd = memfd_create("cfi", 0);
	ASSERT_EQ_INT(write(fd, im.buf, im.len), im.len);
	ASSERT_EQ_INT(cfi_table_build(fd, -1, MAX_ROWS, &t, errbuf, sizeof(errbuf)), 0);
	ASSERT_EQ_INT(t.skipped, 1);
	ASSERT_EQ_INT(check_rows(&t), 0);
	cfi_table_free(&t);
	close(fd);
	/* All of them: mostly unreadable. */
	ASSERT_TRUE(set_fde_ranges(&im, 0x7fffffff, 100) > 3);
	ASSERT_EQ_INT(build_mem(im.buf, im.len, &t), -EBADMSG);
	ASSERT_TRUE(strstr(errbuf, "FDEs unreadable"));
	free(im.buf);
}

TEST(fde_too_costly_for_libdw_is_ebadmsg)
{
	struct cfi_table t;

	ASSERT_EQ_INT(build(fx("fx_cfi_long"), NULL, MAX_ROWS, &t), -EBADMSG);
	ASSERT_TRUE(strstr(errbuf, "too costly"));
}

/* A sparse file whose .eh_frame claims 300 MiB: refused before libdw reads any of it. */
TEST(huge_eh_frame_is_refused_unread)
{
	struct image im;
	struct cfi_table t;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	int fd, ret, patched = 0;

	load_image(fx("fx_cfi"), &im);
	eh = (Elf64_Ehdr *)(void *)im.buf;
	sh = (Elf64_Shdr *)(void *)(im.buf + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_offset == im.eh.sh_offset && sh[i].sh_size == im.eh.sh_size) {
			sh[i].sh_size = 300u << 20;
			patched = 1;
		}
	ASSERT_TRUE(patched);
	fd = memfd_create("cfi", 0);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ_INT(write(fd, im.buf, im.len), (long long)im.len);
	ASSERT_EQ_INT(ftruncate(fd, (off_t)(im.eh.sh_offset + (300u << 20))), 0);
	errbuf[0] = '\0';
	ret = cfi_table_build(fd, -1, MAX_ROWS, &t, errbuf, sizeof(errbuf));
	close(fd);
	free(im.buf);
	ASSERT_EQ_INT(ret, -E2BIG);
	ASSERT_TRUE(strstr(errbuf, ".eh_frame of 314572800 bytes"));
}
