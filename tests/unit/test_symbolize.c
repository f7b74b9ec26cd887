/* SPDX-License-Identifier: BSD-2-Clause */
/* test_symbolize.c - the symbolizer end to end, on fixture processes of known layout */
#include <errno.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "symbolize/elfsyms.h"
#include "symbolize/symbolize.h"
#include "tests/unit/fixture_sym.h"
#include "tests/unit/harness.h"

static const char *const fx_main_names[] = {
	"ember_fx_alpha",         "ember_fx_beta", "ember_fx_local", "mycrate::module::function",
	"mycrate::module::other",
};

static struct symbolizer *new_sym(int demangle)
{
	static char root[2048];
	struct symbolizer_opts o = { .demangle = demangle, .refresh_ms = -1 };

	fx_path(root, sizeof(root), "debugroot");
	o.debug_root = root;
	return symbolizer_new(&o);
}

/* The frames of a stack as one string, without the last ';'. */
static const char *sym_stack(struct symbolizer *s, pid_t pid, const uint64_t *ips, int n,
			     int kernel)
{
	static struct sbuf sb;
	int r;

	sbuf_release(&sb);
	r = symbolizer_append_stack(s, (uint32_t)pid, ips, n, kernel, &sb);
	if (r < 0 || !sb.len)
		return r < 0 ? "(error)" : "";
	sb.buf[--sb.len] = '\0';
	return sb.buf;
}

static const char *sym1(struct symbolizer *s, pid_t pid, uint64_t addr)
{
	return sym_stack(s, pid, &addr, 1, 0);
}

static void check_fixture(const char *bin)
{
	struct symbolizer *s = new_sym(1);
	struct fx_proc fp;

	ASSERT_TRUE(s);
	ASSERT_EQ_INT(fx_spawn(&fp, bin), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp.pid), 0);
	for (size_t i = 0; i < sizeof(fx_main_names) / sizeof(fx_main_names[0]); i++)
		ASSERT_EQ_STR(sym1(s, fp.pid, fx_addr(&fp, fx_main_names[i])), fx_main_names[i]);
	fx_reap(&fp);
	symbolizer_free(s);
}

TEST(pie_executable_named)
{
	check_fixture("fx_pie");
}

TEST(non_pie_executable_named)
{
	check_fixture("fx_nopie");
}

TEST(stripped_with_debug_file_by_build_id)
{
	check_fixture("fx_buildid");
}

TEST(stripped_with_debuglink)
{
	check_fixture("fx_debuglink");
}

TEST(stripped_with_minidebuginfo)
{
	check_fixture("fx_mini");
}

/* Inlined frames: some address of ember_fx_outer is in the inlined function, its entry is not. */
static void check_inlines(const char *bin, int inlines)
{
	static char root[2048];
	struct symbolizer_opts o = { .demangle = 1, .inlines = inlines, .refresh_ms = -1 };
	struct symbolizer *s;
	struct fx_proc fp;
	uint64_t a;
	int found = 0;

	fx_path(root, sizeof(root), "debugroot");
	o.debug_root = root;
	s = symbolizer_new(&o);
	ASSERT_TRUE(s);
	ASSERT_EQ_INT(fx_spawn(&fp, bin), 0);
	a = fx_addr(&fp, "ember_fx_outer");
	ASSERT_EQ_STR(sym1(s, fp.pid, a), "ember_fx_outer");
	for (uint64_t off = 0; off < 0x80 && !found; off++)
		found = !strcmp(sym1(s, fp.pid, a + off), "ember_fx_outer;ember_fx_inlined_[i]");
	ASSERT_EQ_INT(found, inlines);
	fx_reap(&fp);
	symbolizer_free(s);
}

TEST(inlined_frames_from_dwarf_when_asked)
{
	check_inlines("fx_pie", 1);
	check_inlines("fx_buildid", 1); /* DWARF from the debug file found by build-id */
	check_inlines("fx_pie", 0);
}

/* Start of the first mapping of the file whose path ends in name (its offset 0). */
static uint64_t map_base(pid_t pid, const char *name)
{
	char path[64], line[1024];
	uint64_t start = 0, lo, off;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n"), nl = strlen(name);

		if (len > nl && !strncmp(line + len - nl, name, nl) &&
		    sscanf(line, "%" SCNx64 "-%*x %*s %" SCNx64, &lo, &off) == 2 && off == 0) {
			start = lo;
			break;
		}
	}
	if (f)
		fclose(f);
	return start;
}

