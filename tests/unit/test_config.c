/* SPDX-License-Identifier: BSD-2-Clause */
/* test_config.c - emberd's option table: command line, configuration file, printing */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "bpf/offcpu.h"
#include "daemon/config/config.h"
#include "harness.h"

static char err[CONFIG_ERR_LEN];

/* Split line on spaces into argv (a static buffer) and load it over the file, if any. */
static int load(struct config *c, struct config_cli *cli, const char *file, const char *line)
{
	static char buf[512], *argv[32];
	int argc = 0, ret;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	err[0] = '\0';
	ret = config_scan_args(argc, argv, cli, err, sizeof(err));
	if (ret)
		return ret;
	if (file)
		cli->file = file;
	return config_load(c, cli, argc, argv, err, sizeof(err));
}

static int parse(struct config *c, const char *line)
{
	struct config_cli cli;

	return load(c, &cli, NULL, line);
}

/* Write text to a temporary file; returns its path (static). */
static const char *conf_file(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/ember-test-conf.XXXXXX");
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static int parse_file(struct config *c, const char *text, const char *line)
{
	struct config_cli cli;
	const char *path = conf_file(text);
	int ret = load(c, &cli, path, line);

	unlink(path);
	return ret;
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
	ASSERT_EQ_INT(c.prefix, PREFIX_COMM);
	ASSERT_EQ_INT(c.verbose, 0);
	ASSERT_EQ_INT(c.offcpu_min_us, 1000);
	ASSERT_EQ_INT(c.offcpu_max_us, 0);
	ASSERT_EQ_INT(c.offcpu_states, OFFCPU_STATE_INTERRUPTIBLE | OFFCPU_STATE_UNINTERRUPTIBLE);
	ASSERT_EQ_INT(c.offcpu_threads, 0);
	ASSERT_EQ_INT(c.offcpu_waker, 0);
	ASSERT_EQ_INT(c.raw_names, 0);
	ASSERT_EQ_INT(c.inlines, 0);
}

TEST(offcpu_options)
{
	struct config c;
	char buf[64];

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
	for (size_t i = 0; i < config_noptions; i++)
		if (!strcmp(config_options[i].flag, "offcpu-state"))
			config_format(&c, &config_options[i], buf, sizeof(buf));
	ASSERT_EQ_STR(buf, "D,P");
}

TEST(offcpu_bad_values_are_errors)
{
	struct config c;

	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 0") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 3600000001") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 1ms") < 0);
	ASSERT_TRUE(parse(&c, "emberd --offcpu-max 999") < 0); /* below the default minimum */
	ASSERT_TRUE(parse(&c, "emberd --offcpu-min 50 --offcpu-max 40") < 0);
	ASSERT_EQ_STR(err, "--offcpu-max (40 us) is below --offcpu-min (50 us) "
			   "([offcpu] max-block and min-block in the file)");
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

	snprintf(line, sizeof(line),
		 "emberd -F 99 -w 10 -o /tmp/x --with-tid -p %d,1 --idle -v --raw-names --inlines",
		 getpid());
	ASSERT_EQ_INT(parse(&c, line), 0);
	ASSERT_EQ_INT(c.freq, 99);
	ASSERT_EQ_INT(c.window_sec, 10);
	ASSERT_EQ_STR(c.output_dir, "/tmp/x");
	ASSERT_EQ_INT(c.prefix, PREFIX_TID);
	ASSERT_EQ_INT(c.npids, 2);
	ASSERT_EQ_INT(c.pids[0], getpid());
	ASSERT_EQ_INT(c.pids[1], 1);
	ASSERT_EQ_INT(c.include_idle, 1);
	ASSERT_EQ_INT(c.verbose, 1);
	ASSERT_EQ_INT(c.raw_names, 1);
	ASSERT_EQ_INT(c.inlines, 1);
	ASSERT_EQ_INT(parse(&c, "emberd --stack-prefix pid --freq=7"), 0);
	ASSERT_EQ_INT(c.prefix, PREFIX_PID);
	ASSERT_EQ_INT(c.freq, 7);
}

