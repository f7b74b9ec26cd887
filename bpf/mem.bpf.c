// SPDX-License-Identifier: GPL-2.0-only
/* mem.bpf.c - allocations by stack (sampled by bytes) and live allocations by address */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "bpf/common.h"
#include "bpf/mem.h"
#include "bpf/maps.bpf.h"
#include "bpf/pids.bpf.h"
#include "bpf/procs.bpf.h"
#include "bpf/unwind.bpf.h"

const volatile __u64 sample_bytes = 512 * 1024; /* mean bytes between samples; 1: every call */
const volatile bool key_tid = false;            /* count by thread, not only by process */
const volatile __u32 exp_table[MEM_EXP_TABLE];  /* -ln(U) quantiles, fixed point */
/* User stacks from the unwind tables (unwind.bpf.h) into ustacks, not frame pointers into stacks. */
const volatile bool unwind_dwarf = false;

/* Allocation counts are double-buffered as in oncpu.bpf.c; stacks and live entries are not. */
volatile __u32 active;

extern bool bpf_session_is_return(void) __ksym;

struct counts_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEM_MAX_COUNTS);
	__type(key, struct mem_key);
	__type(value, struct mem_count);
};

struct counts_map counts0 SEC(".maps"), counts1 SEC(".maps");

/* Referenced by counts and live entries; the daemon removes what neither references. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, MEM_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, MAX_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* The same for stacks walked by unwind_user(); the loader leaves 1 entry in the unused one. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEM_MAX_STACKS);
	__type(key, __u32);
	__type(value, __u64[MAX_STACK_DEPTH]);
} ustacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEM_MAX_LIVE);
	__type(key, struct mem_live_key);
	__type(value, struct mem_live);
} live SEC(".maps");

/* Live entries per process, so that an exit costs nothing unless the process has some. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u64);
} live_pids SEC(".maps");

/* A sampled call between its entry and its return, by thread (LRU: a detach can skip the return). */
struct pending {
	__u64 size;
	__u64 memptr; /* posix_memalign's out pointer */
	__u32 fn;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct pending);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MEM_MAX_LIBS);
	__type(key, __u32);
	__type(value, struct mem_lib);
} libs SEC(".maps");

/* Bytes left until the next sample, per CPU (the gaps are memoryless, so CPUs need not agree). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} sampler SEC(".maps");

/* The last realloc(NULL, n) or reallocarray() entry, to recognize the call it jumps to. */
struct chain {
	__u64 sp, size;
	__u32 tid, pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct chain);
} chains SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MEM_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* An exponential gap of mean sample_bytes: a Poisson process over the bytes allocated. */
static __always_inline __u64 next_gap(void)
{
	__u32 q = bpf_get_prandom_u32() & (MEM_EXP_TABLE - 1);
	__u64 gap = ((__u64)exp_table[q] * sample_bytes) >> MEM_EXP_SHIFT;

	return gap ?: 1;
}

/* Is an allocation of size bytes sampled? Probability 1 - exp(-size / sample_bytes). */
static __always_inline bool sampled(__u64 size)
{
	static const __u32 zero;
	__u64 *left;

	if (sample_bytes <= 1)
		return true;
	left = bpf_map_lookup_elem(&sampler, &zero);
	if (!left)
		return false;
	if (!*left)
		*left = next_gap();
	if (*left > size) {
		*left -= size;
		return false;
	}
	*left = next_gap();
	return true;
}

static __always_inline __u64 return_address(struct pt_regs *ctx)
{
	__u64 ret = 0;

#if defined(__TARGET_ARCH_x86)
	bpf_probe_read_user(&ret, sizeof(ret), (void *)PT_REGS_SP(ctx));
#else
	ret = PT_REGS_RET(ctx);
#endif
	return ret;
}

/* A call from inside the allocator library (realloc calling malloc) is part of the outer one. */
static __always_inline bool from_allocator(struct pt_regs *ctx, __u32 lib, __u32 fn)
{
	struct mem_lib *l = bpf_map_lookup_elem(&libs, &lib);
	__u64 bias, ret;

	if (!l || fn >= MEM_NFN)
		return false;
	bias = bpf_get_func_ip(ctx) - l->fn_vaddr[fn];
	ret = return_address(ctx) - bias;
	return ret >= l->text_lo && ret < l->text_hi;
}

/*
 * realloc(NULL, n) and reallocarray() may jump (not call) to malloc or realloc:
 * same thread, same stack pointer, same size. Returns true for such an inner call.
 */
