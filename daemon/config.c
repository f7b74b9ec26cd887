/* SPDX-License-Identifier: BSD-2-Clause */
/* config.c - emberd's settings: defaults and command line */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <unistd.h>

#include "bpf/common.h"
#include "bpf/offcpu.h"
#include "daemon/config.h"

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->freq = 49;
	c->window_sec = 60;
	strcpy(c->output_dir, "profiles");
	c->collect = COLLECT_ONCPU | COLLECT_OFFCPU;
	c->offcpu_min_us = 1000;
	c->offcpu_states = OFFCPU_STATE_INTERRUPTIBLE | OFFCPU_STATE_UNINTERRUPTIBLE;
	c->prefix = PREFIX_COMM;
	c->debuginfod_timeout_sec = 3;
	c->mem_sample = 512 * 1024;
	c->mem_duty = 50;
	c->mem_age = 60;
}

static const char usage_text[] =
	"usage: emberd [OPTIONS]\n"
	"Always-on eBPF profiler: writes per-window folded stacks of the whole host.\n\n"
	"  -F, --freq HZ           on-CPU sampling frequency (default 49, 1-10000)\n"
	"  -p, --pid PID[,PID...]  profile only these processes (default: all)\n"
	"  -o, --output DIR        output directory (default ./profiles)\n"
	"  -w, --window SECONDS    window length, aligned to the clock (default 60, 1-3600)\n"
	"      --collect LIST      collectors to run, comma-separated: oncpu, offcpu, memory\n"
	"                          (default oncpu,offcpu)\n"
	"      --offcpu-min US     off-CPU: count blocks of at least US microseconds\n"
	"                          (default 1000, 1-3600000000)\n"
	"      --offcpu-max US     off-CPU: ignore blocks longer than US (default no limit)\n"
	"      --offcpu-state LIST off-CPU: states a block may start in, comma-separated:\n"
	"                          S interruptible, D uninterruptible, R preempted, T stopped,\n"
	"                          t traced, P parked, or a kernel mask like 0x3 (default S,D)\n"
	"      --offcpu-threads user|kernel|all  off-CPU: which threads (default all)\n"
	"      --offcpu-waker      off-CPU: add the waker's stack after a '--' frame\n"
	"      --with-pid          first frame is comm-PID instead of comm\n"
	"      --with-tid          first frame is comm-PID/TID\n"
	"      --cycles            sample hardware cycles instead of cpu-clock\n"
	"      --idle              include the idle task (pid 0)\n"
	"      --raw-names         keep C++ and Rust symbol names mangled (default: demangled)\n"
	"      --inlines           add inlined functions from DWARF, as name_[i] frames\n"
	"      --debuginfod URLS   fetch missing debug files by build-id from these debuginfod\n"
	"                          servers (space-separated; default off, DEBUGINFOD_URLS is\n"
	"                          not used); cached in OUTPUT/.debuginfod\n"
	"      --debuginfod-timeout SECONDS  give up each lookup after this (default 3, 1-60)\n"
	"      --mem-sample BYTES  memory: mean bytes between sampled allocations (default 524288,\n"
	"                          1 = trace every allocation)\n"
	"      --mem-duty PERCENT  memory: allocation probes attached this share of the time\n"
	"                          (default 50, 1-100; weights are scaled back)\n"
	"      --mem-age SECONDS   memory: live allocations at least this old are leak suspects\n"
	"                          (default 60)\n"
	"      --mem-lib PATH      memory: allocator library (default: the C library)\n"
	"      --mem-prefix STR    memory: allocator symbol prefix, e.g. je_ (default none)\n"
	"  -v, --verbose           debug output (libbpf's too)\n"
	"      --help              this text\n"
	"      --version           print the version\n"
	"\nSignals: SIGUSR1 writes a snapshot now, SIGTERM/SIGINT write the current window and exit.\n";

/* Parse a decimal in [lo, hi]. Returns 0 or -EINVAL. */
static int parse_uint(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_pids(struct config *c, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;
	unsigned long v;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_uint(tok, 1, INT_MAX, &v)) {
			fprintf(stderr, "emberd: invalid pid '%s'\n", tok);
			err = -EINVAL;
			goto cleanup;
		}
		if (kill((pid_t)v, 0) && errno == ESRCH) {
			fprintf(stderr, "emberd: no process with pid %lu\n", v);
			err = -EINVAL;
			goto cleanup;
		}
		if (c->npids == CONFIG_MAX_PIDS) {
			fprintf(stderr, "emberd: too many pids (at most %d)\n", CONFIG_MAX_PIDS);
			err = -EINVAL;
			goto cleanup;
		}
		c->pids[c->npids++] = (uint32_t)v;
	}
	if (!c->npids) {
		fprintf(stderr, "emberd: empty pid list\n");
		err = -EINVAL;
	}
cleanup:
	free(copy);
	return err;
}