TEST(wrong_crc_debug_file_is_not_used)
{
	struct symbolizer *s = new_sym(1);
	char want[64];
	struct fx_proc fp;
	uint64_t a;

	ASSERT_EQ_INT(fx_spawn(&fp, "fx_badcrc"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp.pid), 0);
	/* No symbol known: module+0xVADDR (a PIE is linked at 0), never another build's name. */
	a = fx_addr(&fp, "ember_fx_alpha");
	snprintf(want, sizeof(want), "fx_badcrc+0x%" PRIx64, a - map_base(fp.pid, "/fx_badcrc"));
	ASSERT_EQ_STR(sym1(s, fp.pid, a), want);
	fx_reap(&fp);
	symbolizer_free(s);
}

/* A debuglink candidate reached through a symlink is never opened (it could point anywhere). */
TEST(symlinked_debuglink_file_is_not_used)
{
	struct symbolizer *s = new_sym(1);
	char dir[2048], want[64];
	struct fx_proc fp;
	uint64_t a;

	fx_path(dir, sizeof(dir), "linktest");
	ASSERT_EQ_INT(setenv("FX_LINKTEST", dir, 1), 0);
	ASSERT_EQ_INT(system("D=$FX_LINKTEST && rm -rf \"$D\" && mkdir \"$D\" && "
			     "cp \"$D/../fx_debuglink\" \"$D/\" && "
			     "ln -s \"$D/../fx_debuglink.debug\" \"$D/fx_debuglink.debug\""),
		      0);
	ASSERT_EQ_INT(fx_spawn(&fp, "linktest/fx_debuglink"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp.pid), 0);
	a = fx_addr(&fp, "ember_fx_alpha");
	snprintf(want, sizeof(want), "fx_debuglink+0x%" PRIx64,
		 a - map_base(fp.pid, "/linktest/fx_debuglink"));
	ASSERT_EQ_STR(sym1(s, fp.pid, a), want);
	fx_reap(&fp);
	symbolizer_free(s);
	ASSERT_EQ_INT(system("rm -rf \"$FX_LINKTEST\""), 0);
}

TEST(stack_root_first_callers_as_return_addresses)
{
	struct symbolizer *s = new_sym(1);
	struct symbolizer_stats st;
	struct fx_proc fp;
	uint64_t ips[4];

	ASSERT_EQ_INT(fx_spawn(&fp, "fx_pie"), 0);
	/* A caller's address is a return address: one past the call, maybe past the end. */
	ips[0] = fx_addr(&fp, "ember_fx_alpha");
	ips[1] = fx_addr(&fp, "ember_fx_beta"); /* beta+1: its first byte is the call */
	ips[2] = fx_addr(&fp, "ember_fx_alpha") -
		 2; /* alpha+0 as a return address: the byte before */
	ips[3] = 0; /* padding */
	ASSERT_EQ_STR(sym_stack(s, fp.pid, ips, 2, 0), "ember_fx_beta;ember_fx_alpha");
	/* alpha's first byte as a return address belongs to whatever precedes alpha. */
	ASSERT_TRUE(strncmp(sym_stack(s, fp.pid, ips, 3, 0), "ember_fx_alpha;", 15) != 0);
	ASSERT_EQ_STR(sym_stack(s, fp.pid, (uint64_t[]){ ips[0], ips[1], 0 }, 3, 0),
		      "ember_fx_beta;ember_fx_alpha");
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.frames, 2 + 3 + 2);
	fx_reap(&fp);
	symbolizer_free(s);
}

TEST(cpp_library_loaded_with_dlopen_demangled)
{
	struct symbolizer *s = new_sym(1), *raw = new_sym(0);
	static const char *const names[] = { "ember::twice(int)",
					     "double ember::scale<double>(double)",
					     "ember::Widget::spin(long)" };
	char cmd[1100];
	struct fx_proc fp;

	ASSERT_EQ_INT(fx_spawn(&fp, "fx_pie"), 0);
	/* The maps are read before the library exists: a miss rereads them. */
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp.pid), 0);
	snprintf(cmd, sizeof(cmd), "dlopen %.1000s/fx_lib.so", fx_dir());
	ASSERT_EQ_INT(fx_cmd(&fp, cmd), 0);
	for (size_t i = 0; i < 3; i++)
		ASSERT_EQ_STR(sym1(s, fp.pid, fx_addr(&fp, names[i])), names[i]);
	ASSERT_EQ_STR(sym1(raw, fp.pid, fx_addr(&fp, names[0])), "_ZN5ember5twiceEi");
	ASSERT_EQ_STR(sym1(raw, fp.pid, fx_addr(&fp, "mycrate::module::function")),
		      "_ZN7mycrate6module8function17h0123456789abcdefE");
	ASSERT_EQ_STR(sym1(raw, fp.pid, fx_addr(&fp, "mycrate::module::other")),
		      "_RNvNtCs1234_7mycrate6module5other");
	fx_reap(&fp);
	symbolizer_free(s);
	symbolizer_free(raw);
}

