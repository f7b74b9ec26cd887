/* SPDX-License-Identifier: GPL-2.0-only */
/* pids.bpf.h - the process filter (-p) every collector applies; the loader fills `pids` */
#ifndef EMBER_PIDS_BPF_H
#define EMBER_PIDS_BPF_H

const volatile bool filter_pids = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_FILTER_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/* The process pid is profiled: no filter, or it is one of the chosen. */
static __always_inline bool pid_wanted(__u32 pid)
{
	return !filter_pids || bpf_map_lookup_elem(&pids, &pid);
}

#endif
