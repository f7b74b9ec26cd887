/* SPDX-License-Identifier: BSD-2-Clause */
/* test_inlines.c - inlined frames from hostile DWARF: the scope walk is bounded */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "symbolize/inlines.h"
#include "tests/unit/harness.h"

/*
 * An object file whose only DWARF is one unit of `levels` nested lexical blocks, all over
 * 0x1000..0x1100 (assembled by as: no relocations, the addresses are constants).
 */
static int nested_blocks(int levels, char *path, size_t size)
{
	static const char abbrev[] =
		"\t.section .debug_abbrev,\"\",@progbits\n"
		"\t.uleb128 1\n\t.uleb128 0x11\n\t.byte 1\n" /* compile_unit */
		"\t.uleb128 0x11\n\t.uleb128 0x01\n\t.uleb128 0x12\n\t.uleb128 0x07\n"
		"\t.byte 0, 0\n"
		"\t.uleb128 2\n\t.uleb128 0x0b\n\t.byte 1\n" /* lexical_block */
		"\t.uleb128 0x11\n\t.uleb128 0x01\n\t.uleb128 0x12\n\t.uleb128 0x07\n"
		"\t.byte 0, 0\n\t.byte 0\n";
	char src[64], cmd[256];
	FILE *f;
	int rc;

	snprintf(src, sizeof(src), "/tmp/ember-inl-%d.s", (int)getpid());
	snprintf(path, size, "/tmp/ember-inl-%d.o", (int)getpid());
	f = fopen(src, "w");
	if (!f)
		return -1;
	fputs(abbrev, f);
	fprintf(f,
		"\t.section .debug_info,\"\",@progbits\n\t.long 2f - 1f\n1:\t.short 4\n"
		"\t.long 0\n\t.byte 8\n\t.uleb128 1\n\t.quad 0x1000\n\t.quad 0x100\n"
		"\t.rept %d\n\t.uleb128 2\n\t.quad 0x1000\n\t.quad 0x100\n\t.endr\n"
		"\t.rept %d\n\t.byte 0\n\t.endr\n2:\n",
		levels, levels + 1);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "as -o %s %s", path, src);
	rc = system(cmd);
	unlink(src);
	return rc;
}

/* 100,000 nested blocks (1.8 MB of DWARF) overflowed libdw's recursive scope walk. */
TEST(deeply_nested_blocks_do_not_exhaust_the_stack)
{
	const char *names[8];
	char path[64];
	struct inlines *in;
	int fd;

	ASSERT_EQ_INT(nested_blocks(100000, path, sizeof(path)), 0);
	fd = open(path, O_RDONLY);
	ASSERT_TRUE(fd >= 0);
	in = inlines_open(fd);
	close(fd);
	unlink(path);
	ASSERT_TRUE(in != NULL);
	ASSERT_EQ_INT(inlines_at(in, 0x1080, names, 8), 0);
	ASSERT_EQ_INT(inlines_at(in, 0x9000, names, 8), 0);
	inlines_free(in);
}