/*
 * A process that exited stays named for the rest of its window and the next one, whether
 * its exit was reported (NOTE_EXIT) or noticed at the end of the window; then it is dropped.
 */
static void check_named_one_window_after_exit(const char *fixture, const char *fn, int note_exit)
{
	struct symbolizer *s = new_sym(1);
	struct symbolizer_stats st;
	struct fx_proc fp;
	uint64_t a;
	pid_t pid;

	ASSERT_EQ_INT(fx_spawn(&fp, fixture), 0);
	pid = fp.pid;
	a = fx_addr(&fp, fn);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)pid), 0);
	fx_reap(&fp);
	if (note_exit) {
		symbolizer_note_exit(s, (uint32_t)pid);
		ASSERT_EQ_STR(sym1(s, pid, a), fn);
	}
	symbolizer_end_window(s);
	ASSERT_EQ_STR(sym1(s, pid, a), fn);
	symbolizer_end_window(s);
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.procs, 0);
	ASSERT_EQ_STR(sym1(s, pid, a), "[unknown]");
	symbolizer_free(s);
}

TEST(named_after_exit_until_the_window_after)
{
	check_named_one_window_after_exit("fx_buildid", "ember_fx_local", 1);
}

TEST(exit_noticed_without_note_exit)
{
	check_named_one_window_after_exit("fx_pie", "ember_fx_alpha", 0);
}

/* The executable mappings of a live process as the kernel reports them at exit. */
static int exit_vmas(pid_t pid, struct symbolizer_vma *v, int cap)
{
	struct procmap *maps;
	int n = procmaps_read((uint32_t)pid, &maps), k = 0;
	struct stat st;

	for (int i = 0; i < n && k < cap; i++) {
		if (maps[i].kind == PROCMAP_FILE && stat(maps[i].path, &st))
			continue;
		v[k] = (struct symbolizer_vma){
			.start = maps[i].start,
			.end = maps[i].end,
			.pgoff = maps[i].pgoff,
			.kind = maps[i].kind,
		};
		if (maps[i].kind == PROCMAP_FILE) {
			v[k].dev = st.st_dev;
			v[k].ino = st.st_ino;
			v[k].size = (uint64_t)st.st_size;
			v[k].mtime_ns = st.st_mtim.tv_sec * 1000000000ll + st.st_mtim.tv_nsec;
		}
		k++;
	}
	procmaps_free(maps, n > 0 ? n : 0);
	return k;
}

TEST(exit_maps_name_a_process_never_seen_alive)
{
	struct symbolizer *s = new_sym(1);
	struct symbolizer_vma v[64];
	struct fx_proc seen, unseen;
	uint64_t a;
	pid_t pid;
	int n;

	ASSERT_EQ_INT(fx_spawn(&seen, "fx_pie"), 0);
	ASSERT_EQ_INT(fx_spawn(&unseen, "fx_pie"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)seen.pid), 0); /* reads fx_pie once */
	pid = unseen.pid;
	a = fx_addr(&unseen, "ember_fx_alpha");
	n = exit_vmas(pid, v, 64);
	ASSERT_TRUE(n > 0);
	fx_reap(&unseen);
	ASSERT_EQ_STR(sym1(s, pid, a), "[unknown]"); /* gone, and no exit record */
	ASSERT_EQ_INT(symbolizer_note_exit_maps(s, (uint32_t)pid, v, n, 1), 0);
	ASSERT_EQ_STR(sym1(s, pid, a), "ember_fx_alpha");
	/* A truncated list does not replace maps the process has. */
	ASSERT_EQ_INT(symbolizer_note_exit_maps(s, (uint32_t)pid, v, 1, 0), 0);
	ASSERT_EQ_STR(sym1(s, pid, a), "ember_fx_alpha");
	/* A file never read before cannot be named: the frame says so. */
	for (int i = 0; i < n; i++)
		v[i].ino ^= 0x5a5a5a;
	ASSERT_EQ_INT(symbolizer_note_exit_maps(s, (uint32_t)pid, v, n, 1), 0);
	ASSERT_EQ_STR(sym1(s, pid, a), "[unknown]");
	/* Overlapping or empty mappings are refused. */
	v[1].start = v[0].start;
	ASSERT_EQ_INT(symbolizer_note_exit_maps(s, (uint32_t)pid, v, n, 1), -EINVAL);
	fx_reap(&seen);
	symbolizer_free(s);
}

