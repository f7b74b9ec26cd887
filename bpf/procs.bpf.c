// SPDX-License-Identifier: GPL-2.0-only
/* procs.bpf.c - report exec and exit of processes a collector has seen, with their mappings at exit */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpf/common.h"
#include "bpf/procs.bpf.h"

#define VM_EXEC 0x00000004
#define PAGE_SHIFT 12

extern int bpf_iter_task_vma_new(struct bpf_iter_task_vma *it, struct task_struct *task,
				 __u64 addr) __weak __ksym;
extern struct vm_area_struct *bpf_iter_task_vma_next(struct bpf_iter_task_vma *it) __weak __ksym;
extern void bpf_iter_task_vma_destroy(struct bpf_iter_task_vma *it) __weak __ksym;

/* Kernels before 6.7 keep the modification time as a timespec64. */
struct inode___old {
	struct timespec64 i_mtime;
} __attribute__((preserve_access_index));

/* Too big for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ember_proc_exit);
} procs_scratch SEC(".maps");

static __always_inline __s64 inode_mtime_ns(struct inode *inode)
{
	struct inode___old *old = (void *)inode;

	if (bpf_core_field_exists(inode->i_mtime_sec))
		return BPF_CORE_READ(inode, i_mtime_sec) * 1000000000ll +
		       BPF_CORE_READ(inode, i_mtime_nsec);
	return BPF_CORE_READ(old, i_mtime.tv_sec) * 1000000000ll +
	       BPF_CORE_READ(old, i_mtime.tv_nsec);
}

static __always_inline void vma_fill(struct ember_vma *v, struct vm_area_struct *vma, __u64 vdso)
{
	struct file *file = BPF_CORE_READ(vma, vm_file);
	struct inode *inode;
	__u64 dev;

	v->start = BPF_CORE_READ(vma, vm_start);
	v->end = BPF_CORE_READ(vma, vm_end);
	v->pgoff = BPF_CORE_READ(vma, vm_pgoff) << PAGE_SHIFT;
	v->ino = v->size = v->mtime_ns = v->dev = 0;
	if (!file) {
		v->kind = v->start == vdso ? EMBER_VMA_VDSO : EMBER_VMA_ANON;
		return;
	}
	inode = BPF_CORE_READ(file, f_inode);
	dev = BPF_CORE_READ(inode, i_sb, s_dev);
	v->kind = EMBER_VMA_FILE;
	v->ino = BPF_CORE_READ(inode, i_ino);
	v->size = BPF_CORE_READ(inode, i_size);
	v->mtime_ns = inode_mtime_ns(inode);
	v->dev = (__u32)dev;
}

/* The executable mappings of the exiting process, while its mm still exists. */
static __always_inline void send_exit(__u32 pid)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct bpf_iter_task_vma it;
	struct vm_area_struct *vma;
	struct ember_proc_exit *e;
	__u32 zero = 0, n = 0;
	__u64 vdso;

	e = bpf_map_lookup_elem(&procs_scratch, &zero);
	if (!e)
		return;
	e->hdr.type = EMBER_PROC_EXIT;
	e->hdr.pid = pid;
	e->truncated = 0;
	vdso = (__u64)BPF_CORE_READ(task, mm, context.vdso);
	bpf_iter_task_vma_new(&it, task, 0);
	while ((vma = bpf_iter_task_vma_next(&it))) {
		if (!(BPF_CORE_READ(vma, vm_flags) & VM_EXEC))
			continue;
		if (n >= EMBER_PROC_MAX_VMAS) {
			e->truncated = 1;
			break;
		}
		vma_fill(&e->vmas[n], vma, vdso);
		n++;
	}
	bpf_iter_task_vma_destroy(&it);
	e->nvmas = n;
	bpf_ringbuf_output(&procs_events, e,
			   offsetof(struct ember_proc_exit, vmas) + n * sizeof(struct ember_vma),
			   0);
}

/* tp_btf needs no tracefs mount, unlike tp/. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(procs_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	/* exec makes the calling thread the leader: its mappings are new. */
	if (bpf_map_delete_elem(&procs_seen, &pid) == 0)
		procs_emit(EMBER_PROC_EXEC, pid);
	return 0;
}

/*
 * Recent kernels fire this tracepoint before exit_mm(), so the mappings can be
 * read; on older ones task->mm is gone, the iterator yields nothing and the
 * exit is sent alone. Only the last thread's exit ends the process:
 * signal->live counts the others.
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(procs_exit, struct task_struct *p)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct task_struct *task = bpf_get_current_task_btf();

	if (BPF_CORE_READ(task, signal, live.counter) != 0)
		return 0;
	if (bpf_map_delete_elem(&procs_seen, &pid) == 0)
		send_exit(pid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
