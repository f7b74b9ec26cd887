/* SPDX-License-Identifier: BSD-2-Clause */
/* args.c - emberd's command line, --help and --print-config, all drawn from the option table */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/config.h"

enum {
	ARG_CONFIG = 'c',
	ARG_SHORT_HELP = 'h',
	ARG_CHECK = 900,
	ARG_PRINT,
	ARG_HELP,
	ARG_VERSION,
	ARG_ROW = 1000
};

static const struct option extra_opts[] = {
	{ "config", required_argument, NULL, ARG_CONFIG },
	{ "check-config", required_argument, NULL, ARG_CHECK },
	{ "print-config", no_argument, NULL, ARG_PRINT },
	{ "help", no_argument, NULL, ARG_HELP },
	{ "version", no_argument, NULL, ARG_VERSION },
};
#define NEXTRA (sizeof(extra_opts) / sizeof(extra_opts[0]))

struct args {
	struct option *longs;
	char shorts[128];
};

static int takes_arg(const struct config_option *o)
{
	return !o->fixed && o->type != CONF_BOOL;
}

/* getopt's tables from the option table. Returns 0 or -ENOMEM. */
static int args_init(struct args *a)
{
	size_t n = 0, s = 0;

	a->longs = calloc(config_noptions + NEXTRA + 1, sizeof(*a->longs));
	if (!a->longs)
		return -ENOMEM;
	a->shorts[s++] = ':'; /* report a missing argument as ':' */
	a->shorts[s++] = 'c';
	a->shorts[s++] = ':';
	a->shorts[s++] = 'h';
	for (size_t i = 0; i < config_noptions; i++, n++) {
		const struct config_option *o = &config_options[i];

		a->longs[n] =
			(struct option){ o->flag, takes_arg(o) ? required_argument : no_argument,
					 NULL, o->short_flag ? o->short_flag : ARG_ROW + (int)i };
		if (o->short_flag && s + 3 < sizeof(a->shorts)) {
			a->shorts[s++] = (char)o->short_flag;
			if (takes_arg(o))
				a->shorts[s++] = ':';
		}
	}
	memcpy(a->longs + n, extra_opts, sizeof(extra_opts));
	a->shorts[s] = '\0';
	return 0;
}

static const struct config_option *row_of(int opt)
{
	if (opt >= ARG_ROW && opt < ARG_ROW + (int)config_noptions)
		return &config_options[opt - ARG_ROW];
	for (size_t i = 0; i < config_noptions; i++)
		if (config_options[i].short_flag && config_options[i].short_flag == opt)
			return &config_options[i];
	return NULL;
}

/*
 * Walk the command line; row options go to c when c is set, the others to cli
 * when cli is set. Returns 0 or -EINVAL with a message in err.
 */
static int walk_args(int argc, char **argv, struct config *c, struct config_cli *cli, char *err,
		     size_t errlen)
{
	struct args a;
	int opt, ret = 0;

	if (args_init(&a))
		return -ENOMEM;
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, a.shorts, a.longs, NULL)) != -1) {
		const struct config_option *o = row_of(opt);
		char what[80];

		if (opt == '?' || opt == ':') {
			snprintf(err, errlen, "%s option '%s'",
				 opt == '?' ? "unrecognized" : "missing argument for",
				 argv[optind - 1]);
			ret = -EINVAL;
			goto cleanup;
		}
		if (o && c) {
			snprintf(what, sizeof(what), "--%s", o->flag);
			ret = config_set(c, o,
					 o->fixed ? o->fixed
					 : optarg ? optarg
						  : "true",
					 what, err, errlen);
			if (ret)
				goto cleanup;
		} else if (!o && cli) {
			cli->file = opt == ARG_CONFIG || opt == ARG_CHECK ? optarg : cli->file;
			cli->check |= opt == ARG_CHECK;
			cli->print |= opt == ARG_PRINT;
			cli->help |= opt == ARG_HELP || opt == ARG_SHORT_HELP;
			cli->version |= opt == ARG_VERSION;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		ret = -EINVAL;
	}
cleanup:
	free(a.longs);
	return ret;
}

int config_scan_args(int argc, char **argv, struct config_cli *cli, char *err, size_t errlen)
{
	memset(cli, 0, sizeof(*cli));
	return walk_args(argc, argv, NULL, cli, err, errlen);
}