struct sync_env {
	struct symbolizer *s;
	pid_t pid;
	struct symbolizer_vma v[64];
	int n, calls;
};

static void deliver_exit(void *ctx)
{
	struct sync_env *e = ctx;

	e->calls++;
	symbolizer_note_exit_maps(e->s, (uint32_t)e->pid, e->v, e->n, 1);
}

TEST(gone_at_first_sight_waits_for_the_exit_record)
{
	struct sync_env e = { .s = new_sym(1) };
	struct fx_proc fp, other;
	uint64_t a;

	ASSERT_EQ_INT(fx_spawn(&other, "fx_buildid"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(e.s, (uint32_t)other.pid), 0);
	ASSERT_EQ_INT(fx_spawn(&fp, "fx_buildid"), 0);
	e.pid = fp.pid;
	a = fx_addr(&fp, "ember_fx_local");
	e.n = exit_vmas(fp.pid, e.v, 64);
	fx_reap(&fp);
	symbolizer_set_sync(e.s, deliver_exit, &e);
	ASSERT_EQ_STR(sym1(e.s, e.pid, a), "ember_fx_local");
	ASSERT_EQ_INT(e.calls, 1);
	/* A late first-sample report of the exited process keeps what it left. */
	ASSERT_TRUE(symbolizer_note_pid(e.s, (uint32_t)e.pid) < 0);
	ASSERT_EQ_STR(sym1(e.s, e.pid, a), "ember_fx_local");
	ASSERT_EQ_INT(e.calls, 1);
	fx_reap(&other);
	symbolizer_free(e.s);
}

TEST(unmapped_address_is_unknown_and_counted)
{
	struct symbolizer *s = new_sym(1);
	struct symbolizer_stats st;
	uint64_t ips[2] = { 0x10, (uint64_t)(uintptr_t)&new_sym + 1 };

	ASSERT_EQ_STR(sym_stack(s, getpid(), ips, 2, 0), "new_sym;[unknown]");
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.frames, 2);
	ASSERT_EQ_INT(st.named, 1);
	symbolizer_free(s);
}

TEST(gone_process_is_unknown)
{
	struct symbolizer *s = new_sym(1);
	struct fx_proc fp;
	uint64_t a;
	pid_t pid;

	ASSERT_EQ_INT(fx_spawn(&fp, "fx_pie"), 0);
	pid = fp.pid;
	a = fx_addr(&fp, "ember_fx_alpha");
	fx_reap(&fp);
	ASSERT_TRUE(symbolizer_note_pid(s, (uint32_t)pid) < 0);
	ASSERT_EQ_STR(sym1(s, pid, a), "[unknown]");
	symbolizer_free(s);
}

