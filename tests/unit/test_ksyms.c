/* SPDX-License-Identifier: BSD-2-Clause */
/* test_ksyms.c - kallsyms parsing: text symbols, modules, spans, restricted tables */
#include <errno.h>
#include <unistd.h>

#include "symbolize/ksyms.h"
#include "tests/unit/harness.h"

static struct ksyms *load(const char *text)
{
	char path[] = "/tmp/ember-ksyms-XXXXXX";
	struct ksyms *ks = NULL;
	int fd = mkstemp(path);

	if (fd < 0)
		return NULL;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text))
		ksyms_load(path, &ks);
	close(fd);
	unlink(path);
	return ks;
}

TEST(text_symbols_and_modules)
{
	struct ksyms *ks = load("ffffffff81000000 T _stext\n"
				"ffffffff81000500 D a_variable\n"
				"ffffffff81000100 t sorted_later\n"
				"ffffffff81000200 W weak_fn\n"
				"ffffffffc0002000 t mod_b_fn\t[mod_b]\n"
				"ffffffffc0001000 t mod_a_fn\t[mod_a]\n"
				"ffffffffc0001100 T mod_a_fn2\t[mod_a]\n"
				"bogus line\n"
				"ffffffffc0003000 X strange_type\n");
	const char *mod = "x";

	ASSERT_TRUE(ks);
	ASSERT_EQ_INT(ksyms_count(ks), 6);
	ASSERT_EQ_INT(ksyms_restricted(ks), 0);
	ASSERT_EQ_STR(ksyms_lookup(ks, 0xffffffff81000150, &mod), "sorted_later");
	ASSERT_TRUE(mod == NULL);
	ASSERT_EQ_STR(ksyms_lookup(ks, 0xffffffff81000600, &mod), "weak_fn");
	ASSERT_EQ_STR(ksyms_lookup(ks, 0xffffffffc0001104, &mod), "mod_a_fn2");
	ASSERT_EQ_STR(mod, "mod_a");
	ASSERT_EQ_STR(ksyms_lookup(ks, 0xffffffffc0002004, &mod), "mod_b_fn");
	ASSERT_EQ_STR(mod, "mod_b");
	ASSERT_TRUE(ksyms_lookup(ks, 0xffffffff80000000, &mod) == NULL);
	/* Past the last symbol, only within a bounded span. */
	ASSERT_TRUE(ksyms_lookup(ks, 0xffffffffc0002000 + (64u << 20), &mod) == NULL);
	ksyms_free(ks);
}

TEST(zeros_mean_restricted)
{
	struct ksyms *ks = load("0000000000000000 T _stext\n0000000000000000 t foo\t[m]\n");
	const char *mod;

	ASSERT_TRUE(ks);
	ASSERT_EQ_INT(ksyms_restricted(ks), 1);
	ASSERT_EQ_INT(ksyms_count(ks), 0);
	ASSERT_TRUE(ksyms_lookup(ks, 0xffffffff81000000, &mod) == NULL);
	ksyms_free(ks);
}

TEST(missing_file)
{
	struct ksyms *ks;

	ASSERT_EQ_INT(ksyms_load("/nonexistent/kallsyms", &ks), -ENOENT);
}

TEST(modules_signature_is_stable)
{
	uint64_t a = ksyms_modules_signature("/proc/modules");

	ASSERT_EQ_INT(ksyms_modules_signature("/proc/modules"), a);
	ASSERT_EQ_INT(ksyms_modules_signature("/nonexistent/modules"), 0);
}