TEST(bad_values_are_errors)
{
	struct config c;

	ASSERT_TRUE(parse(&c, "emberd -F 0") < 0);
	ASSERT_EQ_STR(err, "invalid value '0' for --freq (1-10000)");
	ASSERT_TRUE(parse(&c, "emberd -F 10001") < 0);
	ASSERT_TRUE(parse(&c, "emberd -F 12x") < 0);
	ASSERT_TRUE(parse(&c, "emberd -F -5") < 0);
	ASSERT_TRUE(parse(&c, "emberd -w 3601") < 0);
	ASSERT_TRUE(parse(&c, "emberd -p 0") < 0);
	ASSERT_EQ_STR(err, "invalid pid '0'");
	ASSERT_TRUE(parse(&c, "emberd -p ,") < 0);
	ASSERT_TRUE(parse(&c, "emberd --collect oncpu,,gpu") < 0);
	ASSERT_EQ_STR(err, "invalid value 'oncpu,,gpu' for --collect (oncpu, offcpu, memory)");
	ASSERT_TRUE(parse(&c, "emberd --stack-prefix thread") < 0);
	ASSERT_TRUE(parse(&c, "emberd stray") < 0);
	ASSERT_EQ_STR(err, "unexpected argument 'stray'");
	ASSERT_TRUE(parse(&c, "emberd --bogus") < 0);
	ASSERT_EQ_STR(err, "unrecognized option '--bogus'");
	ASSERT_TRUE(parse(&c, "emberd -F") < 0);
	ASSERT_EQ_STR(err, "missing argument for option '-F'");
}

TEST(help_version_and_check_are_seen_first)
{
	struct config_cli cli;
	char a0[] = "emberd", a1[] = "--version", a2[] = "--check-config", a3[] = "/x", a4[] = "-F",
	     a5[] = "0";
	char *argv[] = { a0, a1, a2, a3, a4, a5, NULL };

	ASSERT_EQ_INT(config_scan_args(6, argv, &cli, err, sizeof(err)), 0);
	ASSERT_EQ_INT(cli.version, 1);
	ASSERT_EQ_INT(cli.check, 1);
	ASSERT_EQ_STR(cli.file, "/x");
}

TEST(file_sets_options)
{
	struct config c;

	ASSERT_EQ_INT(
		parse_file(&c,
			   "# comment\n; another\n\n[daemon]\n  window = 10  \ncollectors=oncpu\n"
			   "[oncpu]\nfrequency = 99\nidle = yes\n[output]\ndirectory = /srv/p\n"
			   "stack-prefix = tid\n",
			   "emberd"),
		0);
	ASSERT_EQ_INT(c.window_sec, 10);
	ASSERT_EQ_INT(c.freq, 99);
	ASSERT_EQ_INT(c.include_idle, 1);
	ASSERT_EQ_STR(c.output_dir, "/srv/p");
	ASSERT_EQ_INT(c.prefix, PREFIX_TID);
}

TEST(flags_override_the_file)
{
	struct config c;

	ASSERT_EQ_INT(parse_file(&c, "[oncpu]\nfrequency = 99\n[daemon]\nwindow = 10\n",
				 "emberd -F 7 -c ignored-by-the-test"),
		      0);
	ASSERT_EQ_INT(c.freq, 7);
	ASSERT_EQ_INT(c.window_sec, 10);
}

/* Each error names the file, the line and what is wrong. */
TEST(file_errors_say_where)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "[oncpu]\nfrequncy = 99\n", ":2: unknown key 'frequncy' in section [oncpu]" },
		{ "[daemon]\n\n[gpu]\n", ":3: unknown section '[gpu]'" },
		{ "window = 5\n", ":1: key 'window' before any [section]" },
		{ "[oncpu]\nfrequency 99\n",
		  ":2: expected 'key = value' or '[section]', got 'frequency 99'" },
		{ "[oncpu]\nfrequency = 0\n", ":2: invalid value '0' for 'frequency' (1-10000)" },
		{ "[oncpu]\nidle = maybe\n",
		  ":2: invalid value 'maybe' for 'idle' (true or false)" },
		{ "[daemon]\nwindow = 5\nwindow = 6\n",
		  ":3: 'window' is set twice (first on line 2)" },
		{ "[oncpu\n", ":1: malformed section header '[oncpu'" },
		{ "[daemon]\npids = 1,x\n", ":2: invalid pid 'x'" },
		{ "[output]\ndirectory =\n", ":2: invalid value '' for 'directory'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config c;
		const char *p;

		config_init(&c);
		c.freq = 1234;
		ASSERT_TRUE(parse_file(&c, cases[i].text, "emberd") < 0);
		p = strchr(err, ':');
		ASSERT_TRUE(p && !strncmp(err, "/tmp/ember-test-conf.", 21));
		ASSERT_EQ_STR(p, cases[i].want);
		ASSERT_EQ_INT(c.freq, 1234); /* untouched on error */
	}
}

