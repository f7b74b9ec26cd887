/* SPDX-License-Identifier: GPL-2.0-only */
/* procs.bpf.h - first-sight tracking of processes, shared by every collector */
#ifndef EMBER_PROCS_BPF_H
#define EMBER_PROCS_BPF_H

/*
 * Each BPF object declares these maps; the loader makes all of them share the
 * instances created by procs.bpf.c (bpf_map__reuse_fd), so a process is
 * reported once for the whole daemon.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} procs_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1024 * 1024);
} procs_events SEC(".maps");

static __always_inline void procs_emit(__u32 type, __u32 pid)
{
	struct ember_proc_event *e = bpf_ringbuf_reserve(&procs_events, sizeof(*e), 0);

	if (!e)
		return;
	e->type = type;
	e->pid = pid;
	bpf_ringbuf_submit(e, 0);
}

/*
 * Between exec's switch to the new address space and the new image's first
 * instruction, the saved user registers still hold the old image's: an address
 * in mappings that are gone, no user stack. The new mm gets its code range
 * (start_code) just before the registers are reset (load_elf_binary).
 */
static __always_inline bool procs_exec_limbo(struct task_struct *task)
{
	struct mm_struct *mm;

	if (!bpf_core_field_exists(task->in_execve) ||
	    !BPF_CORE_READ_BITFIELD_PROBED(task, in_execve))
		return false;
	mm = BPF_CORE_READ(task, mm);
	return mm && !BPF_CORE_READ(mm, start_code);
}

#define PROCS_PF_EXITING 0x00000004

/*
 * Report pid the first time it is seen. A task past its exit tracepoint is not
 * new: its process was reported, and its mappings sent, already.
 */
static __always_inline void procs_note(__u32 pid)
{
	struct task_struct *task;
	__u8 one = 1;

	if (bpf_map_lookup_elem(&procs_seen, &pid))
		return;
	task = (struct task_struct *)bpf_get_current_task_btf();
	if ((bpf_get_current_pid_tgid() >> 32) == pid && (task->flags & PROCS_PF_EXITING))
		return;
	if (bpf_map_update_elem(&procs_seen, &pid, &one, BPF_NOEXIST) == 0)
		procs_emit(EMBER_PROC_NEW, pid);
}

#endif
