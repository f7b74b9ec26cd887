// SPDX-License-Identifier: GPL-2.0-only
/* offcpu.bpf.c - time threads spend switched out, per stack, summed in the kernel */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpf/common.h"
#include "bpf/offcpu.h"
#include "bpf/maps.bpf.h"
#include "bpf/pids.bpf.h"
#include "bpf/procs.bpf.h"
#include "bpf/unwind.bpf.h"

#define PF_KTHREAD 0x00200000

const volatile __u64 min_ns = 1000000;
const volatile __u64 max_ns = ~0ULL;
const volatile __u32 state_mask = OFFCPU_STATE_INTERRUPTIBLE | OFFCPU_STATE_UNINTERRUPTIBLE;
const volatile __u32 threads = 0; /* 0: all, else OFFCPU_THREADS_* */
/* Sleepers' user stacks from the unwind tables (unwind.bpf.h) rather than frame pointers. */
const volatile bool unwind_dwarf = false;

/* Double-buffered like oncpu.bpf.c: the daemon flips `active` and drains the other buffer. */
volatile __u32 active;

struct counts_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_COUNTS);
	__type(key, struct offcpu_key);
	__type(value,
	       __u64); /* nanoseconds: short blocks are not truncated; the daemon writes µs */
};

/* User stacks and waker stacks, taken in their own task's context. */
struct stacks_map {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, OFFCPU_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_STACK_DEPTH * sizeof(__u64));
};

/* Sleepers' kernel stacks, keyed by a hash of their addresses. */
struct kstacks_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_STACKS);
	__type(key, __u32);
	__type(value, struct offcpu_kstack);
};

/* Sleepers' user stacks walked by unwind_user(), stored by unwind_store(); 1 entry when unused. */
struct ustacks_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_STACKS);
	__type(key, __u32);
	__type(value, __u64[MAX_STACK_DEPTH]);
};

struct counts_map counts0 SEC(".maps"), counts1 SEC(".maps");
struct stacks_map stacks0 SEC(".maps"), stacks1 SEC(".maps");
struct kstacks_map kstacks0 SEC(".maps"), kstacks1 SEC(".maps");
struct ustacks_map ustacks0 SEC(".maps"), ustacks1 SEC(".maps");

/* Per thread, freed with it: the switch-out time, and a block waiting for its user stack. */
struct task_info {
	__u64 start_ns;   /* switch-out time of the current block; 0: none */
	__u64 pending_ns; /* a block above the minimum, counted at return to user; 0: none */
	struct offcpu_key key;
	__u32 buf;       /* buffer of key's stack ids */
	__u32 waker_buf; /* buffer of the waker's stack ids */
	__u32 has_waker;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_info);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct offcpu_kstack);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OFFCPU_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* Kernels before 5.14 call the field `state`. */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___pre514 *)t, state);
}

/* Does a block that starts now for t pass the filters? */
static __always_inline bool wanted(struct task_struct *t, bool preempt)
{
	__u32 pid = BPF_CORE_READ(t, tgid), state = task_state(t);
	bool kthread = BPF_CORE_READ(t, flags) & PF_KTHREAD;

	if (!BPF_CORE_READ(t, pid))
		return false; /* the idle task */
	if ((threads == OFFCPU_THREADS_USER && kthread) ||
	    (threads == OFFCPU_THREADS_KERNEL && !kthread))
		return false;
	if (preempt || state == 0)
		return state_mask & OFFCPU_STATE_PREEMPTED;
	if (!(state & state_mask & OFFCPU_STATE_KERNEL_BITS))
		return false;
	return pid_wanted(pid);
}

static __always_inline __u32 stack_id(long id, __u32 err_slot)
{
	if (id >= 0)
		return id;
	if (id == -14 /* EFAULT: no stack to walk */)
		return STACK_ID_NONE;
	stat_inc(&stats, err_slot);
	return STACK_ID_LOST;
}

static __always_inline void *stacks_of(__u32 buf)
{
	return buf ? (void *)&stacks1 : (void *)&stacks0;
}

