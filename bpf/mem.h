/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* mem.h - memory collector: allocation counts, live allocations, sampler table, stats slots */
#ifndef EMBER_MEM_H
#define EMBER_MEM_H

/* Default map sizes; the loader may resize them before loading. */
#define MEM_MAX_COUNTS 32768
#define MEM_MAX_STACKS 16384
#define MEM_MAX_LIVE 65536
#define MEM_MAX_LIBS 64    /* allocator libraries probed at once (one per -p process) */
#define MEM_EXP_TABLE 4096 /* quantiles of the unit exponential, for Poisson sampling */
#define MEM_EXP_SHIFT 16   /* fixed point of the table's entries */

/* Probed functions; the attach cookie is lib << 8 | fn. */
enum mem_fn {
	MEM_MALLOC,
	MEM_CALLOC,
	MEM_REALLOC,
	MEM_REALLOCARRAY,
	MEM_POSIX_MEMALIGN,
	MEM_ALIGNED_ALLOC,
	MEM_MEMALIGN,
	MEM_VALLOC,
	MEM_PVALLOC,
	MEM_FREE,
	MEM_NFN,
};

/* Where the bytes of a count come from. */
enum mem_src {
	MEM_SRC_ALLOC,  /* the allocator functions (sampled) */
	MEM_SRC_MMAP,   /* anonymous mmap (every call) */
	MEM_SRC_BRK,    /* brk growth */
	MEM_SRC_MUNMAP, /* munmap */
	MEM_SRC_MAX,
};

struct mem_key {
	__u32 pid;
	__u32 tid;
	__u32 ustack_id; /* STACK_ID_NONE / STACK_ID_LOST */
	__u32 src;       /* enum mem_src */
	char comm[TASK_COMM_LEN];
};

struct mem_count {
	__u64 calls; /* sampled calls */
	__u64 bytes; /* their bytes */
};

struct mem_live_key {
	__u32 pid;
	__u32 pad;
	__u64 addr;
};

struct mem_live {
	__u64 size;
	__u64 time_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u32 tid;
	__u32 ustack_id;
	char comm[TASK_COMM_LEN];
};

/* Executable range of an allocator library, by ELF virtual address, and its functions. */
struct mem_lib {
	__u64 text_lo, text_hi;
	__u64 fn_vaddr[MEM_NFN];
};

enum mem_stat {
	MEM_STAT_CALLS,      /* allocation calls seen while probes were attached */
	MEM_STAT_SAMPLED,    /* of them, sampled */
	MEM_STAT_NESTED,     /* calls made by the allocator itself, skipped */
	MEM_STAT_FREES,      /* free calls seen */
	MEM_STAT_FREED,      /* of them, freeing a tracked live allocation */
	MEM_STAT_LIVE_FULL,  /* sampled allocation not tracked: live map full */
	MEM_STAT_COUNT_FULL, /* sampled allocation not counted: count map full */
	MEM_STAT_USTACK_ERR, /* user stack not captured */
	MEM_STAT_EXIT_FREED, /* live entries removed at process exit or exec */
	MEM_STAT_SYSCALLS,   /* mmap/munmap/brk calls counted */
	/* With unwind tables, user stacks by outcome, one slot per bit of UNW_F_* in order: */
	MEM_STAT_UNW_COMPLETE, /* reached the end of the stack */
	MEM_STAT_UNW_CUT,      /* cut at MAX_STACK_DEPTH */
	MEM_STAT_UNW_FP,       /* some frame-pointer steps (addresses without a table) */
	MEM_STAT_UNW_NO_PROC,  /* the process's tables were not loaded yet */
	MEM_STAT_MAX,
};

#define MEM_STAT_UNW_NBITS (MEM_STAT_UNW_NO_PROC - MEM_STAT_UNW_COMPLETE + 1)

#endif
