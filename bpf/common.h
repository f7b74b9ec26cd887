/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* common.h - constants and structs shared by every collector and its loader */
#ifndef EMBER_COMMON_H
#define EMBER_COMMON_H

#define TASK_COMM_LEN 16
#define MAX_STACK_DEPTH 127
#define STACK_ID_NONE 0xffffffffu
#define MAX_FILTER_PIDS 1024

/* Events on the process ring buffer (procs.bpf.c and every collector). */
enum ember_proc_event_type {
	EMBER_PROC_NEW = 1, /* first sample of a process: read its maps now */
	EMBER_PROC_EXEC = 2,
	EMBER_PROC_EXIT = 3,
};

struct ember_proc_event {
	__u32 type;
	__u32 pid;
};

#endif
