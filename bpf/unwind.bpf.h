/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind.bpf.h - walk a user stack with the unwind tables held in maps (DWARF CFI rows,
 * bpf/unwind.h), falling back to the frame-pointer step where an address has no table.
 * One walker for every collector; include it after vmlinux.h, bpf_helpers.h, common.h.
 *
 * Interface:
 *
 *   struct unw_regs r;
 *   unw_regs_from_pt(&r, regs);      user registers from a struct pt_regs (perf event ctx,
 *                                    bpf_task_pt_regs(), a uprobe's ctx)
 *   struct unw_scratch *s = unwind_user(pid, &r);
 *                                    walk; s->ips[0..s->depth) leaf first, then a 0
 *                                    (unless the depth is MAX_STACK_DEPTH), then stale;
 *                                    s->flags: UNW_F_* (bpf/unwind_maps.h). NULL: no scratch.
 *   __u32 id = unwind_store(&ustacks, s);
 *                                    the frames as a stack id in a HASH map u32 ->
 *                                    __u64[MAX_STACK_DEPTH] (ended by a 0, read back
 *                                    with stack_depth() like a stack-trace map value):
 *                                    the id is a hash of
 *                                    the frames, so equal stacks share one entry and the
 *                                    daemon reads them back as it reads stack-trace maps.
 *                                    STACK_ID_NONE for an empty walk, STACK_ID_LOST when
 *                                    the map is full or another stack holds the hash.
 *
 * The maps (unw_rows, unw_tables, unw_procs, unw_scratch) are declared in each object that
 * includes this file; the loader makes every object share one instance of each
 * (bpf_map__reuse_fd), so tables are loaded once for all collectors.
 *
 * Cost: per frame one binary search over the process's mappings (<= UNW_MAPS_LOG2 steps),
 * one over the table's rows (inlined array lookups), and one user read of 8 or 16 bytes.
 */
#ifndef EMBER_UNWIND_BPF_H
#define EMBER_UNWIND_BPF_H

#include <bpf/bpf_core_read.h>
#include "bpf/unwind.h"
#include "bpf/unwind_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the loader creates the real one, sized by --unwind-max-mb */
	__type(key, __u32);
	__type(value, struct unw_row);
} unw_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, UNW_MAX_TABLES);
	__type(key, __u32);
	__type(value, struct unw_table);
} unw_tables SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, UNW_MAX_PROCS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct unw_proc);
} unw_procs SEC(".maps");

struct unw_scratch {
	__u64 ips[MAX_STACK_DEPTH];
	__u32 depth;
	__u32 flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct unw_scratch);
} unw_scratch SEC(".maps");

struct unw_regs {
	__u64 ip, sp, fp;
	__u64 lr; /* arm64's link register; 0 on x86-64 */
};

static __always_inline void unw_regs_from_pt(struct unw_regs *r, const struct pt_regs *regs)
{
#if defined(__TARGET_ARCH_x86)
	r->ip = regs->ip;
	r->sp = regs->sp;
	r->fp = regs->bp;
	r->lr = 0;
#elif defined(__TARGET_ARCH_arm64)
	r->ip = regs->pc;
	r->sp = regs->sp;
	r->fp = regs->regs[29];
	r->lr = regs->regs[30];
#else
#error "unwind.bpf.h: unsupported architecture"
#endif
}

/* A frame pointer can be followed: aligned, above the stack pointer, within 16 MB of it. */
#define UNW_FP_SPAN (16u << 20)

struct unw_walk {
	__u64 ip, sp, fp, lr;
	struct unw_proc *proc; /* NULL: frame pointers only */
	struct unw_scratch *s;
	__u32 depth;
	__u32 flags;
	__u32 exact; /* ip is where the thread is (leaf, interrupted by a signal), not a return */
	__u64 tramp; /* the uretprobe trampoline's address, when returns are pending */
	__u64 ri;    /* struct return_instance *: the next pending return, innermost first */
};

/* The mapping holding ip, or NULL. */
static __always_inline const struct unw_mapping *unw_find_map(const struct unw_proc *p, __u64 ip)
{
	__u32 lo = 0, n = p->nmaps;
	const struct unw_mapping *m;

	if (n == 0 || n > UNW_MAX_MAPS)
		return NULL;
	for (int i = 0; i < UNW_MAPS_LOG2 + 1 && n > 1; i++) {
		__u32 half = n / 2;

		if (p->maps[(lo + half) & (UNW_MAX_MAPS - 1)].start <= ip)
			lo += half;
		n -= half;
	}
	m = &p->maps[lo & (UNW_MAX_MAPS - 1)];
	return m->start <= ip && ip < m->end ? m : NULL;
}

