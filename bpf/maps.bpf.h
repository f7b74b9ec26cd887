/* SPDX-License-Identifier: GPL-2.0-only */
/* maps.bpf.h - small helpers over BPF maps */
#ifndef EMBER_MAPS_BPF_H
#define EMBER_MAPS_BPF_H

/* Return the value for key, inserting init first when absent; NULL when the map is full. */
static __always_inline void *lookup_or_try_init(void *map, const void *key, const void *init)
{
	void *val = bpf_map_lookup_elem(map, key);
	long err;

	if (val)
		return val;
	err = bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	if (err && err != -17 /* EEXIST: another CPU won the race */)
		return NULL;
	return bpf_map_lookup_elem(map, key);
}

static __always_inline void stat_inc(void *stats_map, __u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(stats_map, &slot);

	if (v)
		(*v)++;
}

#endif