/* Store a kernel stack under a hash of its addresses; a different stack there is a collision. */
static __always_inline __u32 kstack_store(void *kstacks, const struct offcpu_kstack *st)
{
	struct offcpu_kstack *old;
	__u64 h = 0xcbf29ce484222325ULL;
	__u32 id;
	int i;

	for (i = 0; i < MAX_STACK_DEPTH && st->ips[i]; i++)
		h = (h ^ st->ips[i]) * 0x100000001b3ULL;
	id = (__u32)(h ^ (h >> 32));
	if (id >= STACK_ID_LOST)
		id -= 2;
	old = bpf_map_lookup_elem(kstacks, &id);
	if (!old) {
		long err = bpf_map_update_elem(kstacks, &id, st, BPF_NOEXIST);

		if (err && err != -17 /* EEXIST: another CPU stored it first */)
			goto lost;
		return id;
	}
	for (i = 0; i < MAX_STACK_DEPTH; i++)
		if (old->ips[i] != st->ips[i])
			goto lost;
	return id;
lost:
	stat_inc(&stats, OFFCPU_STAT_KSTACK_ERR);
	return STACK_ID_LOST;
}

/* The kernel stack next was switched out with, read from its saved context. */
static __always_inline __u32 sleeper_kstack(struct task_struct *next, __u32 buf)
{
	__u32 zero = 0;
	struct offcpu_kstack *st = bpf_map_lookup_elem(&scratch, &zero);
	long n;

	if (!st)
		return STACK_ID_LOST;
	n = bpf_get_task_stack(next, st->ips, sizeof(st->ips), 0);
	if (n <= 0) {
		stat_inc(&stats, OFFCPU_STAT_KSTACK_ERR);
		return STACK_ID_LOST;
	}
	return kstack_store(buf ? (void *)&kstacks1 : (void *)&kstacks0, st);
}

static __always_inline void count_block(const struct offcpu_key *key, __u32 buf, __u64 ns)
{
	static const __u64 zero;
	__u64 *sum = lookup_or_try_init(buf ? (void *)&counts1 : (void *)&counts0, key, &zero);

	if (!sum) {
		stat_inc(&stats, OFFCPU_STAT_COUNT_FULL);
		return;
	}
	__sync_fetch_and_add(sum, ns);
	stat_inc(&stats, OFFCPU_STAT_BLOCKS);
}

/*
 * The current task's user stack walked with the unwind tables, from the user registers it
 * saved on entering the kernel (a sleeper in a system call or about to leave one, a waker
 * in its system call or interrupted). err_slot counts a stack not stored; a sleeper's walk
 * is counted by outcome (a waker may be any task an interrupt found running).
 */
static __always_inline __u32 user_stack_dwarf(__u32 pid, __u32 buf, bool sleeper, __u32 err_slot)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct unw_scratch *s;
	struct unw_regs r;
	__u32 id;

	if (cur->flags & PF_KTHREAD)
		return STACK_ID_NONE;
	unw_regs_from_pt(&r, (const struct pt_regs *)bpf_task_pt_regs(cur));
	s = unwind_user(pid, &r);
	if (!s) {
		stat_inc(&stats, err_slot);
		return STACK_ID_LOST;
	}
	if (sleeper) {
		stat_inc(&stats, OFFCPU_STAT_UNW_WALKS);
		for (int i = 0; i < 4; i++)
			if (s->flags & (1u << i))
				stat_inc(&stats, OFFCPU_STAT_UNW_COMPLETE + i);
	}
	id = unwind_store(buf ? (void *)&ustacks1 : (void *)&ustacks0, s);
	if (id == STACK_ID_LOST)
		stat_inc(&stats, err_slot);
	return id;
}

/* Count the block waiting for t's user stack, taken now in t's own context. */
static __always_inline void flush_pending(void *ctx, struct task_info *t)
{
	if (procs_exec_limbo(bpf_get_current_task_btf()))
		t->key.ustack_id = STACK_ID_NONE;
	else if (unwind_dwarf)
		t->key.ustack_id =
			user_stack_dwarf(t->key.pid, t->buf, true, OFFCPU_STAT_USTACK_ERR);
	else
		t->key.ustack_id =
			stack_id(bpf_get_stackid(ctx, stacks_of(t->buf), BPF_F_USER_STACK),
				 OFFCPU_STAT_USTACK_ERR);
	count_block(&t->key, t->buf, t->pending_ns);
	t->pending_ns = 0;
	procs_note(t->key.pid);
}