/* ELF files are read at the first address looked up in them, once for all processes. */
TEST(files_read_once_and_only_when_needed)
{
	struct symbolizer *s = new_sym(1);
	struct symbolizer_stats seen, one, three, other;
	struct fx_proc fp[4];

	for (int i = 0; i < 3; i++)
		ASSERT_EQ_INT(fx_spawn(&fp[i], "fx_pie"), 0);
	ASSERT_EQ_INT(fx_spawn(&fp[3], "fx_nopie"), 0);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp[i].pid), 0);
	symbolizer_get_stats(s, &seen);
	ASSERT_EQ_INT(seen.elf_loads, 0);
	ASSERT_TRUE(seen.dsos_pending >= 4); /* fx_pie, fx_nopie, libc, ld.so */
	ASSERT_EQ_STR(sym1(s, fp[0].pid, fx_addr(&fp[0], "ember_fx_alpha")), "ember_fx_alpha");
	symbolizer_get_stats(s, &one);
	ASSERT_EQ_INT(one.elf_loads, 1);
	ASSERT_EQ_INT(one.dsos_pending, seen.dsos_pending - 1);
	for (int i = 1; i < 3; i++)
		ASSERT_EQ_STR(sym1(s, fp[i].pid, fx_addr(&fp[i], "ember_fx_beta")),
			      "ember_fx_beta");
	symbolizer_get_stats(s, &three);
	ASSERT_EQ_INT(three.elf_loads, 1);
	ASSERT_EQ_STR(sym1(s, fp[3].pid, fx_addr(&fp[3], "ember_fx_alpha")), "ember_fx_alpha");
	symbolizer_get_stats(s, &other);
	ASSERT_EQ_INT(other.elf_loads, 2); /* only fx_nopie is new; libc was never needed */
	ASSERT_EQ_INT(other.procs, 4);
	ASSERT_EQ_INT(other.max_procs, 8192);
	ASSERT_TRUE(other.max_dsos > 0);
	ASSERT_TRUE(other.cache_bytes > 0);
	for (int i = 0; i < 4; i++)
		fx_reap(&fp[i]);
	symbolizer_free(s);
}

TEST(process_cap_trims_least_recent_live_processes)
{
	struct symbolizer_opts o = { .demangle = 1, .max_procs = 2, .max_dsos = 1 };
	struct symbolizer *s = symbolizer_new(&o);
	struct symbolizer_stats st;
	struct fx_proc fp[4];

	for (int i = 0; i < 4; i++) {
		ASSERT_EQ_INT(fx_spawn(&fp[i], "fx_pie"), 0);
		ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp[i].pid), 0);
	}
	symbolizer_end_window(s);
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.procs, 2);
	/* An evicted live process is read again at its next sample. */
	ASSERT_EQ_STR(sym1(s, fp[0].pid, fx_addr(&fp[0], "ember_fx_beta")), "ember_fx_beta");
	for (int i = 0; i < 4; i++)
		fx_reap(&fp[i]);
	symbolizer_end_window(s);
	symbolizer_end_window(s);
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.procs, 0);
	ASSERT_TRUE(st.dsos <= 1);
	symbolizer_free(s);
}

/* 200,000 exit records in one window never hold more than the cap, and the newest stay. */
TEST(process_cap_holds_under_exit_churn)
{
	struct symbolizer_opts o = { .max_procs = 100 };
	struct symbolizer *s = symbolizer_new(&o);
	struct symbolizer_vma v = { .start = 0x400000, .end = 0x401000 };
	struct symbolizer_stats st;

	ASSERT_TRUE(s);
	for (uint32_t pid = 1000000; pid < 1200000; pid++)
		ASSERT_EQ_INT(symbolizer_note_exit_maps(s, pid, &v, 1, 1), 0);
	symbolizer_get_stats(s, &st);
	ASSERT_TRUE(st.procs <= 100);
	ASSERT_EQ_INT(st.procs_evicted, 200000 - st.procs);
	symbolizer_free(s);
}

/*
 * A user's copy of a binary, same build-id, fake symbols: read first, it must not name the
 * frames of the real (root's) file.
 */
TEST(build_id_shared_only_between_files_alike)
{
	struct symbolizer *s = new_sym(1);
	struct fx_proc fake, real;
	char dir[2048];

	fx_path(dir, sizeof(dir), "trusttest"); /* chown needs root, as the tests run */
	ASSERT_EQ_INT(setenv("FX_TRUSTTEST", dir, 1), 0);
	ASSERT_EQ_INT(system("D=$FX_TRUSTTEST && rm -rf \"$D\" && mkdir \"$D\" && "
			     "perl -pe 's/ember_fx_alpha/ember_fx_ALPHA/g' \"$D/../fx_pie\" "
			     ">\"$D/fx_pie\" && chmod 755 \"$D/fx_pie\" && "
			     "chown 4242:4242 \"$D/fx_pie\""),
		      0);
	ASSERT_EQ_INT(fx_spawn(&fake, "trusttest/fx_pie"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fake.pid), 0);
	ASSERT_EQ_STR(sym1(s, fake.pid, fx_addr(&fake, "ember_fx_ALPHA")), "ember_fx_ALPHA");
	ASSERT_EQ_INT(fx_spawn(&real, "fx_pie"), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)real.pid), 0);
	ASSERT_EQ_STR(sym1(s, real.pid, fx_addr(&real, "ember_fx_alpha")), "ember_fx_alpha");
	fx_reap(&fake);
	fx_reap(&real);
	symbolizer_free(s);
	ASSERT_EQ_INT(system("rm -rf \"$FX_TRUSTTEST\""), 0);
}

