/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* common.h - constants and structs shared by every collector and its loader */
#ifndef EMBER_COMMON_H
#define EMBER_COMMON_H

#define TASK_COMM_LEN 16
#define MAX_STACK_DEPTH 127
#define STACK_ID_NONE 0xffffffffu /* no stack: kernel thread, or no user context */
#define STACK_ID_LOST 0xfffffffeu /* a stack that could not be stored (map collision) */
#define MAX_FILTER_PIDS 1024

/* Events on the process ring buffer (procs.bpf.c and every collector). */
enum ember_proc_event_type {
	EMBER_PROC_NEW = 1, /* first sample of a process: read its maps now */
	EMBER_PROC_EXEC = 2,
	EMBER_PROC_EXIT = 3, /* struct ember_proc_exit: the last thread of a seen process exited */
};

struct ember_proc_event {
	__u32 type;
	__u32 pid;
};

/* Executable mappings sent at exit, read from the mm before the kernel frees it. */
#define EMBER_PROC_MAX_VMAS 64

enum ember_vma_kind {
	EMBER_VMA_FILE = 0,
	EMBER_VMA_ANON = 1, /* anonymous executable memory (JIT) */
	EMBER_VMA_VDSO = 2,
};

struct ember_vma {
	__u64 start, end, pgoff; /* pgoff in bytes */
	__u64 ino, size;         /* the file's identity, as fstat() would show it */
	__s64 mtime_ns;
	__u32 dev;  /* kernel encoding: major << 20 | minor */
	__u32 kind; /* enum ember_vma_kind */
};

struct ember_proc_exit {
	struct ember_proc_event hdr;
	__u32 nvmas;
	__u32 truncated; /* the process had more than EMBER_PROC_MAX_VMAS */
	struct ember_vma vmas[EMBER_PROC_MAX_VMAS]; /* only nvmas are sent */
};

#endif
