/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* offcpu.h - off-CPU time: the count-map key, the task-state bits and the stats slots */
#ifndef EMBER_OFFCPU_H
#define EMBER_OFFCPU_H

/* Default map sizes per buffer; the loader may resize them. */
#define OFFCPU_MAX_COUNTS 16384
#define OFFCPU_MAX_STACKS 16384

/* Task states a block may start in: the kernel's bits, and preemption (state running). */
#define OFFCPU_STATE_INTERRUPTIBLE 0x0001u   /* S */
#define OFFCPU_STATE_UNINTERRUPTIBLE 0x0002u /* D */
#define OFFCPU_STATE_STOPPED 0x0004u         /* T */
#define OFFCPU_STATE_TRACED 0x0008u          /* t */
#define OFFCPU_STATE_PARKED 0x0040u          /* P */
#define OFFCPU_STATE_KERNEL_BITS 0x004fu
#define OFFCPU_STATE_PREEMPTED 0x80000000u /* R: switched out while runnable */

/* Which threads to follow. */
#define OFFCPU_THREADS_USER 1
#define OFFCPU_THREADS_KERNEL 2

struct offcpu_key {
	__u32 pid; /* thread group id */
	__u32 tid;
	__u32 kstack_id;       /* in kstacksN, STACK_ID_NONE / STACK_ID_LOST when absent */
	__u32 ustack_id;       /* in stacksN, or in ustacksN when unwound with tables */
	__u32 waker_kstack_id; /* in stacksN; STACK_ID_NONE without --offcpu-waker */
	__u32 waker_ustack_id; /* as ustack_id */
	__u32 waker_pid;
	__u32 pad;
	char comm[TASK_COMM_LEN];
	char waker_comm[TASK_COMM_LEN];
};

/* A sleeper's kernel stack, read at switch-in from its saved context (not the current one). */
struct offcpu_kstack {
	__u64 ips[MAX_STACK_DEPTH];
};

enum offcpu_stat {
	OFFCPU_STAT_BLOCKS,     /* blocks counted (after every filter) */
	OFFCPU_STAT_NO_STORAGE, /* block lost: no thread-local storage for its start time */
	OFFCPU_STAT_COUNT_FULL, /* block lost: count map full */
	OFFCPU_STAT_KSTACK_ERR, /* kernel stack not captured */
	OFFCPU_STAT_USTACK_ERR, /* user stack not captured */
	OFFCPU_STAT_WAKER_ERR,  /* waker stacks not captured */
	/* With DWARF unwinding, sleepers' user stacks walked, and by outcome (UNW_F_* order): */
	OFFCPU_STAT_UNW_WALKS,
	OFFCPU_STAT_UNW_COMPLETE, /* reached the end of the stack (UNW_F_COMPLETE) */
	OFFCPU_STAT_UNW_CUT,      /* cut at MAX_STACK_DEPTH (UNW_F_CUT) */
	OFFCPU_STAT_UNW_FP,       /* frame-pointer steps at addresses without a table (UNW_F_FP) */
	OFFCPU_STAT_UNW_NO_PROC,  /* the process's tables were not loaded yet (UNW_F_NO_PROC) */
	OFFCPU_STAT_MAX,
};

#endif