TEST(binary_replaced_while_running)
{
	char src[2048], dir[] = "/tmp/ember-symtest-XXXXXX", dst[64], cmd[4400];
	struct symbolizer *s;
	struct fx_proc fp;

	if (geteuid() != 0)
		SKIP("/proc/PID/map_files needs root");
	s = new_sym(1);
	ASSERT_TRUE(mkdtemp(dir));
	fx_path(src, sizeof(src), "fx_pie");
	snprintf(dst, sizeof(dst), "%s/fx_copy", dir);
	snprintf(cmd, sizeof(cmd), "cp %.2048s %.64s && chmod 755 %.64s", src, dst, dst);
	ASSERT_EQ_INT(system(cmd), 0);
	{
		/* fx_spawn runs fixtures by name: run the copy through a path relative to them. */
		char rel[128];

		snprintf(rel, sizeof(rel), "../../../../../../../../..%s", dst);
		ASSERT_EQ_INT(fx_spawn(&fp, rel), 0);
	}
	/* Replace the file on disk by another program before the first sample. */
	fx_path(src, sizeof(src), "fx_nopie");
	snprintf(cmd, sizeof(cmd), "cp %.2048s %.64s.new && mv -f %.64s.new %.64s", src, dst, dst,
		 dst);
	ASSERT_EQ_INT(system(cmd), 0);
	ASSERT_EQ_INT(symbolizer_note_pid(s, (uint32_t)fp.pid), 0);
	ASSERT_EQ_STR(sym1(s, fp.pid, fx_addr(&fp, "ember_fx_local")), "ember_fx_local");
	fx_reap(&fp);
	unlink(dst);
	rmdir(dir);
	symbolizer_free(s);
}

TEST(vdso_named)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), v0, ip = 0;
	struct symbolizer *s = new_sym(1);
	struct elfsyms *es;
	size_t i;

	ASSERT_TRUE(base != 0);
	/* Our own vDSO: an address inside its clock_gettime. */
	ASSERT_EQ_INT(elfsyms_load_mem((void *)base, 8192, &es), 0);
	ASSERT_EQ_INT(elfsyms_off_to_vaddr(es, 0, &v0), 0);
	for (i = 0; i < elfsyms_count(es); i++)
		if (strstr(elfsyms_name(es, (long)i), "clock_gettime"))
			break;
	ASSERT_TRUE(i < elfsyms_count(es));
	ip = base + elfsyms_addr(es, (long)i) - v0 + 1;
	ASSERT_TRUE(strstr(sym1(s, getpid(), ip), "clock_gettime") != NULL);
	elfsyms_free(es);
	symbolizer_free(s);
}

/* A perf map for our own process in a private directory, and anonymous executable memory. */
struct jit_env {
	char dir[64], map[128];
	void *code;
	struct symbolizer *s;
};

static void jit_setup(struct jit_env *j)
{
	struct symbolizer_opts o = { .demangle = 1, .refresh_ms = -1 };

	snprintf(j->dir, sizeof(j->dir), "/tmp/ember-perfmap-XXXXXX");
	ASSERT_TRUE(mkdtemp(j->dir));
	snprintf(j->map, sizeof(j->map), "%s/perf-%d.map", j->dir, (int)getpid());
	j->code = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(j->code != MAP_FAILED);
	o.perfmap_dir = j->dir;
	j->s = symbolizer_new(&o);
	ASSERT_TRUE(j->s);
}

static void jit_teardown(struct jit_env *j)
{
	symbolizer_free(j->s);
	munmap(j->code, 8192);
	unlink(j->map);
	rmdir(j->dir);
}

static void jit_write(struct jit_env *j, const char *mode, const char *text)
{
	FILE *f = fopen(j->map, mode);

	ASSERT_TRUE(f);
	fputs(text, f);
	fclose(f);
}