int config_parse_collect(const char *list, unsigned int *mask)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} names[] = { { "oncpu", COLLECT_ONCPU }, { "offcpu", COLLECT_OFFCPU },
		      { "memory", COLLECT_MEMORY } };
	const char *p = list;
	unsigned int m = 0;

	while (*p) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len && !strncmp(p, names[i].name, len))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return -EINVAL;
		m |= names[i].bit;
		p += len + (p[len] == ',');
	}
	if (!m)
		return -EINVAL;
	*mask = m;
	return 0;
}

static const struct {
	const char *letter, *name;
	uint32_t bit;
} task_states[] = {
	{ "S", "interruptible", OFFCPU_STATE_INTERRUPTIBLE },
	{ "D", "uninterruptible", OFFCPU_STATE_UNINTERRUPTIBLE },
	{ "R", "preempted", OFFCPU_STATE_PREEMPTED },
	{ "T", "stopped", OFFCPU_STATE_STOPPED },
	{ "t", "traced", OFFCPU_STATE_TRACED },
	{ "P", "parked", OFFCPU_STATE_PARKED },
};

static int parse_state(const char *tok, uint32_t *bit)
{
	unsigned long v;
	char *end;

	for (size_t i = 0; i < sizeof(task_states) / sizeof(task_states[0]); i++) {
		if (!strcmp(tok, task_states[i].letter) || !strcasecmp(tok, task_states[i].name)) {
			*bit = task_states[i].bit;
			return 0;
		}
	}
	if (strncmp(tok, "0x", 2))
		return -EINVAL;
	errno = 0;
	v = strtoul(tok, &end, 16);
	if (errno || *end || !v || v & ~(unsigned long)OFFCPU_STATE_KERNEL_BITS)
		return -EINVAL;
	*bit = v;
	return 0;
}

int config_parse_states(const char *list, uint32_t *mask)
{
	char *copy = strdup(list), *save = NULL, *tok;
	uint32_t m = 0, bit = 0;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		err = parse_state(tok, &bit);
		if (err)
			fprintf(stderr, "emberd: unknown task state '%s' for --offcpu-state "
				"(known: S D R T t P, or a mask within 0x%x)\n", tok,
				OFFCPU_STATE_KERNEL_BITS);
		m |= bit;
	}
	free(copy);
	if (!err && !m) {
		fprintf(stderr, "emberd: empty state list for --offcpu-state\n");
		err = -EINVAL;
	}
	if (!err)
		*mask = m;
	return err;
}

enum { OPT_COLLECT = 256, OPT_WITH_PID, OPT_WITH_TID, OPT_CYCLES, OPT_IDLE, OPT_HELP,
       OPT_VERSION, OPT_OFF_MIN, OPT_OFF_MAX, OPT_OFF_STATE, OPT_OFF_THREADS, OPT_OFF_WAKER,
       OPT_RAW_NAMES, OPT_INLINES, OPT_DEBUGINFOD, OPT_DEBUGINFOD_TIMEOUT,
       OPT_MEM_SAMPLE, OPT_MEM_DUTY, OPT_MEM_AGE, OPT_MEM_LIB, OPT_MEM_PREFIX };