TEST(missing_file)
{
	struct config c;
	struct config_cli cli;

	ASSERT_TRUE(load(&c, &cli, "/nonexistent/emberd.conf", "emberd") < 0);
	ASSERT_EQ_STR(err, "cannot open '/nonexistent/emberd.conf': No such file or directory");
}

/* The printed file reads back to the same configuration, and every row is in it. */
TEST(print_round_trip)
{
	struct config c, back;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_EQ_INT(parse(&c, "emberd -F 123 -w 30 -o /srv/x --with-pid --idle -p 1"), 0);
	config_print(f, &c);
	fclose(f);
	for (size_t i = 0; i < config_noptions; i++) {
		char key[96];

		if (!config_options[i].key)
			continue;
		snprintf(key, sizeof(key), "\n%s =", config_options[i].key);
		ASSERT_TRUE(strstr(text, key) || strstr(text, key + 1));
	}
	ASSERT_EQ_INT(parse_file(&back, text, "emberd"), 0);
	free(text);
	ASSERT_EQ_INT(back.freq, 123);
	ASSERT_EQ_INT(back.window_sec, 30);
	ASSERT_EQ_STR(back.output_dir, "/srv/x");
	ASSERT_EQ_INT(back.prefix, PREFIX_PID);
	ASSERT_EQ_INT(back.include_idle, 1);
	ASSERT_EQ_INT(back.npids, 1);
	ASSERT_EQ_INT(config_restart_mask(&c, &back), 0);
}

TEST(table_is_consistent)
{
	struct config c;

	config_init(&c);
	for (size_t i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		ASSERT_TRUE(o->flag && o->doc);
		ASSERT_TRUE(!o->key == !o->section);
		ASSERT_TRUE(o->key ? o->def != NULL : o->fixed != NULL || o->type == CONF_BOOL);
		ASSERT_EQ_INT(
			config_set(&c, o, o->fixed ? o->fixed : o->def, "x", err, sizeof(err)), 0);
		for (size_t j = 0; j < i; j++) {
			ASSERT_TRUE(strcmp(o->flag, config_options[j].flag));
			ASSERT_TRUE(!o->short_flag ||
				    o->short_flag != config_options[j].short_flag);
			ASSERT_TRUE(!o->key || !config_options[j].key ||
				    strcmp(o->section, config_options[j].section) ||
				    strcmp(o->key, config_options[j].key));
		}
	}
}

TEST(restart_mask)
{
	struct config a, b;

	config_init(&a);
	b = a;
	b.window_sec = 5;
	b.prefix = PREFIX_TID;
	ASSERT_EQ_INT(config_restart_mask(&a, &b), 0);
	b.freq = 99;
	ASSERT_EQ_INT(config_restart_mask(&a, &b), COLLECT_ONCPU);
	b = a;
	b.npids = 1;
	b.pids[0] = 1;
	ASSERT_EQ_INT(config_restart_mask(&a, &b), COLLECT_ALL);
}

TEST(debuginfod_off_by_default_and_bounded_timeout)
{
	struct config c;

	ASSERT_EQ_INT(parse(&c, "emberd"), 0);
	ASSERT_EQ_STR(c.debuginfod_urls, "");
	ASSERT_EQ_INT(c.debuginfod_timeout_sec, 3);
	ASSERT_EQ_INT(
		parse(&c, "emberd --debuginfod http://127.0.0.1:8002 --debuginfod-timeout 10"), 0);
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
				" --mem-lib /proc/self/exe"),
		      0);
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
