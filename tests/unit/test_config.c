/* SPDX-License-Identifier: BSD-2-Clause */
/* test_config.c - emberd's command line */
#include <errno.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "bpf/offcpu.h"
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
	ASSERT_EQ_INT(c.collect, COLLECT_ONCPU | COLLECT_OFFCPU);
	ASSERT_EQ_INT(c.npids, 0);
	ASSERT_EQ_INT(c.offcpu_min_us, 1000);
	ASSERT_EQ_INT(c.offcpu_max_us, 0);
	ASSERT_EQ_INT(c.offcpu_states, OFFCPU_STATE_INTERRUPTIBLE | OFFCPU_STATE_UNINTERRUPTIBLE);
	ASSERT_EQ_INT(c.offcpu_threads, 0);
	ASSERT_EQ_INT(c.offcpu_waker, 0);
	ASSERT_EQ_INT(c.raw_names, 0);
}

TEST(offcpu_options)
{
	struct config c;

	ASSERT_EQ_INT(parse(&c, "emberd --collect offcpu --offcpu-min 1 --offcpu-max 3600000000 "
				"--offcpu-state R,uninterruptible,t --offcpu-threads kernel "
				"--offcpu-waker"),
		      0);
	ASSERT_EQ_INT(c.collect, COLLECT_OFFCPU);
	ASSERT_EQ_INT(c.offcpu_min_us, 1);
	ASSERT_TRUE(c.offcpu_max_us == 3600000000ull);
	ASSERT_TRUE(c.offcpu_states ==
		    (OFFCPU_STATE_PREEMPTED | OFFCPU_STATE_UNINTERRUPTIBLE | OFFCPU_STATE_TRACED));
	ASSERT_EQ_INT(c.offcpu_threads, OFFCPU_THREADS_KERNEL);
	ASSERT_EQ_INT(c.offcpu_waker, 1);
	ASSERT_EQ_INT(parse(&c, "emberd --offcpu-state 0x42 --offcpu-threads user"), 0);
	ASSERT_EQ_INT(c.offcpu_states, OFFCPU_STATE_UNINTERRUPTIBLE | OFFCPU_STATE_PARKED);
	ASSERT_EQ_INT(c.offcpu_threads, OFFCPU_THREADS_USER);
}

TEST(offcpu_bad_values_are_errors)
{
	struct config c;

	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 0") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 3600000001") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 1ms") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-max 999") < 0); /* below the default minimum */
	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 50 --offcpu-max 40") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-state X") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-state S,,") == 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-state ,") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-state 0x100") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-state 0x0") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-state 0xzz") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-threads none") < 0);
}

TEST(options)
{
	struct config c;
	char line[128];

	snprintf(line, sizeof(line), "emberd -F 99 -w 10 -o /tmp/x --with-tid --raw-names -p %d,1",
		 getpid());
	ASSERT_EQ_INT(parse(&c, line), 0);
	ASSERT_EQ_INT(c.freq, 99);
	ASSERT_EQ_INT(c.window_sec, 10);
	ASSERT_EQ_STR(c.output_dir, "/tmp/x");
	ASSERT_EQ_INT(c.prefix, PREFIX_TID);
	ASSERT_EQ_INT(c.npids, 2);
	ASSERT_EQ_INT(c.pids[0], getpid());
	ASSERT_EQ_INT(c.pids[1], 1);
	ASSERT_EQ_INT(c.raw_names, 1);
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
	ASSERT_EQ_INT(config_parse_collect("offcpu,oncpu", &m), 0);
	ASSERT_EQ_INT(m, COLLECT_ONCPU | COLLECT_OFFCPU);
	ASSERT_TRUE(config_parse_collect("", &m) < 0);
	ASSERT_TRUE(config_parse_collect("oncpux", &m) < 0);
}

TEST(debuginfod_off_by_default_and_bounded_timeout)
{
	struct config c;

	ASSERT_EQ_INT(parse(&c, "emberd"), 0);
	ASSERT_EQ_STR(c.debuginfod_urls, "");
	ASSERT_EQ_INT(c.debuginfod_timeout_sec, 3);
	ASSERT_EQ_INT(parse(&c, "emberd --debuginfod http://127.0.0.1:8002 --debuginfod-timeout 10"),
		      0);
	ASSERT_EQ_STR(c.debuginfod_urls, "http://127.0.0.1:8002");
	ASSERT_EQ_INT(c.debuginfod_timeout_sec, 10);
	ASSERT_EQ_INT(parse(&c, "emberd --debuginfod-timeout 0"), -EINVAL);
	ASSERT_EQ_INT(parse(&c, "emberd --debuginfod-timeout 61"), -EINVAL);
	ASSERT_EQ_INT(parse(&c, "emberd --debuginfod"), -EINVAL);
}

TEST(memory_options)
{
	struct config c;

	ASSERT_EQ_INT(parse(&c, "emberd --collect memory"), 0);
	ASSERT_EQ_INT(c.collect, COLLECT_MEMORY);
	ASSERT_TRUE(c.mem_sample == 512 * 1024);
	ASSERT_EQ_INT(c.mem_duty, 50);
	ASSERT_EQ_INT(c.mem_age, 60);
	ASSERT_EQ_STR(c.mem_lib, "");
	ASSERT_EQ_INT(parse(&c, "emberd --mem-sample 1 --mem-duty 100 --mem-age 0 --mem-prefix je_"
				" --mem-lib /proc/self/exe"), 0);
	ASSERT_TRUE(c.mem_sample == 1);
	ASSERT_EQ_INT(c.mem_duty, 100);
	ASSERT_EQ_INT(c.mem_age, 0);
	ASSERT_EQ_STR(c.mem_prefix, "je_");
	ASSERT_EQ_STR(c.mem_lib, "/proc/self/exe");
	ASSERT_TRUE(parse(&c, "emberd --mem-sample 0") < 0);
	ASSERT_TRUE(parse(&c, "emberd --mem-duty 0") < 0);
	ASSERT_TRUE(parse(&c, "emberd --mem-duty 101") < 0);
	ASSERT_TRUE(parse(&c, "emberd --mem-age -1") < 0);
	ASSERT_TRUE(parse(&c, "emberd --mem-lib /nonexistent") < 0);
}