static const struct option long_opts[] = {
	{ "freq", required_argument, NULL, 'F' },
	{ "pid", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "window", required_argument, NULL, 'w' },
	{ "collect", required_argument, NULL, OPT_COLLECT },
	{ "with-pid", no_argument, NULL, OPT_WITH_PID },
	{ "with-tid", no_argument, NULL, OPT_WITH_TID },
	{ "cycles", no_argument, NULL, OPT_CYCLES },
	{ "idle", no_argument, NULL, OPT_IDLE },
	{ "offcpu-min", required_argument, NULL, OPT_OFF_MIN },
	{ "offcpu-max", required_argument, NULL, OPT_OFF_MAX },
	{ "offcpu-state", required_argument, NULL, OPT_OFF_STATE },
	{ "offcpu-threads", required_argument, NULL, OPT_OFF_THREADS },
	{ "offcpu-waker", no_argument, NULL, OPT_OFF_WAKER },
	{ "raw-names", no_argument, NULL, OPT_RAW_NAMES },
	{ "inlines", no_argument, NULL, OPT_INLINES },
	{ "debuginfod", required_argument, NULL, OPT_DEBUGINFOD },
	{ "debuginfod-timeout", required_argument, NULL, OPT_DEBUGINFOD_TIMEOUT },
	{ "mem-sample", required_argument, NULL, OPT_MEM_SAMPLE },
	{ "mem-duty", required_argument, NULL, OPT_MEM_DUTY },
	{ "mem-age", required_argument, NULL, OPT_MEM_AGE },
	{ "mem-lib", required_argument, NULL, OPT_MEM_LIB },
	{ "mem-prefix", required_argument, NULL, OPT_MEM_PREFIX },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char *opt_name(int opt)
{
	for (const struct option *o = long_opts; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static int parse_one(struct config *c, int opt, const char *arg)
{
	unsigned long v;

	switch (opt) {
	case 'F':
		if (parse_uint(arg, 1, 10000, &v))
			goto bad;
		c->freq = v;
		return 0;
	case 'p':
		return parse_pids(c, arg);
	case 'o':
		if (!*arg || strlen(arg) >= sizeof(c->output_dir))
			goto bad;
		strcpy(c->output_dir, arg);
		return 0;
	case 'w':
		if (parse_uint(arg, 1, 3600, &v))
			goto bad;
		c->window_sec = v;
		return 0;
	case OPT_COLLECT:
		if (config_parse_collect(arg, &c->collect))
			goto bad;
		return 0;
	case OPT_WITH_PID:
		c->prefix = PREFIX_PID;
		return 0;
	case OPT_WITH_TID:
		c->prefix = PREFIX_TID;
		return 0;
	case OPT_CYCLES:
		c->hw_cycles = 1;
		return 0;
	case OPT_IDLE:
		c->include_idle = 1;
		return 0;
	case OPT_OFF_MIN:
	case OPT_OFF_MAX:
		if (parse_uint(arg, 1, CONFIG_MAX_BLOCK_US, &v)) {
			fprintf(stderr, "emberd: invalid value '%s' for --%s (1-%lu microseconds)\n",
				arg, opt_name(opt), CONFIG_MAX_BLOCK_US);
			return -EINVAL;
		}
		*(opt == OPT_OFF_MIN ? &c->offcpu_min_us : &c->offcpu_max_us) = v;
		return 0;
	case OPT_OFF_STATE:
		return config_parse_states(arg, &c->offcpu_states);
	case OPT_OFF_THREADS:
		if (strcmp(arg, "all") && strcmp(arg, "user") && strcmp(arg, "kernel"))
			goto bad;
		c->offcpu_threads = !strcmp(arg, "user")     ? OFFCPU_THREADS_USER :
				    !strcmp(arg, "kernel") ? OFFCPU_THREADS_KERNEL : 0;
		return 0;
	case OPT_RAW_NAMES:
		c->raw_names = 1;
		return 0;
	case OPT_INLINES:
		c->inlines = 1;
		return 0;
	case OPT_DEBUGINFOD:
		if (!*arg || strlen(arg) >= sizeof(c->debuginfod_urls))
			goto bad;
		strcpy(c->debuginfod_urls, arg);
		return 0;
	case OPT_DEBUGINFOD_TIMEOUT:
		if (parse_uint(arg, 1, 60, &v))
			goto bad;
		c->debuginfod_timeout_sec = v;
		return 0;
	case OPT_OFF_WAKER:
		c->offcpu_waker = 1;
		return 0;
	case 'v':
		c->verbose++;
		return 0;
	case OPT_MEM_SAMPLE:
		if (parse_uint(arg, 1, 1ul << 40, &v))
			goto bad;
		c->mem_sample = v;
		return 0;
	case OPT_MEM_DUTY:
		if (parse_uint(arg, 1, 100, &v))
			goto bad;
		c->mem_duty = v;
		return 0;
	case OPT_MEM_AGE:
		if (parse_uint(arg, 0, 86400, &v))
			goto bad;
		c->mem_age = v;
		return 0;
	case OPT_MEM_LIB:
		if (!*arg || strlen(arg) >= sizeof(c->mem_lib))
			goto bad;
		if (access(arg, R_OK)) {
			fprintf(stderr, "emberd: cannot read '%s' for --mem-lib: %s\n", arg,
				strerror(errno));
			return -EINVAL;
		}
		strcpy(c->mem_lib, arg);
		return 0;
	case OPT_MEM_PREFIX:
		if (strlen(arg) >= sizeof(c->mem_prefix))
			goto bad;
		strcpy(c->mem_prefix, arg);
		return 0;
	}
	return -EINVAL; /* getopt already said what is wrong */
bad:
	fprintf(stderr, "emberd: invalid value '%s' for --%s\n", arg, opt_name(opt));
	return -EINVAL;
}

int config_parse_args(struct config *c, int argc, char **argv)
{
	int opt, idx = -1, err;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "F:p:o:w:v", long_opts, &idx)) != -1) {
		if (opt == OPT_HELP) {
			fputs(usage_text, stdout);
			return 1;
		}
		if (opt == OPT_VERSION) {
			printf("emberd %s\n", EMBER_VERSION);
			return 1;
		}
		err = parse_one(c, opt, optarg);
		if (err)
			return err;
	}
	if (optind < argc) {
		fprintf(stderr, "emberd: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (c->offcpu_max_us && c->offcpu_max_us < c->offcpu_min_us) {
		fprintf(stderr, "emberd: --offcpu-max (%llu us) is below --offcpu-min (%llu us)\n",
			(unsigned long long)c->offcpu_max_us, (unsigned long long)c->offcpu_min_us);
		return -EINVAL;
	}
	return 0;
}