/* The row of table t covering ELF address pc, or NULL. */
static __always_inline const struct unw_row *unw_find_row(const struct unw_table *t, __u32 pc)
{
	__u32 lo = t->row_start, n = t->nrows;
	const struct unw_row *r = bpf_map_lookup_elem(&unw_rows, &lo);

	if (!r || r->pc > pc)
		return NULL;
	for (int i = 0; i < UNW_ROWS_LOG2 && n > 1; i++) {
		__u32 half = n / 2, mid = lo + half;

		r = bpf_map_lookup_elem(&unw_rows, &mid);
		if (!r)
			return NULL;
		if (r->pc <= pc)
			lo = mid;
		n -= half;
	}
	return bpf_map_lookup_elem(&unw_rows, &lo);
}

/* The row for the walk's ip, or NULL when the address has no table. */
static __always_inline const struct unw_row *unw_lookup(struct unw_walk *w, __u32 *pc)
{
	const struct unw_mapping *m;
	const struct unw_table *t;
	__u64 elf;

	if (!w->proc)
		return NULL;
	m = unw_find_map(w->proc, w->ip);
	if (!m || m->table_id == UNW_TABLE_NONE)
		return NULL;
	t = bpf_map_lookup_elem(&unw_tables, &m->table_id);
	if (!t || t->nrows == 0 || t->gen != m->table_gen)
		return NULL;
	/* A return address may be just past its call's function: look up the call. */
	elf = w->ip - m->bias - (w->exact ? 0 : 1);
	if (elf > 0xffffffffull)
		return NULL;
	*pc = elf;
	return unw_find_row(t, *pc);
}

/* The frame-pointer step: [fp] is the caller's fp, [fp + 8] the return address. */
static __always_inline int unw_step_fp(struct unw_walk *w)
{
	__u64 frame[2];

	if (w->fp & 7 || w->fp < w->sp || w->fp - w->sp >= UNW_FP_SPAN)
		return -1;
	if (bpf_probe_read_user(frame, sizeof(frame), (void *)w->fp))
		return -1;
	w->sp = w->fp + 16;
	w->fp = frame[0];
	w->ip = frame[1];
	w->flags |= UNW_F_FP;
	return 0;
}

/*
 * Registers saved by the kernel in a signal frame (x86-64 rt_sigframe, in the ucontext at
 * SP): a UNW_CFA_SIGNAL row gives the slots of the interrupted SP (cfa_off), frame pointer
 * (fp_off) and ip (ra_off) as offsets from SP, as the trampoline's CFI expressions do.
 */
static __always_inline int unw_step_signal(struct unw_walk *w, const struct unw_row *r)
{
	__u64 sp = w->sp;

	if (bpf_probe_read_user(&w->fp, 8, (void *)(sp + r->fp_off)) ||
	    bpf_probe_read_user(&w->ip, 8, (void *)(sp + r->ra_off)) ||
	    bpf_probe_read_user(&w->sp, 8, (void *)(sp + r->cfa_off)))
		return -1;
	w->exact = 1;
	return 0;
}

/* Apply a CFA row: find the CFA, then the return address and the caller's frame pointer. */
static __always_inline int unw_step_row(struct unw_walk *w, const struct unw_row *r, __u32 pc)
{
	__u64 cfa, saved[2];

	switch (r->cfa_rule) {
	case UNW_CFA_SP:
		cfa = w->sp + r->cfa_off;
		break;
	case UNW_CFA_FP:
		cfa = w->fp + r->cfa_off;
		break;
	case UNW_CFA_PLT:
		cfa = w->sp + r->cfa_off + ((pc & 15) >= (__u32)r->fp_off ? 8 : 0);
		break;
	default:
		return -1;
	}
	if (r->fp_rule == UNW_FP_AT_CFA && r->ra_off == r->fp_off + 8 && r->ra_off) {
		/* The common prologue (push rbp after the call): both in one read. */
		if (bpf_probe_read_user(saved, sizeof(saved), (void *)(cfa + r->fp_off)))
			return -1;
		w->fp = saved[0];
		w->ip = saved[1];
	} else {
		if (r->ra_off == 0) {
			if (w->depth != 1) /* the link register is known in the leaf only */
				return -1;
			w->ip = w->lr;
		} else if (bpf_probe_read_user(&w->ip, 8, (void *)(cfa + r->ra_off))) {
			return -1;
		}
		if (r->fp_rule == UNW_FP_AT_CFA &&
		    bpf_probe_read_user(&w->fp, 8, (void *)(cfa + r->fp_off)))
			return -1;
		if (r->fp_rule == UNW_FP_UNDEF)
			w->fp = 0;
	}
	w->sp = cfa;
	w->exact = 0;
	return 0;
}

/*
 * A function whose return is probed (a uretprobe, as the memory collector puts on malloc) has
 * the trampoline's address in place of its return address until it returns; the real one is
 * in the task's pending return instances, innermost first. A chained instance (a probed
 * function that jumped to another) shares its slot with the instances after it.
 */
