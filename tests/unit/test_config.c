/* SPDX-License-Identifier: BSD-2-Clause */
/* test_config.c - emberd's command line */
#include <unistd.h>

#include "daemon/config.h"
#include "harness.h"

static int parse(struct config *c, const char *line)
{
	char buf[512], *argv[32];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	config_init(c);
	return config_parse_args(c, argc, argv);
}

TEST(defaults)
{
	struct config c;

	ASSERT_EQ_INT(parse(&c, "emberd"), 0);
	ASSERT_EQ_INT(c.freq, 49);
	ASSERT_EQ_INT(c.window_sec, 60);
	ASSERT_EQ_STR(c.output_dir, "profiles");
	ASSERT_EQ_INT(c.collect, COLLECT_ONCPU);
	ASSERT_EQ_INT(c.npids, 0);
}

TEST(options)
{
	struct config c;
	char line[128];

	snprintf(line, sizeof(line), "emberd -F 99 -w 10 -o /tmp/x --with-tid -p %d,1", getpid());
	ASSERT_EQ_INT(parse(&c, line), 0);
	ASSERT_EQ_INT(c.freq, 99);
	ASSERT_EQ_INT(c.window_sec, 10);
	ASSERT_EQ_STR(c.output_dir, "/tmp/x");
	ASSERT_EQ_INT(c.prefix, PREFIX_TID);
	ASSERT_EQ_INT(c.npids, 2);
	ASSERT_EQ_INT(c.pids[0], getpid());
	ASSERT_EQ_INT(c.pids[1], 1);
}

TEST(bad_values_are_errors)
{
	struct config c;

	ASSERT_TRUE(parse(&c, "emberd -F 0") < 0);
	ASSERT_TRUE(parse(&c, "emberd -F 10001") < 0);
	ASSERT_TRUE(parse(&c, "emberd -F 12x") < 0);
	ASSERT_TRUE(parse(&c, "emberd -F -5") < 0);
	ASSERT_TRUE(parse(&c, "emberd -w 3601") < 0);
	ASSERT_TRUE(parse(&c, "emberd -p 0") < 0);
	ASSERT_TRUE(parse(&c, "emberd -p ,") < 0);
	ASSERT_TRUE(parse(&c, "emberd --collect oncpu,,gpu") < 0);
	ASSERT_TRUE(parse(&c, "emberd stray") < 0);
}

TEST(help_and_version_stop_early)
{
	struct config c;

	ASSERT_EQ_INT(parse(&c, "emberd --version"), 1);
}

TEST(collect_list)
{
	unsigned int m = 0;

	ASSERT_EQ_INT(config_parse_collect("oncpu", &m), 0);
	ASSERT_EQ_INT(m, COLLECT_ONCPU);
	ASSERT_TRUE(config_parse_collect("", &m) < 0);
	ASSERT_TRUE(config_parse_collect("oncpux", &m) < 0);
}
