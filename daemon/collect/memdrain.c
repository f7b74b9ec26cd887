/* SPDX-License-Identifier: BSD-2-Clause */
/* memdrain.c - memory collector: counts to alloc/heap profiles, live entries to the live profile */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/collect/kmaps.h"
#include "lib/log.h"
#include "daemon/collect/memcol.h"
#include "daemon/collect/memsample.h"
#include "daemon/collect/stack.h"
#include "mem.skel.h"

static const char *const src_frames[MEM_SRC_MAX] = { NULL, "[mmap]", "[brk]", "[munmap]" };

/* The map user stack ids refer to: walked with unwind tables, or by frame pointers. */
static int stacks_fd(const struct mem *m)
{
	return bpf_map__fd(m->dwarf ? m->skel->maps.ustacks : m->skel->maps.stacks);
}

static int fold(struct mem *m, uint32_t pid, uint32_t tid, const char *comm, uint32_t stack_id,
		const char *leaf)
{
	struct kmaps_stacks ks;
	int fd = stacks_fd(m), err;

	kmaps_read_stacks(&ks, pid, tid, comm, fd, stack_id, -1, STACK_ID_NONE);
	err = stack_fold(&m->line, m->sym, m->cfg->prefix, &ks.s);
	if (!err && leaf)
		err = sbuf_addch(&m->line, ';') ?: sbuf_addstr(&m->line, leaf);
	return err;
}

static int add_count(struct mem *m, const struct mem_key *k, const struct mem_count *c,
		     double scale, struct window *w)
{
	int kind = k->src == MEM_SRC_ALLOC ? KIND_ALLOC : KIND_HEAP;
	double bytes = c->bytes;
	int err;

	if (k->src >= MEM_SRC_MAX)
		return 0;
	if (k->src == MEM_SRC_ALLOC)
		bytes = memsample_unsample((double)c->bytes / c->calls, m->cfg->mem_sample) *
			c->calls * scale;
	err = fold(m, k->pid, k->tid, k->comm, k->ustack_id, src_frames[k->src]);
	if (err)
		return err;
	w->stats[kind].samples += c->calls;
	return folded_add(w->profiles[kind], m->line.buf, m->line.len, llround(bytes));
}

struct count_drain {
	struct mem *m;
	struct window *w;
	double scale;
};

static int count_entry(void *ctx, const void *key, const void *value)
{
	struct count_drain *d = ctx;

	return add_count(d->m, key, value, d->scale, d->w);
}

struct live_item {
	struct mem_live_key k;
	struct mem_live v;
};

#define LIVE_BATCH 1024

/*
 * Read every live entry. A walk by key restarts from the first key when the one it
 * stands on is freed meanwhile (a free every few microseconds here), reading entries
 * twice: the batch walk goes by bucket and does not. Returns the count (items in *out,
 * to free) or -errno.
 */
static long read_live(int fd, struct live_item **out)
{
	struct mem_live_key keys[LIVE_BATCH];
	struct mem_live vals[LIVE_BATCH];
	size_t cap = LIVE_BATCH, n = 0;
	struct live_item *items = malloc(cap * sizeof(*items));
	__u32 batch = 0;
	void *in = NULL;

	if (!items)
		return -ENOMEM;
	for (;;) {
		__u32 got = LIVE_BATCH;
		int rc = bpf_map_lookup_batch(fd, in, &batch, keys, vals, &got, NULL);

		if (rc && errno != ENOENT) {
			free(items);
			return -errno;
		}
		if (n + got > cap) {
			struct live_item *bigger = realloc(items, 2 * cap * sizeof(*items));

			if (!bigger) {
				free(items);
				return -ENOMEM;
			}
			items = bigger;
			cap *= 2;
		}
		for (__u32 i = 0; i < got; i++)
			items[n++] = (struct live_item){ keys[i], vals[i] };
		if (rc)
			break;
		in = &batch;
	}
	*out = items;
	return n;
}

static int cmp_item(const void *a, const void *b)
{
	const struct live_item *x = a, *y = b;

	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	if (x->v.ustack_id != y->v.ustack_id)
		return x->v.ustack_id < y->v.ustack_id ? -1 : 1;
	return memcmp(x->v.comm, y->v.comm, sizeof(x->v.comm));
}

