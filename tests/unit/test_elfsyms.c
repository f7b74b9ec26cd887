/* SPDX-License-Identifier: BSD-2-Clause */
/* test_elfsyms.c - ELF symbol tables: lookups, load segments, identity, corrupt input */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "symbolize/elfsyms.h"
#include "tests/unit/fixture_sym.h"
#include "tests/unit/harness.h"

static char *read_fixture(const char *name, size_t *len)
{
	char path[2048];
	struct stat st;
	char *buf;
	int fd;

	fx_path(path, sizeof(path), name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc((size_t)st.st_size);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static long find_name(const struct elfsyms *es, const char *name)
{
	for (size_t i = 0; i < elfsyms_count(es); i++)
		if (!strcmp(elfsyms_name(es, (long)i), name))
			return (long)i;
	return -1;
}

TEST(symtab_lookup_inside_and_outside_functions)
{
	struct elfsyms *es;
	size_t len;
	char *img = read_fixture("fx_nopie", &len);
	long i;
	uint64_t a;

	ASSERT_TRUE(img);
	ASSERT_EQ_INT(elfsyms_load_mem(img, len, &es), 0);
	ASSERT_TRUE(elfsyms_info(es)->has_symtab);
	i = find_name(es, "ember_fx_local");
	ASSERT_TRUE(i >= 0);
	a = elfsyms_addr(es, i);
	ASSERT_EQ_INT(elfsyms_find(es, a), i);
	ASSERT_EQ_INT(elfsyms_find(es, a + 3), i);
	ASSERT_EQ_INT(elfsyms_find(es, 0x10), -1);
	ASSERT_EQ_INT(elfsyms_find(es, UINT64_MAX), -1);
	/* Non-PIE: file offsets map to addresses above the link base. */
	ASSERT_EQ_INT(elfsyms_off_to_vaddr(es, 0, &a), 0);
	ASSERT_EQ_INT(a, 0x400000);
	elfsyms_free(es);
	free(img);
}

/* The address of a symbol as the symbol table has it, whatever elfsyms keeps. */
static uint64_t nm_addr(const char *fixture, const char *name)
{
	char path[2048], cmd[2300], line[256] = "";
	FILE *p;

	fx_path(path, sizeof(path), fixture);
	snprintf(cmd, sizeof(cmd), "nm %s | awk '$3 == \"%s\" { print $1 }'", path, name);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	pclose(p);
	return strtoull(line, NULL, 16);
}

TEST(labels_in_code_are_named_after_functions)
{
	uint64_t label = nm_addr("fx_nopie", "ember_fx_label");
	uint64_t local = nm_addr("fx_nopie", ".Lember_fx_local");
	uint64_t labelled = nm_addr("fx_nopie", "ember_fx_labelled");
	uint64_t inner = nm_addr("fx_nopie", "ember_fx_labelled_inner");
	struct elfsyms *es;
	size_t len;
	char *img = read_fixture("fx_nopie", &len);
	long i, f;

	ASSERT_TRUE(img && label && local > label && labelled > local && inner > labelled);
	ASSERT_TRUE(nm_addr("fx_nopie", "ember_fx_data_label"));
	ASSERT_EQ_INT(elfsyms_load_mem(img, len, &es), 0);
	/* An untyped label in .text names its code, past a .L label, up to the next symbol. */
	i = find_name(es, "ember_fx_label");
	ASSERT_TRUE(i >= 0);
	ASSERT_EQ_INT(elfsyms_addr(es, i), label);
	ASSERT_EQ_INT(elfsyms_find(es, label + 1), i);
	ASSERT_EQ_INT(elfsyms_find(es, local + 1), i);
	ASSERT_EQ_INT(find_name(es, ".Lember_fx_local"), -1);
	/* A function wins over a label at its address, and a label inside it is ignored. */
	f = find_name(es, "ember_fx_labelled");
	ASSERT_TRUE(f >= 0);
	ASSERT_EQ_INT(elfsyms_addr(es, f), labelled);
	ASSERT_EQ_INT(elfsyms_find(es, labelled), f);
	ASSERT_EQ_INT(elfsyms_find(es, inner), f);
	ASSERT_EQ_INT(find_name(es, "ember_fx_entry"), -1);
	ASSERT_EQ_INT(find_name(es, "ember_fx_labelled_inner"), -1);
	/* A label in data is no code. */
	ASSERT_EQ_INT(find_name(es, "ember_fx_data_label"), -1);
	elfsyms_free(es);
	free(img);
}

TEST(build_id_matches_the_note)
{
	char path[2048], cmd[2200], want[128] = "", got[2 * ELFSYMS_BUILD_ID_MAX + 1];
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	FILE *p;
	int fd, n;

	fx_path(path, sizeof(path), "fx_pie");
	snprintf(cmd, sizeof(cmd), "readelf -n %s | sed -n 's/.*Build ID: *//p'", path);
	p = popen(cmd, "r");
	ASSERT_TRUE(p && fgets(want, sizeof(want), p));
	pclose(p);
	want[strcspn(want, "\n")] = '\0';
	fd = open(path, O_RDONLY);
	n = elfsyms_read_build_id(fd, id, sizeof(id));
	close(fd);
	ASSERT_TRUE(n > 0);
	for (int i = 0; i < n; i++)
		sprintf(got + 2 * i, "%02x", id[i]);
	ASSERT_EQ_STR(got, want);
}

TEST(stripped_binary_keeps_its_debuglink)
{
	struct elfsyms *es;
	size_t len;
	char *img = read_fixture("fx_debuglink", &len);

	ASSERT_TRUE(img);
	ASSERT_EQ_INT(elfsyms_load_mem(img, len, &es), 0);
	ASSERT_EQ_STR(elfsyms_info(es)->debuglink, "fx_debuglink.debug");
	ASSERT_EQ_INT(elfsyms_info(es)->has_symtab, 0);
	ASSERT_EQ_INT(elfsyms_info(es)->build_id_len, 0);
	ASSERT_EQ_INT(find_name(es, "ember_fx_local"), -1);
	elfsyms_free(es);
	free(img);
}

TEST(minidebuginfo_adds_local_functions)
{
	struct elfsyms *es;
	size_t len;
	char *img = read_fixture("fx_mini", &len);

	ASSERT_TRUE(img);
	ASSERT_EQ_INT(elfsyms_load_mem(img, len, &es), 0);
	ASSERT_TRUE(elfsyms_info(es)->has_debugdata);
	ASSERT_TRUE(find_name(es, "ember_fx_local") >= 0);
	elfsyms_free(es);
	free(img);
}

TEST(not_elf_and_empty_input_are_refused)
{
	struct elfsyms *es = NULL;

	ASSERT_EQ_INT(elfsyms_load_mem("#!/bin/sh\necho hi\n", 18, &es), -ENOEXEC);
	ASSERT_EQ_INT(elfsyms_load_mem("", 0, &es), -ENOEXEC);
	ASSERT_EQ_INT(elfsyms_load_mem("\x7f"
				       "ELF",
				       4, &es),
		      -ENOEXEC);
	ASSERT_TRUE(es == NULL);
}

/* Every truncation and many byte flips of real binaries: an error or a table, never a crash. */
TEST(truncated_and_corrupted_binaries_do_not_crash)
{
	static const char *const names[] = { "fx_pie", "fx_mini", "fx_lib.so" };

	for (size_t f = 0; f < 3; f++) {
		size_t len, step;
		char *img = read_fixture(names[f], &len);
		unsigned int seed = 1;

		ASSERT_TRUE(img);
		step = len / 97 + 1;
		for (size_t cut = 0; cut < len; cut += step) {
			struct elfsyms *es;

			if (!elfsyms_load_mem(img, cut, &es))
				elfsyms_free(es);
		}
		for (int round = 0; round < 300; round++) {
			char *copy = malloc(len);
			struct elfsyms *es;

			ASSERT_TRUE(copy);
			memcpy(copy, img, len);
			for (int k = 0; k < 8; k++)
				copy[rand_r(&seed) % len] = (char)rand_r(&seed);
			if (!elfsyms_load_mem(copy, len, &es)) {
				uint64_t v;

				elfsyms_find(es, (uint64_t)rand_r(&seed));
				elfsyms_off_to_vaddr(es, (uint64_t)rand_r(&seed), &v);
				elfsyms_free(es);
			}
			free(copy);
		}
		free(img);
	}
}
