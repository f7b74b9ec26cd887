/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* oncpu.h - on-CPU sampling: the count-map key and the stats slots */
#ifndef EMBER_ONCPU_H
#define EMBER_ONCPU_H

/* Default map sizes per buffer; the loader sizes them for the frequency and CPUs. */
#define ONCPU_MAX_COUNTS 4096
#define ONCPU_MAX_STACKS 16384

struct oncpu_key {
	__u32 pid; /* thread group id */
	__u32 tid;
	__u32 kstack_id; /* STACK_ID_NONE when absent */
	__u32 ustack_id;
	char comm[TASK_COMM_LEN];
};

enum oncpu_stat {
	ONCPU_STAT_SAMPLES,    /* samples seen (after filters) */
	ONCPU_STAT_KSTACK_ERR, /* kernel stack not captured */
	ONCPU_STAT_USTACK_ERR, /* user stack not captured (user threads only) */
	ONCPU_STAT_COUNT_FULL, /* sample lost: count map full */
	/* With DWARF unwinding, user stacks walked, and by outcome (bpf/unwind_maps.h UNW_F_*): */
	ONCPU_STAT_UNW_WALKS,
	ONCPU_STAT_UNW_COMPLETE, /* reached the end of the stack */
	ONCPU_STAT_UNW_CUT,      /* cut at MAX_STACK_DEPTH */
	ONCPU_STAT_UNW_FP,       /* some frame-pointer steps (addresses without a table) */
	ONCPU_STAT_UNW_NO_PROC,  /* the process's tables were not loaded yet */
	ONCPU_STAT_MAX,
};

#endif