/* Live bytes older than the configured age, by stack: a fresh profile at every drain. */
static int fold_live(struct mem *m, struct live_item *it, long n, double duty, struct window *w)
{
	uint64_t now = mem_now_ns(), age = m->cfg->mem_age * 1000000000ull;
	struct folded *f = folded_new();
	double bytes = 0;
	uint64_t count = 0;
	int err = 0;

	if (!f)
		return -ENOMEM;
	qsort(it, n, sizeof(*it), cmp_item);
	for (long i = 0; i < n && !err; i++) {
		if (now - it[i].v.time_ns >= age) {
			bytes += memsample_unsample(it[i].v.size, m->cfg->mem_sample) / duty;
			count++;
		}
		if (i + 1 < n && !cmp_item(&it[i], &it[i + 1]))
			continue;
		if (count)
			err = fold(m, it[i].k.pid, it[i].v.tid, it[i].v.comm, it[i].v.ustack_id,
				   NULL)
				      ?: folded_add(f, m->line.buf, m->line.len, llround(bytes));
		w->stats[KIND_LIVE].samples += count;
		bytes = 0;
		count = 0;
	}
	if (err) {
		folded_free(f);
		return err;
	}
	folded_free(w->profiles[KIND_LIVE]);
	w->profiles[KIND_LIVE] = f;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The stack ids live entries and the active count buffer refer to, sorted (*out, to free).
 * Ids are any 32-bit values (a hash of the frames with unwind tables). Returns the count.
 */
static long used_ids(struct mem *m, const struct live_item *it, long n, __u32 **out)
{
	int counts = bpf_map__fd(m->skel->bss->active & 1 ? m->skel->maps.counts1
							  : m->skel->maps.counts0);
	size_t cap = n + bpf_map__max_entries(m->skel->maps.counts0), used = 0;
	__u32 *ids = malloc(cap * sizeof(*ids));
	struct mem_key k, *kp = NULL;

	if (!ids)
		return -ENOMEM;
	for (long i = 0; i < n; i++)
		ids[used++] = it[i].v.ustack_id;
	while (bpf_map_get_next_key(counts, kp, &k) == 0) {
		if (used == cap) { /* entries kept coming: keep every stack this time */
			free(ids);
			return -EAGAIN;
		}
		ids[used++] = k.ustack_id;
		kp = &k;
	}
	qsort(ids, used, sizeof(*ids), cmp_id);
	*out = ids;
	return used;
}

/* Remove the stacks neither a live entry nor the active count buffer refers to. */
static void collect_stacks(struct mem *m, const struct live_item *it, long n)
{
	int fd = stacks_fd(m);
	__u32 size = bpf_map__max_entries(m->dwarf ? m->skel->maps.ustacks : m->skel->maps.stacks);
	__u32 key, *prev = NULL, *used = NULL;
	__u32 *unused = calloc(size, sizeof(*unused));
	long nused = used_ids(m, it, n, &used);
	size_t nunused = 0;

	if (!unused || nused < 0)
		goto cleanup;
	/* Delete after the walk: the next key after a deleted stack id is the first one. */
	while (nunused < size && bpf_map_get_next_key(fd, prev, &key) == 0) {
		if (!bsearch(&key, used, nused, sizeof(*used), cmp_id))
			unused[nunused++] = key;
		prev = &key;
	}
	for (size_t i = 0; i < nunused; i++)
		bpf_map_delete_elem(fd, &unused[i]);
cleanup:
	free(used);
	free(unused);
}

/*
 * This drain's BPF counters: full-map losses to alloc and live (warned), the rest at debug level,
 * and with unwind tables walk counts to alloc (walked 0: not counted). Samples are added elsewhere.
 */
static void report_stats(struct mem *m, struct window *w)
{
	uint64_t d[MEM_STAT_MAX];

	kmaps_stats(bpf_map__fd(m->skel->maps.stats), MEM_STAT_MAX, m->stats_seen, d);
	w->stats[KIND_ALLOC].lost += d[MEM_STAT_COUNT_FULL];
	w->stats[KIND_LIVE].lost += d[MEM_STAT_LIVE_FULL];
	if (d[MEM_STAT_COUNT_FULL] || d[MEM_STAT_LIVE_FULL])
		log_warn("memory: %llu allocations not counted (count map full), %llu not tracked "
			 "(live map full)",
			 (unsigned long long)d[MEM_STAT_COUNT_FULL],
			 (unsigned long long)d[MEM_STAT_LIVE_FULL]);
	log_debug("memory: %llu calls, %llu sampled, %llu nested, %llu frees (%llu tracked), "
		  "%llu dropped at exit, %llu syscalls, %llu user stacks lost",
		  (unsigned long long)d[MEM_STAT_CALLS], (unsigned long long)d[MEM_STAT_SAMPLED],
		  (unsigned long long)d[MEM_STAT_NESTED], (unsigned long long)d[MEM_STAT_FREES],
		  (unsigned long long)d[MEM_STAT_FREED], (unsigned long long)d[MEM_STAT_EXIT_FREED],
		  (unsigned long long)d[MEM_STAT_SYSCALLS],
		  (unsigned long long)d[MEM_STAT_USTACK_ERR]);
	if (m->dwarf)
		unwind_count_walks("memory",
				   &(struct unwind_walks){
					   0,
					   d[MEM_STAT_UNW_COMPLETE],
					   d[MEM_STAT_UNW_CUT],
					   d[MEM_STAT_UNW_FP],
					   d[MEM_STAT_UNW_NO_PROC],
				   },
				   &w->stats[KIND_ALLOC]);
}

int mem_drain(struct collector *c, struct window *w)
{
	struct mem *m = (struct mem *)c;
	struct mem_bpf *skel = m->skel;
	struct count_drain d = { m, w, 1 };
	struct live_item *items = NULL;
	uint64_t on_ns, elapsed_ns;
	double duty;
	__u32 idle;
	long n;
	int err;

	mem_take_on_time(m, &on_ns, &elapsed_ns, &duty);
	idle = kmaps_flip(&skel->bss->active);
	if (on_ns)
		d.scale = (double)elapsed_ns / on_ns;
	err = kmaps_drain_raw(bpf_map__fd(idle ? skel->maps.counts1 : skel->maps.counts0),
			      sizeof(struct mem_key), sizeof(struct mem_count), count_entry, &d);
	n = read_live(bpf_map__fd(skel->maps.live), &items);
	if (n < 0)
		return err ?: n;
	if (!err)
		err = fold_live(m, items, n, duty > 0 ? duty : 1, w);
	collect_stacks(m, items, n);
	free(items);
	report_stats(m, w);
	return err;
}
