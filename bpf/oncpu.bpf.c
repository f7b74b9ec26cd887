// SPDX-License-Identifier: GPL-2.0-only
/* oncpu.bpf.c - sample stacks on every CPU from a perf event, counted in the kernel */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "bpf/common.h"
#include "bpf/oncpu.h"
#include "bpf/maps.bpf.h"
#include "bpf/pids.bpf.h"
#include "bpf/procs.bpf.h"
#include "bpf/unwind.bpf.h"

const volatile bool include_idle = false;
/* User stacks from the unwind tables (unwind.bpf.h) rather than frame pointers. */
const volatile bool unwind_dwarf = false;

/*
 * Two buffers: programs write to buffer `active` while the daemon drains the
 * other one, so a sample is counted in exactly one drain. The daemon flips
 * `active`, waits longer than any program run (they cannot sleep), then reads
 * and clears the idle buffer, counts and stacks together.
 */
volatile __u32 active;

struct counts_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ONCPU_MAX_COUNTS);
	__type(key, struct oncpu_key);
	__type(value, __u64);
};

struct stacks_map {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, ONCPU_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_STACK_DEPTH * sizeof(__u64));
};

/* User stacks walked by unwind_user(), stored by unwind_store(); 1 entry when unused. */
struct ustacks_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ONCPU_MAX_STACKS);
	__type(key, __u32);
	__type(value, __u64[MAX_STACK_DEPTH]);
};

struct counts_map counts0 SEC(".maps"), counts1 SEC(".maps");
struct stacks_map stacks0 SEC(".maps"), stacks1 SEC(".maps");
struct ustacks_map ustacks0 SEC(".maps"), ustacks1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ONCPU_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline __u32 stack_id(long id, void *stats_map, __u32 err_slot)
{
	if (id >= 0)
		return id;
	if (id == -14 /* EFAULT: no stack to walk */)
		return STACK_ID_NONE;
	stat_inc(stats_map, err_slot);
	return STACK_ID_LOST;
}

/* The sample interrupted user mode: the kernel stack is empty, no need to ask for it. */
static __always_inline bool in_user_mode(struct bpf_perf_event_data *ctx)
{
#if defined(__TARGET_ARCH_x86)
	/* Context loads of regs must be word-sized; cs is a narrower union member in newer kernels. */
	return *(const __u64 *)&ctx->regs.cs & 3;
#else
	return false;
#endif
}

static const __u32 unw_stat_slots[] = {
	ONCPU_STAT_UNW_COMPLETE,
	ONCPU_STAT_UNW_CUT,
	ONCPU_STAT_UNW_FP,
	ONCPU_STAT_UNW_NO_PROC,
};

/*
 * The user registers at the sample: the interrupted ones in user mode, else those the
 * task saved on entering the kernel.
 */
static __always_inline __u32 user_stack_dwarf(struct bpf_perf_event_data *ctx, __u32 pid,
					      void *ustacks)
{
	struct unw_scratch *s;
	struct unw_regs r;

#if defined(__TARGET_ARCH_x86)
	if (in_user_mode(ctx)) {
		/* Context loads, field by field (a pointer into the context is refused). */
		r = (struct unw_regs){ .ip = ctx->regs.ip, .sp = ctx->regs.sp, .fp = ctx->regs.bp };
		asm volatile("" ::: "memory"); /* keep these loads apart from the other branch */
	} else
#endif
	{
		unw_regs_from_pt(&r, (const struct pt_regs *)bpf_task_pt_regs(
					     (struct task_struct *)bpf_get_current_task_btf()));
	}
	s = unwind_user(pid, &r);
	if (!s)
		return STACK_ID_NONE;
	stat_inc(&stats, ONCPU_STAT_UNW_WALKS);
	for (int i = 0; i < 4; i++)
		if (s->flags & (1u << i))
			stat_inc(&stats, unw_stat_slots[i]);
	return unwind_store(ustacks, s);
}

/*
 * Count one sample in one buffer. Each caller passes its buffer's maps as
 * constants, so the verifier knows them at every call and the JIT inlines the
 * hash lookups; a map chosen at run time would cost a helper call each time.
 */
static __always_inline int count_sample(struct bpf_perf_event_data *ctx, struct oncpu_key *key,
					bool kthread, void *stacks, void *ustacks, void *counts)
{
	static const __u64 zero;
	__u64 *count;

	key->kstack_id = in_user_mode(ctx) ? STACK_ID_NONE
					   : stack_id(bpf_get_stackid(ctx, stacks, 0), &stats,
						      ONCPU_STAT_KSTACK_ERR);
	if (kthread || procs_exec_limbo(bpf_get_current_task_btf()))
		key->ustack_id = STACK_ID_NONE;
	else if (unwind_dwarf)
		key->ustack_id = user_stack_dwarf(ctx, key->pid, ustacks);
	else
		key->ustack_id = stack_id(bpf_get_stackid(ctx, stacks, BPF_F_USER_STACK), &stats,
					  ONCPU_STAT_USTACK_ERR);
	count = bpf_map_lookup_elem(counts, key);
	if (count) {
		__sync_fetch_and_add(count, 1);
		return 0;
	}
	/* A key new to this buffer: the only place a process can be new too. */
	count = lookup_or_try_init(counts, key, &zero);
	if (!count) {
		stat_inc(&stats, ONCPU_STAT_COUNT_FULL);
		return 0;
	}
	__sync_fetch_and_add(count, 1);
	if (!kthread)
		procs_note(key->pid);
	return 0;
}

SEC("perf_event")
int oncpu_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct oncpu_key key = {};
	struct task_struct *task;
	bool kthread;

	key.pid = id >> 32;
	key.tid = (__u32)id;
	if (!include_idle && key.tid == 0)
		return 0;
	if (!pid_wanted(key.pid))
		return 0;
	stat_inc(&stats, ONCPU_STAT_SAMPLES);
	task = (struct task_struct *)bpf_get_current_task_btf();
	kthread = task->flags & 0x00200000 /* PF_KTHREAD */;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	if (active & 1)
		return count_sample(ctx, &key, kthread, &stacks1, &ustacks1, &counts1);
	return count_sample(ctx, &key, kthread, &stacks0, &ustacks0, &counts0);
}

char LICENSE[] SEC("license") = "GPL";