static __always_inline bool chained(struct pt_regs *ctx, __u32 tid, __u64 size, bool outer)
{
	static const __u32 zero;
	struct chain *c = bpf_map_lookup_elem(&chains, &zero);
	__u64 sp = PT_REGS_SP(ctx);

	if (!c)
		return false;
	if (c->tid == tid && c->sp == sp && c->size == size)
		return true;
	c->tid = outer ? tid : 0;
	c->sp = sp;
	c->size = size;
	return false;
}

static __always_inline void live_pids_add(__u32 pid, __s64 n)
{
	static const __u64 zero;
	__u64 *c = lookup_or_try_init(&live_pids, &pid, &zero);

	if (c)
		__sync_fetch_and_add(c, n);
}

static __always_inline void forget(__u32 pid, __u64 addr)
{
	struct mem_live_key k = { .pid = pid, .addr = addr };

	if (!addr)
		return;
	if (bpf_map_delete_elem(&live, &k) == 0) {
		stat_inc(&stats, MEM_STAT_FREED);
		live_pids_add(pid, -1);
	}
}

/*
 * The user stack from the thread's user registers: at an allocator's return, those of the
 * return site in its caller, so the walk starts exactly at the caller.
 */
static __always_inline __u32 user_stack_dwarf(const struct pt_regs *regs)
{
	struct unw_scratch *s;
	struct unw_regs r;

	unw_regs_from_pt(&r, regs);
	s = unwind_user(bpf_get_current_pid_tgid() >> 32, &r);
	if (!s)
		return STACK_ID_NONE;
	for (__u32 bit = 0; bit < MEM_STAT_UNW_NBITS; bit++)
		if (s->flags & (1u << bit))
			stat_inc(&stats, MEM_STAT_UNW_COMPLETE + bit);
	return unwind_store(&ustacks, s);
}

/* ctx: the program's context; regs: the thread's user registers. */
static __always_inline __u32 user_stack(void *ctx, const struct pt_regs *regs)
{
	long id;

	if (unwind_dwarf)
		return user_stack_dwarf(regs);
	id = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	if (id >= 0)
		return id;
	if (id == -14 /* EFAULT: no user stack */)
		return STACK_ID_NONE;
	stat_inc(&stats, MEM_STAT_USTACK_ERR);
	return STACK_ID_LOST;
}

/* Count size bytes on the current stack in the active buffer; returns the stack id. */
static __always_inline __u32 count(void *ctx, const struct pt_regs *regs, __u32 src, __u64 size)
{
	__u64 id = bpf_get_current_pid_tgid();
	static const struct mem_count zero;
	struct mem_key key = { .pid = id >> 32, .tid = key_tid ? (__u32)id : 0, .src = src };
	struct mem_count *c;

	bpf_get_current_comm(key.comm, sizeof(key.comm));
	key.ustack_id = user_stack(ctx, regs);
	c = lookup_or_try_init(active & 1 ? (void *)&counts1 : (void *)&counts0, &key, &zero);
	if (c) {
		__sync_fetch_and_add(&c->calls, 1);
		__sync_fetch_and_add(&c->bytes, size);
	} else {
		stat_inc(&stats, MEM_STAT_COUNT_FULL);
	}
	procs_note(key.pid);
	return key.ustack_id;
}

static __always_inline void track(__u64 id, __u64 addr, __u64 size, __u32 stack_id)
{
	struct mem_live_key k = { .pid = id >> 32, .addr = addr };
	struct mem_live v = {
		.size = size, .time_ns = bpf_ktime_get_ns(), .tid = (__u32)id, .ustack_id = stack_id
	};
	long err;

	bpf_get_current_comm(v.comm, sizeof(v.comm));
	err = bpf_map_update_elem(&live, &k, &v, BPF_NOEXIST);
	if (err == -17 /* EEXIST: its free was missed */)
		err = bpf_map_update_elem(&live, &k, &v, BPF_EXIST);
	else if (!err)
		live_pids_add(k.pid, 1);
	if (err)
		stat_inc(&stats, MEM_STAT_LIVE_FULL);
}