int config_load(struct config *c, const struct config_cli *cli, int argc, char **argv, char *err,
		size_t errlen)
{
	struct config *tmp = malloc(sizeof(*tmp));
	int ret;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	config_init(tmp);
	ret = cli->file ? config_load_file(tmp, cli->file, err, errlen) : 0;
	if (!ret)
		ret = walk_args(argc, argv, tmp, NULL, err, errlen);
	if (!ret)
		ret = config_check(tmp, err, errlen);
	if (!ret)
		*c = *tmp;
	free(tmp);
	return ret;
}

static void describe(const struct config_option *o, char *buf, size_t len)
{
	size_t used = 0;

	if (o->type == CONF_UINT || o->type == CONF_U64)
		used = snprintf(buf, len, "%lu-%lu, ", o->min, o->max);
	else if (o->type == CONF_CUSTOM)
		used = snprintf(buf, len, "%s; ", o->range);
	else if (o->type == CONF_SET || o->type == CONF_ENUM) {
		used = snprintf(buf, len, o->type == CONF_SET ? "any of " : "one of ");
		for (int i = 0; o->names[i] && used < len; i++)
			used += snprintf(buf + used, len - used, "%s%s", i ? "," : "", o->names[i]);
		used += used < len ? snprintf(buf + used, len - used, "; ") : 0;
	}
	if (used < len)
		snprintf(buf + used, len - used, "default %s", *o->def ? o->def : "none");
}

void config_usage(FILE *f)
{
	char left[64], info[256];

	fputs("usage: emberd [OPTIONS]\n"
	      "Always-on eBPF profiler: writes per-window folded stacks of the whole host.\n\n"
	      "  -c, --config FILE        read options from FILE (see emberd.conf(5));\n"
	      "                           flags given here override it\n"
	      "      --check-config FILE  validate FILE and the flags, then exit\n"
	      "      --print-config       print the effective configuration as a file, then exit\n",
	      f);
	for (size_t i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		snprintf(left, sizeof(left), "%c%c%c --%s%s%s", o->short_flag ? '-' : ' ',
			 o->short_flag ? o->short_flag : ' ', o->short_flag ? ',' : ' ', o->flag,
			 takes_arg(o) ? " " : "", takes_arg(o) ? o->arg : "");
		if (strlen(left) > 24)
			fprintf(f, "  %s\n  %-24s %s\n", left, "", o->doc);
		else
			fprintf(f, "  %-24s %s\n", left, o->doc);
		if (!o->key)
			continue;
		describe(o, info, sizeof(info));
		fprintf(f, "  %-24s [%s] %s; %s\n", "", o->section, o->key, info);
	}
	fputs("  -h, --help               this text\n"
	      "      --version            print the version\n"
	      "\nSignals: SIGUSR1 writes a snapshot now, SIGHUP reloads the configuration file,\n"
	      "SIGTERM/SIGINT write the current window and exit.\n",
	      f);
}

static void print_option(FILE *f, const struct config *c, const struct config_option *o)
{
	static char val[16384], def[16384];
	char info[256];
	struct config d;

	config_init(&d);
	config_format(c, o, val, sizeof(val));
	config_format(&d, o, def, sizeof(def));
	describe(o, info, sizeof(info));
	if (o->short_flag)
		fprintf(f, "\n# %s.\n# %s; flag -%c, --%s.\n", o->doc, info, o->short_flag,
			o->flag);
	else
		fprintf(f, "\n# %s.\n# %s; flag --%s.\n", o->doc, info, o->flag);
	fprintf(f, "%s%s =%s%s\n", strcmp(val, def) ? "" : "#", o->key, *val ? " " : "", val);
}

void config_print(FILE *f, const struct config *c)
{
	const char *done[32];
	size_t ndone = 0;

	fputs("# emberd.conf - configuration of emberd, the always-on eBPF profiler; see emberd.conf(5).\n"
	      "# Every option is listed in its section with its default, commented out.\n"
	      "# Flags on emberd's command line override this file. Unknown keys are errors.\n"
	      "# 'systemctl reload emberd' (SIGHUP) applies a changed file without losing data.\n",
	      f);
	for (size_t i = 0; i < config_noptions && ndone < 32; i++) {
		const char *sec = config_options[i].section;
		size_t k;

		for (k = 0; k < ndone && sec && strcmp(done[k], sec); k++)
			;
		if (!sec || k < ndone)
			continue;
		done[ndone++] = sec;
		fprintf(f, "\n[%s]\n", sec);
		for (k = 0; config_sections[k].name; k++)
			if (!strcmp(config_sections[k].name, sec))
				fprintf(f, "# %s\n", config_sections[k].doc);
		for (size_t j = i; j < config_noptions; j++)
			if (config_options[j].section && !strcmp(config_options[j].section, sec))
				print_option(f, c, &config_options[j]);
	}
}
