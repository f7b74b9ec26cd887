/* SPDX-License-Identifier: BSD-2-Clause */
/* config.h - emberd's settings: defaults and command line */
#ifndef EMBER_CONFIG_H
#define EMBER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

enum collector_mask {
	COLLECT_ONCPU = 1u << 0,
	COLLECT_OFFCPU = 1u << 1,
	COLLECT_MEMORY = 1u << 2,
};

enum stack_prefix {
	PREFIX_COMM,	 /* comm */
	PREFIX_PID,	 /* comm-PID */
	PREFIX_TID,	 /* comm-PID/TID */
};

#define CONFIG_MAX_PIDS 1024
#define CONFIG_MAX_BLOCK_US 3600000000ul /* an hour */
#define DRAIN_MAX_SEC 10 /* collectors are drained at least this often */

struct config {
	unsigned int freq;	 /* on-CPU sampling frequency, Hz */
	unsigned int window_sec; /* window length, aligned to the wall clock */
	char output_dir[4096];
	uint32_t pids[CONFIG_MAX_PIDS];
	size_t npids;		 /* 0: the whole host */
	unsigned int collect;	 /* enum collector_mask */
	enum stack_prefix prefix;
	int hw_cycles;		 /* hardware cycles instead of cpu-clock */
	int include_idle;	 /* sample the idle task too */
	uint64_t offcpu_min_us;	 /* off-CPU: shortest block counted */
	uint64_t offcpu_max_us;	 /* off-CPU: longest block counted, 0: no limit */
	uint32_t offcpu_states;	 /* off-CPU: OFFCPU_STATE_* a block may start in */
	int offcpu_threads;	 /* off-CPU: 0 all, OFFCPU_THREADS_USER or _KERNEL */
	int offcpu_waker;	 /* off-CPU: add the waker's stacks after a "--" frame */
	int raw_names;		 /* keep C++/Rust names mangled */
	int inlines;		 /* inlined frames from DWARF */
	char debuginfod_urls[1024]; /* "": debuginfod off */
	unsigned int debuginfod_timeout_sec;
	int verbose;
	/* memory collector */
	uint64_t mem_sample;	 /* mean bytes between samples; 1: every allocation */
	unsigned int mem_duty;	 /* percent of the time allocation probes are attached */
	unsigned int mem_age;	 /* live allocations younger than this (s) are not suspects */
	char mem_lib[4096];	 /* allocator library; "": the C library */
	char mem_prefix[64];	 /* its symbol prefix ("je_") */
};

void config_init(struct config *c);

/*
 * Parse the command line into c. Returns 0 to run, 1 when it printed help or
 * the version (exit 0), or -EINVAL after printing one error line.
 */
int config_parse_args(struct config *c, int argc, char **argv);

/* Parse "oncpu,offcpu" into a collector mask. Returns 0 or -EINVAL. */
int config_parse_collect(const char *list, unsigned int *mask);

/* Parse task states "S,D,R" (or names, or a kernel state mask "0x3"). Returns 0 or -EINVAL. */
int config_parse_states(const char *list, uint32_t *mask);

#endif