static __always_inline void unw_uretprobes_init(struct unw_walk *w)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();

	if (!bpf_core_field_exists(t->utask))
		return;
	w->ri = (__u64)BPF_CORE_READ(t, utask, return_instances);
	if (w->ri)
		w->tramp = BPF_CORE_READ(t, mm, uprobes_state.xol_area, vaddr);
}

static __always_inline void unw_uretprobe_fix(struct unw_walk *w)
{
	struct return_instance *ri = (struct return_instance *)w->ri;

	if (!ri || w->ip != w->tramp)
		return;
	w->ip = BPF_CORE_READ(ri, orig_ret_vaddr);
	for (int i = 0; i < 4 && ri && BPF_CORE_READ(ri, chained); i++)
		ri = BPF_CORE_READ(ri, next);
	w->ri = ri ? (__u64)BPF_CORE_READ(ri, next) : 0;
}

/* bpf_loop callback: record the frame at ip, then step to its caller. 1 stops the walk. */
static long unw_step(__u64 index, void *ctx)
{
	struct unw_walk *w = ctx;
	const struct unw_row *r;
	__u32 d = w->depth, pc = 0;

	unw_uretprobe_fix(w);
	if (w->ip == 0)
		return 1;
	if (d >= MAX_STACK_DEPTH) {
		w->flags |= UNW_F_CUT;
		return 1;
	}
	w->s->ips[d] = w->ip;
	w->depth = d + 1;
	r = unw_lookup(w, &pc);
	if (r && r->cfa_rule == UNW_CFA_END) {
		w->flags |= UNW_F_COMPLETE;
		return 1;
	}
	if (r && r->cfa_rule == UNW_CFA_SIGNAL)
		return unw_step_signal(w, r) ? 1 : 0;
	if (r && r->cfa_rule != UNW_CFA_NONE)
		return unw_step_row(w, r, pc) ? 1 : 0;
	return unw_step_fp(w) ? 1 : 0;
}

/* Walk the user stack of process pid from regs. Returns the per-CPU result, or NULL. */
static __always_inline struct unw_scratch *unwind_user(__u32 pid, const struct unw_regs *regs)
{
	__u32 zero = 0;
	struct unw_walk w = {
		.ip = regs->ip,
		.sp = regs->sp,
		.fp = regs->fp,
		.lr = regs->lr,
		.exact = 1,
	};
	struct unw_scratch *s = bpf_map_lookup_elem(&unw_scratch, &zero);
	struct unw_proc *p;

	if (!s)
		return NULL;
	w.s = s;
	p = bpf_map_lookup_elem(&unw_procs, &pid);
	if (p)
		w.proc = p;
	else
		w.flags = UNW_F_NO_PROC;
	unw_uretprobes_init(&w);
	bpf_loop(MAX_STACK_DEPTH + 1, unw_step, &w, 0);
	s->depth = w.depth;
	s->flags = w.flags;
	if (w.depth < MAX_STACK_DEPTH)
		s->ips[w.depth] = 0; /* the end, as in a stack-trace map (stack_depth()) */
	return s;
}

/* A 32-bit hash of the frames, never STACK_ID_NONE or STACK_ID_LOST. */
static __always_inline __u32 unw_hash(const struct unw_scratch *s)
{
	__u64 h = 0x9e3779b97f4a7c15ull;

	for (__u32 i = 0; i < MAX_STACK_DEPTH && i < s->depth; i++) {
		h ^= s->ips[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	return (__u32)h < STACK_ID_LOST ? (__u32)h : (__u32)h - 2;
}

/* The frames equal those stored under their id: the same stack, not a collision. */
static __always_inline bool unw_same(const __u64 *stored, const struct unw_scratch *s)
{
	for (__u32 i = 0; i < MAX_STACK_DEPTH && i < s->depth; i++)
		if (stored[i] != s->ips[i])
			return false;
	return s->depth >= MAX_STACK_DEPTH || stored[s->depth] == 0;
}

/* Store the walk's frames in ustacks; returns their id (see the top of this file). */
static __always_inline __u32 unwind_store(void *ustacks, const struct unw_scratch *s)
{
	__u32 id;
	const __u64 *stored;
	long err;

	if (s->depth == 0)
		return STACK_ID_NONE;
	id = unw_hash(s);
	stored = bpf_map_lookup_elem(ustacks, &id);
	if (stored)
		return unw_same(stored, s) ? id : STACK_ID_LOST;
	err = bpf_map_update_elem(ustacks, &id, s->ips, BPF_NOEXIST);
	return err && err != -17 /* EEXIST: another CPU stored it first */ ? STACK_ID_LOST : id;
}

#endif
