/* SPDX-License-Identifier: BSD-2-Clause */
/* test_procmaps.c - parsing /proc/PID/maps: kinds, deleted files, odd paths, garbage */
#include <errno.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "symbolize/procmaps.h"
#include "tests/unit/harness.h"

static const char maps_text[] =
	"7f0000002000-7f0000003000 r-xp 00002000 08:01 1234                       /usr/lib/libc.so.6\n"
	"55550000-55560000 r--p 00000000 08:01 99 /bin/prog\n"
	"55560000-55570000 r-xp 00010000 fd:02 99 /opt/my app/prog (deleted)\n"
	"7fff0000-7fff2000 r-xp 00000000 00:00 0                          [vdso]\n"
	"7e000000-7e100000 rwxp 00000000 00:00 0 \n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]\n"
	"garbage line\n"
	"9000-8000 r-xp 00000000 00:00 0 /backwards\n"
	"1000-2000 r-xp";

TEST(executable_mappings_sorted_and_classified)
{
	struct procmap *m;
	int n = procmaps_parse(maps_text, sizeof(maps_text) - 1, &m);

	ASSERT_EQ_INT(n, 5);
	ASSERT_EQ_INT(m[0].start, 0x55560000);
	ASSERT_EQ_INT(m[0].kind, PROCMAP_FILE);
	ASSERT_EQ_STR(m[0].path, "/opt/my app/prog");
	ASSERT_EQ_INT(m[0].deleted, 1);
	ASSERT_EQ_INT(m[0].pgoff, 0x10000);
	ASSERT_TRUE(m[0].dev == makedev(0xfd, 2));
	ASSERT_EQ_INT(m[0].ino, 99);
	ASSERT_EQ_INT(m[1].kind, PROCMAP_ANON);
	ASSERT_TRUE(m[1].path == NULL);
	ASSERT_EQ_INT(m[2].kind, PROCMAP_VDSO);
	ASSERT_EQ_STR(m[3].path, "/usr/lib/libc.so.6");
	ASSERT_EQ_INT(m[3].deleted, 0);
	ASSERT_EQ_INT(m[4].kind, PROCMAP_OTHER);
	ASSERT_EQ_STR(m[4].path, "[vsyscall]");
	procmaps_free(m, n);
}

TEST(own_maps_include_this_binary)
{
	struct procmap *m;
	int n = procmaps_read((uint32_t)getpid(), &m), found = 0;
	uint64_t self = (uint64_t)(uintptr_t)&harness_register;

	ASSERT_TRUE(n > 0);
	for (int i = 0; i < n; i++)
		found |= self >= m[i].start && self < m[i].end && m[i].kind == PROCMAP_FILE;
	ASSERT_TRUE(found);
	procmaps_free(m, n);
}

TEST(missing_process)
{
	struct procmap *m;

	ASSERT_EQ_INT(procmaps_read(0x7ffffff0, &m), -ENOENT);
}
