/* SPDX-License-Identifier: BSD-2-Clause */
/* config.c - the table of emberd's options: defaults, parsing and printing of values */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/common.h"
#include "bpf/offcpu.h"
#include "daemon/config/config.h"

/* names[i] is bit i of enum collector_mask. */
static const char *const collector_names[] = { "oncpu", "offcpu", "memory", NULL };
static const char *const prefix_names[] = { "comm", "pid", "tid", NULL };
/* Index i is the value of OFFCPU_THREADS_* (0: all). */
static const char *const thread_names[] = { "all", "user", "kernel", NULL };
/* Index i is enum unwind_mode. */
static const char *const unwind_names[] = { "auto", "fp", "dwarf", NULL };

static int parse_pids(struct config *c, const char *list, char *err, size_t errlen);
static void format_pids(const struct config *c, char *buf, size_t len);
static int parse_mem_lib(struct config *c, const char *val, char *err, size_t errlen);
static void format_mem_lib(const struct config *c, char *buf, size_t len);
static int parse_states(struct config *c, const char *list, char *err, size_t errlen);
static int parse_retain_size(struct config *c, const char *val, char *err, size_t errlen);
static void format_retain_size(const struct config *c, char *buf, size_t len);
static void format_states(const struct config *c, char *buf, size_t len);

#define FIELD(f) .offset = offsetof(struct config, f), .size = sizeof(((struct config *)0)->f)