static __always_inline void switch_out(void *ctx, struct task_struct *prev, bool preempt, __u64 now)
{
	bool want = wanted(prev, preempt);
	struct task_info *t;

	t = bpf_task_storage_get(&tasks, prev, 0, want ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!t) {
		if (want)
			stat_inc(&stats, OFFCPU_STAT_NO_STORAGE);
		return;
	}
	if (t->pending_ns)
		flush_pending(ctx, t); /* blocked again before returning to user */
	t->start_ns = want ? now : 0;
	t->has_waker = 0;
}

/*
 * End next's block as it is switched back in: drop it outside [min_ns, max_ns], else key it by its
 * kernel stack and its waker, whose stacks are dropped (and counted) when they were taken into the
 * other buffer. A kernel thread's block is counted now; a user thread's waits in pending_ns for its
 * user stack, taken at its next sys_exit or switch-out.
 */
static __always_inline void switch_in(void *ctx, struct task_struct *next, __u64 now)
{
	struct task_info *t = bpf_task_storage_get(&tasks, next, 0, 0);
	__u32 buf = active & 1;
	__u64 delta;

	if (!t || !t->start_ns)
		return;
	delta = now - t->start_ns;
	t->start_ns = 0;
	if (delta < min_ns || delta > max_ns)
		return;
	t->key.pid = BPF_CORE_READ(next, tgid);
	t->key.tid = BPF_CORE_READ(next, pid);
	BPF_CORE_READ_STR_INTO(&t->key.comm, next, comm);
	t->key.kstack_id = sleeper_kstack(next, buf);
	if (!t->has_waker || t->waker_buf != buf) {
		if (t->has_waker)
			stat_inc(&stats, OFFCPU_STAT_WAKER_ERR);
		t->key.waker_kstack_id = t->key.waker_ustack_id = STACK_ID_NONE;
		t->key.waker_pid = 0;
		__builtin_memset(t->key.waker_comm, 0, sizeof(t->key.waker_comm));
	}
	t->has_waker = 0;
	t->buf = buf;
	t->key.ustack_id = STACK_ID_NONE;
	if (BPF_CORE_READ(next, flags) & PF_KTHREAD) {
		count_block(&t->key, buf, delta);
		return;
	}
	t->pending_ns = delta; /* the user stack comes at the return to user */
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();

	switch_out(ctx, prev, preempt, now);
	switch_in(ctx, next, now);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(offcpu_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct task_info *t = bpf_task_storage_get(&tasks, cur, 0, 0);

	if (t && t->pending_ns)
		flush_pending(ctx, t);
	return 0;
}

/* Waker stacks (optional): taken in the waker's context when a long sleeper is woken. */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(offcpu_wakeup, struct task_struct *p)
{
	struct task_info *t = bpf_task_storage_get(&tasks, p, 0, 0);
	__u32 buf = active & 1;
	__u64 now = bpf_ktime_get_ns();

	if (!t || !t->start_ns || now - t->start_ns < min_ns)
		return 0;
	/* Skip this program's frame and the tracepoint's (bpf_trace_run1). */
	t->key.waker_kstack_id =
		stack_id(bpf_get_stackid(ctx, stacks_of(buf), 2), OFFCPU_STAT_WAKER_ERR);
	t->key.waker_pid = bpf_get_current_pid_tgid() >> 32;
	if (unwind_dwarf)
		t->key.waker_ustack_id =
			user_stack_dwarf(t->key.waker_pid, buf, false, OFFCPU_STAT_WAKER_ERR);
	else
		t->key.waker_ustack_id =
			stack_id(bpf_get_stackid(ctx, stacks_of(buf), BPF_F_USER_STACK),
				 OFFCPU_STAT_WAKER_ERR);
	bpf_get_current_comm(t->key.waker_comm, sizeof(t->key.waker_comm));
	t->waker_buf = buf;
	t->has_waker = 1;
	if (t->key.waker_ustack_id != STACK_ID_NONE)
		procs_note(t->key.waker_pid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
