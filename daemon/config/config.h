/* SPDX-License-Identifier: BSD-2-Clause */
/* config.h - emberd's settings: one table of options behind the command line, the file and the docs */
#ifndef EMBER_CONFIG_H
#define EMBER_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum collector_mask {
	COLLECT_ONCPU = 1u << 0,
	COLLECT_OFFCPU = 1u << 1,
	COLLECT_MEMORY = 1u << 2,
};
#define COLLECT_ALL (COLLECT_ONCPU | COLLECT_OFFCPU | COLLECT_MEMORY)
#define CONFIG_RESTART_DAEMON (1u << 31) /* a reload cannot apply it: emberd must restart */

enum stack_prefix {
	PREFIX_COMM, /* comm */
	PREFIX_PID,  /* comm-PID */
	PREFIX_TID,  /* comm-PID/TID */
};

#define CONFIG_MAX_PIDS 1024
#define CONFIG_MAX_BLOCK_US 3600000000ul /* an hour */
#define CONFIG_ERR_LEN 512
#define DRAIN_MAX_SEC 10 /* collectors are drained at least this often */

struct config {
	unsigned int freq;       /* on-CPU sampling frequency, Hz */
	unsigned int window_sec; /* window length, aligned to the wall clock */
	char output_dir[4096];
	uint32_t pids[CONFIG_MAX_PIDS];
	size_t npids;               /* 0: the whole host */
	unsigned int collect;       /* enum collector_mask */
	int prefix;                 /* enum stack_prefix */
	int hw_cycles;              /* hardware cycles instead of cpu-clock */
	int include_idle;           /* sample the idle task too */
	uint64_t offcpu_min_us;     /* off-CPU: shortest block counted */
	uint64_t offcpu_max_us;     /* off-CPU: longest block counted, 0: no limit */
	uint32_t offcpu_states;     /* off-CPU: OFFCPU_STATE_* a block may start in */
	int offcpu_threads;         /* off-CPU: 0 all, OFFCPU_THREADS_USER or _KERNEL */
	int offcpu_waker;           /* off-CPU: add the waker's stacks after a "--" frame */
	int raw_names;              /* keep C++/Rust names mangled */
	int inlines;                /* inlined frames from DWARF */
	char debuginfod_urls[1024]; /* "": debuginfod off */
	unsigned int debuginfod_timeout_sec;
	int verbose;
	/* memory collector */
	uint64_t mem_sample;   /* mean bytes between samples; 1: every allocation */
	unsigned int mem_duty; /* percent of the time allocation probes are attached */
	unsigned int mem_age;  /* live allocations younger than this (s) are not suspects */
	char mem_lib[4096];    /* allocator library; "": the C library */
	char mem_prefix[64];   /* its symbol prefix ("je_") */
	/* archive, control and self-metrics */
	int no_pprof;             /* no .pb.gz beside each folded.gz */
	int no_svg;               /* no flame graph (.svg) beside each folded.gz */
	unsigned int retain_days; /* delete archives older than this; 0: never */
	uint64_t retain_bytes;    /* keep the archive below this size; 0: no limit */
	char run_dir[256];        /* control socket and pid file */
	char metrics[256];        /* Prometheus endpoint: "" off, HOST:PORT (loopback), unix:PATH */
	/* user stacks */
	int unwind_mode;            /* enum unwind_mode (daemon/collect/unwind.h) */
	unsigned int unwind_max_mb; /* kernel memory for unwind tables */
};

enum config_type {
	CONF_UINT,   /* unsigned int in [min, max] */
	CONF_U64,    /* uint64_t in [min, max] */
	CONF_BOOL,   /* int: true/false, yes/no, on/off, 1/0; a flag without argument sets it */
	CONF_STRING, /* char[size], not empty */
	CONF_ENUM,   /* int: index of one of names */
	CONF_SET,    /* unsigned int: bit i set for names[i], comma-separated */
	CONF_CUSTOM, /* parse and format below */
};

struct config;

/*
 * One row per option: the command line, the file, --help, --print-config and
 * the reload all read this table, so an option exists in all of them or none.
 */
struct config_option {
	const char *flag;          /* long flag, without "--" */
	int short_flag;            /* 0: none */
	const char *section, *key; /* place in the file; NULL: command line only */
	enum config_type type;
	unsigned long min, max;   /* CONF_UINT, CONF_U64 */
	const char *const *names; /* CONF_ENUM, CONF_SET: NULL-terminated */
	const char *def;          /* default, written as in the file */
	const char *fixed;        /* the flag takes no argument and sets this value */
	const char *arg;          /* argument name in --help */
	const char *doc;
	size_t offset, size;  /* the field in struct config */
	unsigned int restart; /* collectors restarted when it changes on reload */
	/* CONF_CUSTOM: returns 0 or -EINVAL with a message in err */
	int (*parse)(struct config *c, const char *val, char *err, size_t errlen);
	void (*format)(const struct config *c, char *buf, size_t len);
	const char *range; /* CONF_CUSTOM: what is accepted, for the docs */
};

struct config_section {
	const char *name, *doc;
};

extern const struct config_option config_options[];
extern const struct config_section config_sections[]; /* ends with { NULL } */
extern const size_t config_noptions;

/* What the command line asks besides options. */
struct config_cli {
	const char *file; /* -c FILE or --check-config FILE */
	int check;        /* --check-config: validate and exit */
	int print;        /* --print-config: write the effective file and exit */
	int help, version;
};

/* Every option at its default. */
void config_init(struct config *c);

/*
 * First pass over the command line: syntax, -c, --help... Options are not
 * applied yet. Returns 0 or -EINVAL with a message in err.
 */
int config_scan_args(int argc, char **argv, struct config_cli *cli, char *err, size_t errlen);

/*
 * Defaults, then the file (if any), then the command line, which wins.
 * Used at start and on SIGHUP. Returns 0 or -errno with a message in err;
 * c is written only on success.
 */
int config_load(struct config *c, const struct config_cli *cli, int argc, char **argv, char *err,
		size_t errlen);
/* Parse a size "512M", "1G", "4096" (K, M, G, T: powers of 1024). Returns 0 or -EINVAL. */
int config_parse_size(const char *s, uint64_t *out);

/* Parse a file over c. Returns 0 or -errno with "FILE:LINE: what" in err. */
int config_load_file(struct config *c, const char *path, char *err, size_t errlen);

/* Set one option from its text. Returns 0 or -EINVAL with a message about `what` in err. */
int config_set(struct config *c, const struct config_option *o, const char *val, const char *what,
	       char *err, size_t errlen);

/* Rules across options, checked once all are read. Returns 0 or -EINVAL with a message in err. */
int config_check(const struct config *c, char *err, size_t errlen);

/* The option's value as the file writes it. */
void config_format(const struct config *c, const struct config_option *o, char *buf, size_t len);

/* Collectors whose settings differ between a and b (enum collector_mask). */
unsigned int config_restart_mask(const struct config *a, const struct config *b);

void config_usage(FILE *f);

/* The effective configuration as a documented file: defaults commented out. */
void config_print(FILE *f, const struct config *c);

#endif