/* One row per option reads better than one line per field. */
/* clang-format off */
const struct config_option config_options[] = {
	{ .flag = "collect", .section = "daemon", .key = "collectors", .type = CONF_SET,
	  .names = collector_names, .def = "oncpu,offcpu", .arg = "LIST",
	  .doc = "collectors to run, comma-separated", FIELD(collect) },
	{ .flag = "window", .short_flag = 'w', .section = "daemon", .key = "window",
	  .type = CONF_UINT, .min = 1, .max = 3600, .def = "60", .arg = "SECONDS",
	  .doc = "window length in seconds, aligned to the wall clock", FIELD(window_sec) },
	{ .flag = "pid", .short_flag = 'p', .section = "daemon", .key = "pids", .type = CONF_CUSTOM,
	  .parse = parse_pids, .format = format_pids, .range = "pids of running processes",
	  .def = "", .arg = "PID[,PID...]",
	  .doc = "profile only these processes (empty: the whole host)", .restart = COLLECT_ALL },
	{ .flag = "verbose", .short_flag = 'v', .section = "daemon", .key = "verbose",
	  .type = CONF_BOOL, .def = "false", .doc = "debug output, libbpf's included",
	  FIELD(verbose) },
	{ .flag = "output", .short_flag = 'o', .section = "output", .key = "directory",
	  .type = CONF_STRING, .min = 1, .def = "profiles", .arg = "DIR",
	  .doc = "where the archives are written", FIELD(output_dir) },
	{ .flag = "retain-days", .section = "output", .key = "retain-days", .type = CONF_UINT,
	  .min = 0, .max = 36500, .def = "7", .arg = "DAYS",
	  .doc = "delete archived windows older than this many days (0: never)", FIELD(retain_days) },
	{ .flag = "retain-size", .section = "output", .key = "retain-size", .type = CONF_CUSTOM,
	  .parse = parse_retain_size, .format = format_retain_size, .def = "1G", .arg = "SIZE",
	  .range = "bytes, or a number with K, M, G or T (powers of 1024)",
	  .doc = "delete the oldest windows while the archive is larger than this (0: no limit)" },
	{ .flag = "no-pprof", .section = "output", .key = "no-pprof", .type = CONF_BOOL,
	  .def = "false", .doc = "write no pprof profile (.pb.gz) beside each folded.gz",
	  FIELD(no_pprof) },
	{ .flag = "no-svg", .section = "output", .key = "no-svg", .type = CONF_BOOL,
	  .def = "false", .doc = "write no flame graph (.svg) beside each folded.gz", FIELD(no_svg) },
	{ .flag = "run-dir", .section = "daemon", .key = "run-dir", .type = CONF_STRING, .min = 1,
	  .def = "/run/ember", .arg = "DIR", .doc = "where the control socket and pid file live",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(run_dir) },
	{ .flag = "metrics", .section = "daemon", .key = "metrics", .type = CONF_STRING,
	  .def = "", .arg = "ADDR",
	  .doc = "serve Prometheus metrics on 127.0.0.1:PORT, [::1]:PORT or unix:PATH (empty: off)",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(metrics) },
	{ .flag = "stack-prefix", .section = "output", .key = "stack-prefix", .type = CONF_ENUM,
	  .names = prefix_names, .def = "comm", .arg = "comm|pid|tid",
	  .doc = "first frame of each stack: comm, comm-PID or comm-PID/TID", FIELD(prefix) },
	{ .flag = "with-pid", .type = CONF_ENUM, .names = prefix_names, .fixed = "pid",
	  .doc = "same as --stack-prefix pid", FIELD(prefix) },
	{ .flag = "with-tid", .type = CONF_ENUM, .names = prefix_names, .fixed = "tid",
	  .doc = "same as --stack-prefix tid", FIELD(prefix) },
	{ .flag = "freq", .short_flag = 'F', .section = "oncpu", .key = "frequency",
	  .type = CONF_UINT, .min = 1, .max = 10000, .def = "49", .arg = "HZ",
	  .doc = "on-CPU sampling frequency per CPU, in Hz", .restart = COLLECT_ONCPU,
	  FIELD(freq) },
	{ .flag = "cycles", .section = "oncpu", .key = "cycles", .type = CONF_BOOL,
	  .def = "false",
	  .doc = "sample hardware cycles instead of cpu-clock (falls back where there is no PMU)",
	  .restart = COLLECT_ONCPU, FIELD(hw_cycles) },
	{ .flag = "idle", .section = "oncpu", .key = "idle", .type = CONF_BOOL, .def = "false",
	  .doc = "include the idle task (pid 0)", .restart = COLLECT_ONCPU, FIELD(include_idle) },
	{ .flag = "raw-names", .section = "symbols", .key = "raw-names", .type = CONF_BOOL,
	  .def = "false", .doc = "keep C++ and Rust symbol names mangled",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(raw_names) },
	{ .flag = "inlines", .section = "symbols", .key = "inlines", .type = CONF_BOOL,
	  .def = "false",
	  .doc = "add the functions inlined at each address (DWARF) as name_[i] frames",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(inlines) },
	{ .flag = "debuginfod", .section = "symbols", .key = "debuginfod", .type = CONF_STRING,
	  .def = "", .arg = "URLS",
	  .doc = "debuginfod servers (space-separated URLs) asked for missing debug files (empty: off)",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(debuginfod_urls) },
	{ .flag = "debuginfod-timeout", .section = "symbols", .key = "debuginfod-timeout",
	  .type = CONF_UINT, .min = 1, .max = 60, .def = "3", .arg = "SECONDS",
	  .doc = "give up each debuginfod lookup after this many seconds",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(debuginfod_timeout_sec) },
	{ .flag = "offcpu-min", .section = "offcpu", .key = "min-block", .type = CONF_U64,
	  .min = 1, .max = CONFIG_MAX_BLOCK_US, .def = "1000", .arg = "US",
	  .doc = "count only blocks of at least this many microseconds", .restart = COLLECT_OFFCPU,
	  FIELD(offcpu_min_us) },
	{ .flag = "offcpu-max", .section = "offcpu", .key = "max-block", .type = CONF_U64,
	  .min = 0, .max = CONFIG_MAX_BLOCK_US, .def = "0", .arg = "US",
	  .doc = "ignore blocks longer than this many microseconds (0: no limit; at least min-block)",
	  .restart = COLLECT_OFFCPU, FIELD(offcpu_max_us) },
	{ .flag = "offcpu-state", .section = "offcpu", .key = "states", .type = CONF_CUSTOM,
	  .parse = parse_states, .format = format_states, .def = "S,D", .arg = "LIST",
	  .range = "S interruptible, D uninterruptible, R preempted, T stopped, t traced, "
		   "P parked (or their names), or a kernel state mask like 0x3",
	  .doc = "task states a block may start in, comma-separated", .restart = COLLECT_OFFCPU },
	{ .flag = "offcpu-threads", .section = "offcpu", .key = "threads", .type = CONF_ENUM,
	  .names = thread_names, .def = "all", .arg = "user|kernel|all",
	  .doc = "which threads: user threads only, kernel threads only, or all",
	  .restart = COLLECT_OFFCPU, FIELD(offcpu_threads) },
	{ .flag = "offcpu-waker", .section = "offcpu", .key = "waker", .type = CONF_BOOL,
	  .def = "false", .doc = "add the waker's stack after a '--' frame (FlameGraph chain graphs)",
	  .restart = COLLECT_OFFCPU, FIELD(offcpu_waker) },
	{ .flag = "mem-sample", .section = "memory", .key = "sample-bytes", .type = CONF_U64,
	  .min = 1, .max = 1ul << 40, .def = "524288", .arg = "BYTES",
	  .doc = "mean bytes between sampled allocations (1: trace every allocation)",
	  .restart = COLLECT_MEMORY, FIELD(mem_sample) },
	{ .flag = "mem-duty", .section = "memory", .key = "duty", .type = CONF_UINT, .min = 1,
	  .max = 100, .def = "50", .arg = "PERCENT",
	  .doc = "share of the time the allocation probes are attached (weights are scaled back)",
	  .restart = COLLECT_MEMORY, FIELD(mem_duty) },
	{ .flag = "mem-age", .section = "memory", .key = "leak-age", .type = CONF_UINT, .min = 0,
	  .max = 86400, .def = "60", .arg = "SECONDS",
	  .doc = "live allocations at least this old are leak suspects", .restart = COLLECT_MEMORY,
	  FIELD(mem_age) },
	{ .flag = "mem-lib", .section = "memory", .key = "library", .type = CONF_CUSTOM,
	  .parse = parse_mem_lib, .format = format_mem_lib, .range = "a readable file",
	  .def = "", .arg = "PATH", .doc = "allocator library (empty: the C library)",
	  .restart = COLLECT_MEMORY },
	{ .flag = "mem-prefix", .section = "memory", .key = "symbol-prefix", .type = CONF_STRING,
	  .def = "", .arg = "STR", .doc = "allocator symbol prefix, e.g. je_ (empty: none)",
	  .restart = COLLECT_MEMORY, FIELD(mem_prefix) },
	{ .flag = "unwind", .section = "unwind", .key = "mode", .type = CONF_ENUM,
	  .names = unwind_names, .def = "auto", .arg = "fp|dwarf|auto",
	  .doc = "user stacks from frame pointers, or from unwind tables built from each binary's "
		 "CFI (.eh_frame) with frame pointers where a binary has none; auto: tables where "
		 "the kernel takes the walker",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(unwind_mode) },
	{ .flag = "unwind-max-mb", .section = "unwind", .key = "max-mb", .type = CONF_UINT,
	  .min = 1, .max = 4096, .def = "32", .arg = "MB",
	  .doc = "kernel memory for unwind tables; the least recently used binaries are evicted "
		 "(frame pointers for them) when it is full",
	  .restart = CONFIG_RESTART_DAEMON, FIELD(unwind_max_mb) },
};
/* clang-format on */
const struct config_section config_sections[] = {
	{ "daemon", "What emberd runs and how often it writes." },
	{ "output", "Where and how the profiles are written." },
	{ "symbols", "How addresses are named (changes take effect when emberd restarts)." },
	{ "oncpu",
	  "The on-CPU collector: perf_event sampling of every CPU, stacks counted in the kernel." },
	{ "memory",
	  "The memory collector: sampled allocations (alloc) and live bytes (live) from uprobes." },
	{ "offcpu", "The off-CPU collector: time blocked, in microseconds, from sched_switch." },
	{ "unwind", "How user stacks are walked (changes take effect when emberd restarts)." },
	{ NULL, NULL },
};