TEST(jit_frames_from_perf_map_reread_when_grown)
{
	struct jit_env j;
	uint64_t c;
	char line[256];

	jit_setup(&j);
	c = (uint64_t)(uintptr_t)j.code;
	snprintf(line, sizeof(line), "%" PRIx64 " 40 LazyCompile:*fib /app/x.js:1\n", c);
	jit_write(&j, "w", line);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 8), "LazyCompile:*fib /app/x.js:1_[j]");
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 0x200), "[unknown]");
	/* Appended later (and a name with the frame separator in it). */
	snprintf(line, sizeof(line), "0x%" PRIx64 " 0x20 weird;name\n", c + 0x200);
	jit_write(&j, "a", line);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 0x210), "weird:name_[j]");
	/* A name ending in a number would make a leaf read as a differential count (the rule is
	 * the same for every kind of frame). */
	snprintf(line, sizeof(line), "0x%" PRIx64 " 0x20 f 1000000\n", c + 0x300);
	jit_write(&j, "a", line);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 0x310), "f_1000000_[j]");
	jit_teardown(&j);
}

/* Four processes whose perf maps are one file (hard links) hold one parsed map, not four. */
TEST(perf_map_shared_by_processes_of_one_file)
{
	struct jit_env j;
	struct symbolizer_stats st;
	pid_t kids[4];
	char path[160];
	uint64_t c, one = 0;
	FILE *f;

	jit_setup(&j);
	c = (uint64_t)(uintptr_t)j.code;
	f = fopen(j.map, "w");
	ASSERT_TRUE(f);
	for (int i = 0; i < 50000; i++) /* one real entry, then filler far away */
		fprintf(f, "%" PRIx64 " 10 %s%d\n",
			i ? c + (uint64_t)0x100000000 + 16u * (unsigned)i : c,
			i ? "filler_" : "shared_entry", i);
	fclose(f);
	for (int i = 0; i < 4; i++) {
		kids[i] = fork(); /* each child has the same anonymous code mapping */
		if (kids[i] == 0) {
			pause();
			_exit(0);
		}
		ASSERT_TRUE(kids[i] > 0);
		snprintf(path, sizeof(path), "%s/perf-%d.map", j.dir, (int)kids[i]);
		ASSERT_EQ_INT(link(j.map, path), 0);
	}
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ_STR(sym1(j.s, kids[i], c + 4), "shared_entry0_[j]");
		symbolizer_get_stats(j.s, &st);
		if (i == 0)
			one = st.perfmaps_bytes;
	}
	ASSERT_TRUE(one > 50000 * 16);
	ASSERT_EQ_INT(st.perfmaps_bytes, one);
	for (int i = 0; i < 4; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
		snprintf(path, sizeof(path), "%s/perf-%d.map", j.dir, (int)kids[i]);
		unlink(path);
	}
	jit_teardown(&j);
}

TEST(hostile_perf_maps_are_refused)
{
	struct jit_env j;
	uint64_t c;
	char line[256];

	jit_setup(&j);
	c = (uint64_t)(uintptr_t)j.code;
	/* A symbolic link (to a file we could read): refused. */
	snprintf(line, sizeof(line), "%s/real", j.dir);
	{
		FILE *f = fopen(line, "w");

		ASSERT_TRUE(f);
		fprintf(f, "%" PRIx64 " 40 via_symlink\n", c);
		fclose(f);
	}
	ASSERT_EQ_INT(symlink(line, j.map), 0);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 8), "[unknown]");
	unlink(j.map);
	ASSERT_EQ_INT(symlink("/etc/shadow", j.map), 0);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 8), "[unknown]");
	unlink(j.map);
	unlink(line);
	/* A FIFO with no writer: no hang. */
	ASSERT_EQ_INT(mkfifo(j.map, 0600), 0);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 8), "[unknown]");
	unlink(j.map);
	jit_teardown(&j);
}

TEST(perf_map_of_another_user_is_refused)
{
	struct jit_env j;
	uint64_t c;
	char line[256];

	if (geteuid() != 0)
		SKIP("only root can give a file to another user");
	jit_setup(&j);
	c = (uint64_t)(uintptr_t)j.code;
	snprintf(line, sizeof(line), "%" PRIx64 " 40 not_mine\n", c);
	jit_write(&j, "w", line);
	ASSERT_EQ_INT(chown(j.map, 4242, 4242), 0);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 8), "[unknown]");
	jit_teardown(&j);
}

