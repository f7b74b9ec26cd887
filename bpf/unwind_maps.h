/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * unwind_maps.h - where the BPF walker (unwind.bpf.h) finds unwind tables, filled by the
 * loader (daemon/collect/unwind.c). Four maps, shared by every collector:
 *
 *   unw_rows    ARRAY, key row index            -> struct unw_row (bpf/unwind.h)
 *               one big array; the loader hands out ranges of it, one per table
 *   unw_tables  ARRAY, key table id             -> struct unw_table (its range of unw_rows)
 *               nrows == 0: the table was evicted or is not loaded yet
 *   unw_procs   HASH,  key pid (thread group)   -> struct unw_proc
 *               the executable mappings of a process, sorted by start, disjoint
 *   unw_scratch PERCPU_ARRAY, one entry         -> struct unw_scratch (frames of the walk)
 *
 * A user address ip inside mapping m is the ELF virtual address ip - m.bias of the file
 * behind m, and is looked up in table m.table_id.
 */
#ifndef EMBER_UNWIND_MAPS_H
#define EMBER_UNWIND_MAPS_H

#define UNW_MAX_TABLES 8192
#define UNW_MAX_PROCS 8192
#define UNW_MAX_MAPS 256           /* executable mappings per process; more are left out */
#define UNW_TABLE_NONE 0xffffffffu /* a mapping without a table: frame-pointer steps */

/* Binary search bounds: ceil(log2(size)) iterations. */
#define UNW_MAPS_LOG2 8  /* UNW_MAX_MAPS */
#define UNW_ROWS_LOG2 25 /* the largest table the walker can search: 32M rows */

struct unw_table {
	__u32 row_start; /* first row in unw_rows */
	__u32 nrows;
	__u32 gen; /* a mapping's table_gen must match: a reused table id is not its table */
};

struct unw_mapping {
	__u64 start, end; /* [start, end) user addresses */
	__u64 bias;       /* ELF virtual address = user address - bias */
	__u32 table_id;   /* in unw_tables, or UNW_TABLE_NONE */
	__u32 table_gen;  /* unw_table.gen when the mapping was listed */
};

struct unw_proc {
	__u32 nmaps;
	__u32 pad;
	struct unw_mapping maps[UNW_MAX_MAPS];
};

/* Walk outcome (unw_walk.flags); collectors count samples by these in their stats. */
#define UNW_F_COMPLETE 0x1 /* reached a UNW_CFA_END row: the stack is whole */
#define UNW_F_CUT 0x2      /* stopped at MAX_STACK_DEPTH frames */
#define UNW_F_FP 0x4       /* at least one frame-pointer step (an address without a table) */
#define UNW_F_NO_PROC 0x8  /* no mapping list for the process yet: frame pointers only */

#endif