const size_t config_noptions = sizeof(config_options) / sizeof(config_options[0]);

void config_init(struct config *c)
{
	char err[CONFIG_ERR_LEN];

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < config_noptions; i++)
		if (config_options[i].def)
			config_set(c, &config_options[i], config_options[i].def, "default", err,
				   sizeof(err));
}

/* Parse a decimal in [lo, hi]. Returns 0 or -EINVAL. */
static int parse_ulong(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
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

static int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i]) || !strcasecmp(s, no[i])) {
			*out = !strcasecmp(s, yes[i]);
			return 0;
		}
	}
	return -EINVAL;
}

static int name_index(const char *const *names, const char *s, size_t len)
{
	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == len && !strncmp(s, names[i], len))
			return i;
	return -1;
}

static int parse_set(const char *const *names, const char *s, unsigned int *out)
{
	unsigned int m = 0;

	while (*s) {
		size_t len = strcspn(s, ",");
		int i = name_index(names, s, len);

		if (i < 0)
			return -EINVAL;
		m |= 1u << i;
		s += len + (s[len] == ',');
	}
	if (!m)
		return -EINVAL;
	*out = m;
	return 0;
}

/* A pid that does not exist is an error now rather than an empty profile later. */
static int parse_pids(struct config *c, const char *list, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	unsigned long v;
	size_t n = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_ulong(tok, 1, INT_MAX, &v)) {
			snprintf(err, errlen, "invalid pid '%s'", tok);
			ret = -EINVAL;
			goto cleanup;
		}
		if (kill((pid_t)v, 0) && errno == ESRCH) {
			snprintf(err, errlen, "no process with pid %lu", v);
			ret = -EINVAL;
			goto cleanup;
		}
		if (n == CONFIG_MAX_PIDS) {
			snprintf(err, errlen, "too many pids (at most %d)", CONFIG_MAX_PIDS);
			ret = -EINVAL;
			goto cleanup;
		}
		c->pids[n++] = (uint32_t)v;
	}
	if (!n && strspn(list, " ") != strlen(list)) {
		snprintf(err, errlen, "empty pid list '%s'", list);
		ret = -EINVAL;
		goto cleanup;
	}
	c->npids = n;