/* Returns 0 to have the return probe run (sampled calls only), 1 to skip it. */
static __always_inline int alloc_entry(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx), id = bpf_get_current_pid_tgid();
	__u64 a1 = PT_REGS_PARM1(ctx), a2 = PT_REGS_PARM2(ctx), a3 = PT_REGS_PARM3(ctx);
	__u32 fn = cookie & 0xff, tid = (__u32)id;
	struct pending p = { .fn = fn };
	bool outer = false;

	if (from_allocator(ctx, cookie >> 8, fn)) {
		stat_inc(&stats, MEM_STAT_NESTED);
		return 1;
	}
	switch (fn) {
	case MEM_MALLOC:
	case MEM_VALLOC:
	case MEM_PVALLOC:
		p.size = a1;
		break;
	case MEM_CALLOC:
		p.size = a1 * a2;
		break;
	case MEM_REALLOC:
		forget(id >> 32, a1);
		p.size = a2;
		outer = !a1;
		break;
	case MEM_REALLOCARRAY:
		forget(id >> 32, a1);
		p.size = a2 * a3;
		outer = true;
		break;
	case MEM_POSIX_MEMALIGN:
		p.memptr = a1;
		p.size = a3;
		break;
	default: /* aligned_alloc, memalign */
		p.size = a2;
	}
	if (chained(ctx, tid, p.size, outer)) {
		stat_inc(&stats, MEM_STAT_NESTED);
		return 1;
	}
	if (!p.size)
		return 1;
	stat_inc(&stats, MEM_STAT_CALLS);
	if (!sampled(p.size))
		return 1;
	stat_inc(&stats, MEM_STAT_SAMPLED);
	bpf_map_update_elem(&pending, &tid, &p, BPF_ANY);
	return 0;
}

static __always_inline int alloc_return(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), addr = PT_REGS_RC(ctx);
	__u32 tid = (__u32)id;
	struct pending *pp = bpf_map_lookup_elem(&pending, &tid);
	struct pending p;

	if (!pp)
		return 0;
	p = *pp;
	bpf_map_delete_elem(&pending, &tid);
	if (p.fn == MEM_POSIX_MEMALIGN) {
		if (addr || bpf_probe_read_user(&addr, sizeof(addr), (void *)p.memptr))
			addr = 0;
	}
	if (!addr)
		return 0;
	track(id, addr, p.size, count(ctx, ctx, MEM_SRC_ALLOC, p.size));
	return 0;
}

/* One program for every allocation function: a uprobe session (entry, and return if sampled). */
SEC("uprobe")
int mem_alloc(struct pt_regs *ctx)
{
	return bpf_session_is_return() ? alloc_return(ctx) : alloc_entry(ctx);
}

SEC("uprobe")
int mem_free(struct pt_regs *ctx)
{
	__u64 addr = PT_REGS_PARM1(ctx);

	if (!addr)
		return 0;
	stat_inc(&stats, MEM_STAT_FREES);
	forget(bpf_get_current_pid_tgid() >> 32, addr);
	return 0;
}

static long drop_one(struct bpf_map *map, struct mem_live_key *k, struct mem_live *v, __u32 *pid)
{
	if (k->pid == *pid && bpf_map_delete_elem(map, k) == 0)
		stat_inc(&stats, MEM_STAT_EXIT_FREED);
	return 0;
}

/* The address space is gone: so are its live allocations. */
static __always_inline void drop_process(__u32 pid)
{
	if (!bpf_map_lookup_elem(&live_pids, &pid))
		return;
	bpf_map_delete_elem(&live_pids, &pid);
	bpf_for_each_map_elem(&live, drop_one, &pid, 0);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(mem_exit, struct task_struct *p)
{
	/* signal->live reaches zero when the last thread exits. */
	if (BPF_CORE_READ(p, signal, live.counter) == 0)
		drop_process(BPF_CORE_READ(p, tgid));
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(mem_exec, struct task_struct *p)
{
	drop_process(BPF_CORE_READ(p, tgid));
	return 0;
}

/* Address space from the kernel side: every call counted, none sampled. */
static __always_inline void count_syscall(void *ctx, __u32 src, __u64 bytes)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	/* Uprobes attach to the chosen processes only; these tracepoints see them all. */
	if (!bytes || !pid_wanted(pid))
		return;
	stat_inc(&stats, MEM_STAT_SYSCALLS);
	count(ctx, (const struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf()), src,
	      bytes);
}

SEC("tracepoint/syscalls/sys_enter_mmap")
int mem_mmap(struct trace_event_raw_sys_enter *ctx)
{
	if (ctx->args[3] & 0x20 /* MAP_ANONYMOUS */)
		count_syscall(ctx, MEM_SRC_MMAP, ctx->args[1]);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_munmap")
int mem_munmap(struct trace_event_raw_sys_enter *ctx)
{
	count_syscall(ctx, MEM_SRC_MUNMAP, ctx->args[1]);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_brk")
int mem_brk(struct trace_event_raw_sys_enter *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task_btf();
	__u64 old = BPF_CORE_READ(task, mm, brk), brk = ctx->args[0];

	if (brk > old)
		count_syscall(ctx, MEM_SRC_BRK, brk - old);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