TEST(garbage_and_huge_lines_in_perf_map)
{
	struct jit_env j;
	char *big = malloc(1 << 20), line[256];
	uint64_t c;
	FILE *f;

	jit_setup(&j);
	c = (uint64_t)(uintptr_t)j.code;
	ASSERT_TRUE(big);
	memset(big, 'A', (1 << 20) - 1);
	big[(1 << 20) - 1] = '\0';
	f = fopen(j.map, "w");
	ASSERT_TRUE(f);
	fprintf(f, "%" PRIx64 " 10 %s\n", c, big);            /* huge: skipped */
	fprintf(f, "zzzz 10 garbage\n\n \n%" PRIx64 "\n", c); /* malformed */
	fprintf(f, "%" PRIx64 " 0 empty\n", c);               /* size 0 */
	fprintf(f, "%" PRIx64 " 10 ctl\x01name\n", c);        /* control char */
	fprintf(f, "11111111111111111111 10 toolong\n");      /* 20 digits */
	fprintf(f, "%" PRIx64 " 10 good_one\n", c + 0x100);
	fprintf(f, "%" PRIx64 " 10 partial_line_without_newline", c + 0x200);
	fclose(f);
	free(big);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 4), "[unknown]");
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 0x104), "good_one_[j]");
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 0x204), "[unknown]");
	snprintf(line, sizeof(line), "\n");
	jit_write(&j, "a", line);
	ASSERT_EQ_STR(sym1(j.s, getpid(), c + 0x204), "partial_line_without_newline_[j]");
	jit_teardown(&j);
}

static char *write_kallsyms(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/ember-kallsyms-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return NULL;
	close(fd);
	return path;
}

TEST(kernel_frames_from_kallsyms_file)
{
	const char *text = "0000000000000000 A fixed_percpu_data\n"
			   "ffffffff81000000 T _stext\n"
			   "ffffffff81000100 T do_thing\n"
			   "ffffffff81000200 t local_thing\n"
			   "ffffffffc0001000 t mod_fn\t[mymod]\n"
			   "ffffffffc0001100 T mod_fn2\t[mymod]\n";
	struct symbolizer_opts o = { .demangle = 1 };
	struct symbolizer_stats st;
	struct symbolizer *s;
	uint64_t ips[3] = { 0xffffffffc0001050, 0xffffffff81000100, 0xffffffff80000000 };
	char *path = write_kallsyms(text);

	ASSERT_TRUE(path);
	o.kallsyms = path;
	s = symbolizer_new(&o);
	/* ips[1] is a return address at the first byte of do_thing: the call was in _stext. */
	ASSERT_EQ_STR(sym_stack(s, 0, ips, 3, 1), "[kernel]+0xffffffff80000000_[k];_stext_[k];"
						  "mod_fn_[k]");
	ASSERT_EQ_STR(sym_stack(s, 0, (uint64_t[]){ 0xffffffff81000250 }, 1, 1), "local_thing_[k]");
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.kernel_restricted, 0);
	ASSERT_EQ_INT(st.named, 3);
	symbolizer_free(s);
	unlink(path);
}

TEST(kernel_without_privilege_says_so)
{
	const char *text = "0000000000000000 T _stext\n"
			   "0000000000000000 T do_thing\n";
	struct symbolizer_opts o = { .demangle = 1 };
	struct symbolizer_stats st;
	struct symbolizer *s;
	char *path = write_kallsyms(text);

	ASSERT_TRUE(path);
	o.kallsyms = path;
	s = symbolizer_new(&o);
	ASSERT_EQ_STR(sym_stack(s, 0, (uint64_t[]){ 0xffffffff81000150 }, 1, 1),
		      "[kernel]+0xffffffff81000150_[k]");
	symbolizer_get_stats(s, &st);
	ASSERT_EQ_INT(st.kernel_restricted, 1);
	ASSERT_EQ_INT(st.named, 0);
	symbolizer_free(s);
	unlink(path);
}

TEST(kernel_frames_from_proc_kallsyms)
{
	struct symbolizer *s = new_sym(1);
	char line[512], name[256];
	uint64_t addr = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " T %255s", &addr, name) == 2 &&
		    !strcmp(name, "schedule"))
			break;
	if (f)
		fclose(f);
	if (!addr || strcmp(name, "schedule")) {
		symbolizer_free(s);
		SKIP("/proc/kallsyms unreadable, or its addresses zeros");
	}
	ASSERT_EQ_STR(sym_stack(s, 0, (uint64_t[]){ addr + 4 }, 1, 1), "schedule_[k]");
	symbolizer_free(s);
}