cleanup:
	free(copy);
	return ret;
}

/*
 * Store val in the field o describes, checked against o's bounds (a string: at least min bytes and
 * shorter than the field); the field is untouched on error. Custom options are parsed by
 * config_set() and fail here. Returns 0 or -EINVAL.
 */
static int set_value(struct config *c, const struct config_option *o, const char *val)
{
	void *field = (char *)c + o->offset;
	unsigned long v;
	int i;

	switch (o->type) {
	case CONF_UINT:
		if (parse_ulong(val, o->min, o->max, &v))
			return -EINVAL;
		*(unsigned int *)field = v;
		return 0;
	case CONF_U64:
		if (parse_ulong(val, o->min, o->max, &v))
			return -EINVAL;
		*(uint64_t *)field = v;
		return 0;
	case CONF_BOOL:
		return parse_bool(val, field);
	case CONF_STRING:
		if (strlen(val) < o->min || strlen(val) >= o->size)
			return -EINVAL;
		strcpy(field, val);
		return 0;
	case CONF_ENUM:
		i = name_index(o->names, val, strlen(val));
		if (i < 0)
			return -EINVAL;
		*(int *)field = i;
		return 0;
	case CONF_SET:
		return parse_set(o->names, val, field);
	case CONF_CUSTOM:
		break;
	}
	return -EINVAL;
}

static void format_pids(const struct config *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->npids && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%u", i ? "," : "", c->pids[i]);
}

static int parse_mem_lib(struct config *c, const char *val, char *err, size_t errlen)
{
	if (strlen(val) >= sizeof(c->mem_lib)) {
		snprintf(err, errlen, "allocator library path too long");
		return -EINVAL;
	}
	if (*val && access(val, R_OK)) {
		snprintf(err, errlen, "cannot read '%s' for --mem-lib ([memory] library): %s", val,
			 strerror(errno));
		return -EINVAL;
	}
	strcpy(c->mem_lib, val);
	return 0;
}

