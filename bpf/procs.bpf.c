// SPDX-License-Identifier: GPL-2.0-only
/* procs.bpf.c - report exec and exit of processes a collector has seen */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpf/common.h"
#include "bpf/procs.bpf.h"

static __always_inline void forget(__u32 type)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32;

	if ((__u32)id != pid) /* threads other than the leader */
		return;
	if (bpf_map_delete_elem(&procs_seen, &pid) == 0)
		procs_emit(type, pid);
}

/* tp_btf needs no tracefs mount, unlike tp/. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(procs_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	forget(EMBER_PROC_EXEC);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(procs_exit, struct task_struct *p)
{
	forget(EMBER_PROC_EXIT);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