int config_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	const char *u;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end) {
		u = strchr(units, *end);
		if (!u || (end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB")))
			return -EINVAL;
		for (long i = 0; i <= u - units; i++) {
			if (v > UINT64_MAX / 1024)
				return -EINVAL;
			v *= 1024;
		}
	}
	*out = v;
	return 0;
}

static int parse_retain_size(struct config *c, const char *val, char *err, size_t errlen)
{
	if (!config_parse_size(val, &c->retain_bytes))
		return 0;
	snprintf(err, errlen, "invalid size '%s' (bytes, or a number with K, M, G or T)", val);
	return -EINVAL;
}

static void format_retain_size(const struct config *c, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	uint64_t v = c->retain_bytes;
	int u = -1;

	while (v && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

static void format_mem_lib(const struct config *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s", c->mem_lib);
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
#define NSTATES (sizeof(task_states) / sizeof(task_states[0]))

static int parse_state(const char *tok, uint32_t *bit)
{
	unsigned long v;
	char *end;

	for (size_t i = 0; i < NSTATES; i++) {
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

/*
 * A comma-separated list of task states (letters, names, or hex masks of kernel state bits) OR-ed
 * into c->offcpu_states; an empty list is an error, and on error the states are left as they were.
 * Returns 0, -ENOMEM, or -EINVAL with the reason in err.
 */
static int parse_states(struct config *c, const char *list, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	uint32_t m = 0, bit = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		ret = parse_state(tok, &bit);
		if (ret)
			snprintf(err, errlen,
				 "unknown task state '%s' (known: S D R T t P, or a mask "
				 "within 0x%x)",
				 tok, OFFCPU_STATE_KERNEL_BITS);
		m |= bit;
	}
	free(copy);
	if (!ret && !m) {
		snprintf(err, errlen, "empty task state list '%s'", list);
		ret = -EINVAL;
	}
	if (!ret)
		c->offcpu_states = m;
	return ret;
}

static void format_states(const struct config *c, char *buf, size_t len)
{
	uint32_t rest = c->offcpu_states;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NSTATES && used < len; i++) {
		if (rest & task_states[i].bit) {
			used += snprintf(buf + used, len - used, "%s%s", used ? "," : "",
					 task_states[i].letter);
			rest &= ~task_states[i].bit;
		}
	}
	if (rest && used < len)
		snprintf(buf + used, len - used, "%s0x%x", used ? "," : "", rest);
}

static void describe_range(const struct config_option *o, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (o->type == CONF_UINT || o->type == CONF_U64)
		snprintf(buf, len, "%lu-%lu", o->min, o->max);
	else if (o->type == CONF_BOOL)
		snprintf(buf, len, "true or false");
	else if (o->names)
		for (int i = 0; o->names[i] && used < len; i++)
			used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 o->names[i]);
}

int config_set(struct config *c, const struct config_option *o, const char *val, const char *what,
	       char *err, size_t errlen)
{
	char range[128];

	if (o->type == CONF_CUSTOM)
		return o->parse(c, val, err, errlen);
	if (!set_value(c, o, val))
		return 0;
	describe_range(o, range, sizeof(range));
	snprintf(err, errlen, "invalid value '%s' for %s%s%s%s", val, what, *range ? " (" : "",
		 range, *range ? ")" : "");
	return -EINVAL;
}

void config_format(const struct config *c, const struct config_option *o, char *buf, size_t len)
{
	const void *field = (const char *)c + o->offset;
	size_t used = 0;

	buf[0] = '\0';
	switch (o->type) {
	case CONF_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)field);
		break;
	case CONF_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case CONF_BOOL:
		snprintf(buf, len, "%s", *(const int *)field ? "true" : "false");
		break;
	case CONF_STRING:
		snprintf(buf, len, "%s", (const char *)field);
		break;
	case CONF_ENUM:
		snprintf(buf, len, "%s", o->names[*(const int *)field]);
		break;
	case CONF_SET:
		for (int i = 0; o->names[i] && used < len; i++)
			if (*(const unsigned int *)field & (1u << i))
				used += snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 o->names[i]);
		break;
	case CONF_CUSTOM:
		o->format(c, buf, len);
		break;
	}
}

unsigned int config_restart_mask(const struct config *a, const struct config *b)
{
	static char va[16384], vb[16384];
	unsigned int mask = 0;

	for (size_t i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		if (!o->restart || !o->key)
			continue;
		config_format(a, o, va, sizeof(va));
		config_format(b, o, vb, sizeof(vb));
		if (strcmp(va, vb))
			mask |= o->restart;
	}
	return mask;
}

int config_check(const struct config *c, char *err, size_t errlen)
{
	if (c->offcpu_max_us && c->offcpu_max_us < c->offcpu_min_us) {
		snprintf(err, errlen,
			 "--offcpu-max (%llu us) is below --offcpu-min (%llu us) "
			 "([offcpu] max-block and min-block in the file)",
			 (unsigned long long)c->offcpu_max_us,
			 (unsigned long long)c->offcpu_min_us);
		return -EINVAL;
	}
	return 0;
}
