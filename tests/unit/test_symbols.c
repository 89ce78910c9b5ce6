/* Unit tests of the symbol library on programs compiled here with cc:
 * PIE and non-PIE with symbols, stripped (only .dynsym), stripped with its
 * debug file found by build id under a fake debug root, a copy found only
 * through a fake build-id cache, a wrong build id refused; PLT symbols;
 * kallsyms fixups on a hand-written file; kallsyms with a kcore beside
 * them, checked against the recorded modules; JIT perf maps; demangling.
 * Expected addresses come from nm and readelf, not from our ELF code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwprof/perf_event.h"
#include "hwprof/perfdata.h"
#include "hwprof/symbols.h"

static char dir[256];

static const char prog_src[] =
	"#include <stdio.h>\n"
	"int counter_obj[16];\n"
	"__attribute__((noinline)) int alpha(int x) { counter_obj[x & 15]++; return x * 3 + counter_obj[1]; }\n"
	"__attribute__((noinline)) int beta(int x) { puts(\"beta\"); return alpha(x) + 1; }\n"
	"int main(int argc, char **argv) { (void)argv; return beta(argc) & 1; }\n";

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* First line of a command's output. */
static void out1(char *buf, size_t len, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	FILE *p = popen(cmd, "r");
	buf[0] = 0;
	if (p) {
		if (!fgets(buf, (int)len, p))
			buf[0] = 0;
		pclose(p);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/* nm value and size of a symbol, made file-relative with the executable
 * PT_LOAD's p_vaddr - p_offset as readelf prints it. */
static void expect_sym(const char *bin, const char *name, uint64_t *start, uint64_t *size)
{
	char l[512];
	out1(l, sizeof(l), "nm -S %s | awk '$4==\"%s\"{print $1, $2}'", bin, name);
	unsigned long long v = 0, s = 0;
	assert_int_equal(sscanf(l, "%llx %llx", &v, &s), 2);
	out1(l, sizeof(l), "readelf -lW %s | awk '$1==\"LOAD\" && $8==\"E\"{print $2, $3}'", bin);
	unsigned long long off = 0, va = 0;
	assert_int_equal(sscanf(l, "%llx %llx", &off, &va), 2);
	*start = v - (va - off);
	*size = s;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/hwprof-symtest-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	FILE *f;
	char path[512];
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(prog_src, f);
	fclose(f);
	if (sh("cd %s && cc -O1 -g -fPIE -pie -Wl,--build-id -o pie prog.c", dir) ||
	    sh("cd %s && cc -O1 -g -fno-pie -no-pie -Wl,--build-id -o nopie prog.c", dir) ||
	    sh("cd %s && cp pie stripped && objcopy --only-keep-debug pie stripped.debug && strip -s stripped", dir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", dir);
	return 0;
}

static struct hwprof_symbols *open_cfg(const char *debug_root, const char *bid_dir)
{
	struct hwprof_symcfg cfg = { 0 };
	char dr[512], bd[512];
	snprintf(dr, sizeof(dr), "%s/%s", dir, debug_root ? debug_root : "nodebug");
	snprintf(bd, sizeof(bd), "%s/%s", dir, bid_dir ? bid_dir : "nocache");
	cfg.debug_root = dr;
	cfg.buildid_dir = bd;
	cfg.perfmap_dir = dir;
	struct hwprof_symbols *s;
	assert_int_equal(hwprof_symbols_open(&s, &cfg), 0);
	return s;
}

static void check_func(struct hwprof_dso *d, const char *bin, const char *name)
{
	uint64_t start, size;
	expect_sym(bin, name, &start, &size);
	const struct hwprof_sym *s = hwprof_dso_find(d, start);
	assert_non_null(s);
	assert_string_equal(s->name, name);
	assert_int_equal(s->start, start);
	assert_int_equal(s->end, start + size);
	s = hwprof_dso_find(d, start + size - 1);
	assert_non_null(s);
	assert_string_equal(s->name, name);
}

static void test_pie(void **state)
{
	(void)state;
	char bin[512];
	snprintf(bin, sizeof(bin), "%s/pie", dir);
	struct hwprof_symbols *s = open_cfg(NULL, NULL);
	struct hwprof_dso *d;
	assert_int_equal(hwprof_symbols_dso(s, bin, &d), 1);
	check_func(d, bin, "alpha");
	check_func(d, bin, "beta");
	check_func(d, bin, "main");
	/* data objects are symbols too */
	uint64_t start, size;
	expect_sym(bin, "counter_obj", &start, &size);
	(void)start;
	assert_int_equal(size, 64);
	/* the PLT entry of puts */
	bool plt = false;
	for (size_t i = 0; i < hwprof_dso_nr_syms(d); i++)
		if (!strcmp(hwprof_dso_sym(d, i)->name, "puts@plt"))
			plt = true;
	assert_true(plt);
	/* through a map: loaded at a high address, file offset 0 */
	expect_sym(bin, "alpha", &start, &size);
	struct hwprof_symres r;
	assert_int_equal(hwprof_symbols_resolve(s, bin, 0x555555554000ULL, 0, 0x555555554000ULL + start + 2, &r), 1);
	assert_string_equal(r.sym->name, "alpha");
	assert_int_equal(r.addr, start + 2);
	/* an address before every symbol */
	assert_null(hwprof_dso_find(d, 0));
	hwprof_symbols_close(s);
}

static void test_nopie(void **state)
{
	(void)state;
	char bin[512];
	snprintf(bin, sizeof(bin), "%s/nopie", dir);
	struct hwprof_symbols *s = open_cfg(NULL, NULL);
	struct hwprof_dso *d;
	assert_int_equal(hwprof_symbols_dso(s, bin, &d), 1);
	check_func(d, bin, "alpha");
	check_func(d, bin, "beta");
	hwprof_symbols_close(s);
}

static bool has_sym(struct hwprof_dso *d, const char *name)
{
	for (size_t i = 0; i < hwprof_dso_nr_syms(d); i++)
		if (!strcmp(hwprof_dso_sym(d, i)->name, name))
			return true;
	return false;
}

static void build_id_of(const char *bin, char *hex, size_t len)
{
	out1(hex, len, "readelf -n %s | awk '/Build ID/{print $3}'", bin);
	assert_true(strlen(hex) >= 2);
}

static void test_stripped(void **state)
{
	(void)state;
	char bin[512];
	snprintf(bin, sizeof(bin), "%s/stripped", dir);
	struct hwprof_symbols *s = open_cfg(NULL, NULL);
	struct hwprof_dso *d;
	hwprof_symbols_dso(s, bin, &d);
	assert_non_null(d);
	assert_false(has_sym(d, "alpha")); /* only .dynsym is left */
	hwprof_symbols_close(s);
}

static void test_debug_by_build_id(void **state)
{
	(void)state;
	char bin[512], hex[128];
	snprintf(bin, sizeof(bin), "%s/stripped", dir);
	build_id_of(bin, hex, sizeof(hex));
	assert_int_equal(sh("mkdir -p %s/dbg/.build-id/%.2s && cp %s/stripped.debug %s/dbg/.build-id/%.2s/%s.debug",
			    dir, hex, dir, dir, hex, hex + 2), 0);
	struct hwprof_symbols *s = open_cfg("dbg", NULL);
	struct hwprof_dso *d;
	assert_int_equal(hwprof_symbols_dso(s, bin, &d), 1);
	char pie[512];
	snprintf(pie, sizeof(pie), "%s/pie", dir);
	check_func(d, pie, "alpha");
	assert_true(has_sym(d, "puts@plt"));
	assert_non_null(strstr(hwprof_dso_symsrc(d), ".debug"));
	hwprof_symbols_close(s);

	/* a recorded build id that is not this file's: nothing is used */
	s = open_cfg("dbg", NULL);
	uint8_t wrong[20] = { 1, 2, 3 };
	assert_int_equal(hwprof_symbols_set_build_id(s, bin, wrong, sizeof(wrong)), 0);
	assert_int_equal(hwprof_symbols_dso(s, bin, &d), 0);
	assert_int_equal(hwprof_dso_nr_syms(d), 0);
	hwprof_symbols_close(s);
}

static void test_build_id_cache(void **state)
{
	(void)state;
	char bin[512], hex[128];
	snprintf(bin, sizeof(bin), "%s/pie", dir);
	build_id_of(bin, hex, sizeof(hex));
	assert_int_equal(sh("mkdir -p %s/cache/.build-id/%.2s && cp %s/pie %s/cache/.build-id/%.2s/%s", dir, hex, dir,
			    dir, hex, hex + 2), 0);
	uint8_t id[20];
	size_t n = strlen(hex) / 2;
	for (size_t i = 0; i < n && i < 20; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		id[i] = (uint8_t)v;
	}
	struct hwprof_symbols *s = open_cfg(NULL, "cache");
	/* the file moved away since the recording: only the cache has it */
	assert_int_equal(hwprof_symbols_set_build_id(s, "/nonexistent/pie", id, n), 0);
	struct hwprof_dso *d;
	assert_int_equal(hwprof_symbols_dso(s, "/nonexistent/pie", &d), 1);
	check_func(d, bin, "beta");
	hwprof_symbols_close(s);
}

static void test_kallsyms(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000100 T memcpy\n"
	      "ffffffff81000100 T __pi_memcpy\n"
	      "ffffffff81000200 t local_fn\n"
	      "ffffffff81000280 r some_rodata\n"
	      "ffffffff81000300 W weak_fn\n"
	      "ffffffffc0000000 t modfn\t[mod]\n", f);
	fclose(f);
	struct hwprof_symcfg cfg = { .kallsyms = path };
	struct hwprof_symbols *s;
	assert_int_equal(hwprof_symbols_open(&s, &cfg), 0);
	struct hwprof_symres r;
	assert_int_equal(hwprof_symbols_resolve(s, "[kernel.kallsyms]", 0xffffffff81000000ULL, 0,
						0xffffffff81000150ULL, &r), 1);
	/* of two symbols at one address perf keeps the one that got a size */
	assert_string_equal(r.sym->name, "__pi_memcpy");
	assert_int_equal(r.addr, 0xffffffff81000150ULL);
	struct hwprof_dso *d;
	hwprof_symbols_dso(s, "[kernel.kallsyms]", &d);
	/* rodata is not kept, so local_fn reaches weak_fn */
	assert_string_equal(hwprof_dso_find(d, 0xffffffff810002f0ULL)->name, "local_fn");
	/* the last kernel symbol before the modules ends a page on */
	const struct hwprof_sym *w = hwprof_dso_find(d, 0xffffffff81000300ULL);
	assert_string_equal(w->name, "weak_fn");
	assert_int_equal(w->end, 0xffffffff81002000ULL);
	/* module symbols belong to the modules */
	assert_null(hwprof_dso_find(d, 0xffffffffc0000000ULL));
	hwprof_symbols_close(s);
}

/* A module's MMAP record as perf record writes it (kernel cpumode). */
static void note_module_map(struct hwprof_symbols *s, const char *path, uint64_t start)
{
	uint8_t b[256] = { 0 };
	size_t n = 40 + strlen(path) + 1;
	n = (n + 7) & ~(size_t)7;
	uint32_t type = HWPROF_RECORD_MMAP, pid = (uint32_t)-1;
	memcpy(b, &type, 4);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, &start, 8);
	strcpy((char *)b + 40, path);
	struct hwprof_record rec = { .type = type, .misc = HWPROF_MISC_KERNEL, .size = (uint16_t)n, .data = b };
	hwprof_symbols_note_record(s, &rec);
}

/* kallsyms with a kcore beside them (perf record --kcore): perf moves the
 * symbols into the kcore's segments at file offsets, module symbols too,
 * only when the kernel and every recorded module sit where the copy's
 * kallsyms and modules files put them. */
static void test_kcore(void **state)
{
	(void)state;
	char kd[300], path[512];
	snprintf(kd, sizeof(kd), "%s/kcore_dir", dir);
	assert_int_equal(sh("mkdir -p %s && printf '.text\\n.globl _text\\n_text: nop\\n.globl kf\\n.type kf,@function\\n"
			    "kf: nop\\nret\\n.size kf,2\\n.fill 4093,1,0x90\\n' | as -o %s/k.o - && "
			    "ld -static -nostdlib -Ttext=0xffffffff81000000 -e 0 -o %s/kcore %s/k.o",
			    kd, kd, kd, kd), 0);
	snprintf(path, sizeof(path), "%s/kallsyms", kd);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _text\nffffffff81000001 T kf\nffffffffc0001000 t modfn\t[foo_bar]\n", f);
	fclose(f);
	/* the module's map as recorded; the modules file right, wrong, absent */
	const char *modules[3] = { "foo_bar 4096 0 - Live 0xffffffffc0001000\n",
				   "foo_bar 4096 0 - Live 0xffffffffc0002000\n", NULL };
	for (int k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/modules", kd);
		unlink(path);
		if (modules[k]) {
			f = fopen(path, "w");
			assert_non_null(f);
			fputs(modules[k], f);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/kallsyms", kd);
		struct hwprof_symcfg cfg = { .kallsyms = path };
		struct hwprof_symbols *s;
		assert_int_equal(hwprof_symbols_open(&s, &cfg), 0);
		hwprof_symbols_set_kernel_reloc(s, "_text", 0xffffffff81000000ULL);
		note_module_map(s, "/lib/modules/6.1.0/kernel/drivers/foo-bar.ko.xz", 0xffffffffc0001000ULL);
		struct hwprof_kernel_map m;
		int rc = hwprof_symbols_kernel_map(s, 0, true, &m);
		struct hwprof_symres r;
		if (k == 0) {
			assert_int_equal(rc, 1);
			assert_true(m.only);
			assert_string_equal(m.dso, "[kernel.kallsyms]");
			assert_non_null(strstr(m.file, "kcore_dir/kcore"));
			/* kf at its offset in the kcore file */
			uint64_t ip = 0xffffffff81000001ULL;
			size_t i = 0;
			while (hwprof_symbols_kernel_map(s, i, true, &m) == 1 && !(ip >= m.start && ip < m.end))
				i++;
			assert_true(ip >= m.start && ip < m.end);
			assert_int_equal(hwprof_symbols_resolve(s, m.dso, m.start, m.pgoff, ip, &r), 1);
			assert_string_equal(r.sym->name, "kf");
			assert_int_equal(r.addr, m.pgoff + 1);
		} else {
			/* the module moved, or no modules file: plain kallsyms */
			assert_int_equal(rc, 0);
			assert_int_equal(hwprof_symbols_resolve(s, "[kernel.kallsyms]", 0xffffffff81000000ULL, 0,
								0xffffffff81000001ULL, &r), 1);
			assert_int_equal(r.addr, 0xffffffff81000001ULL);
		}
		hwprof_symbols_close(s);
	}
}

static void test_perfmap(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f0000001000 40 jit_one\n7f0000001040 20 LJava/Foo;::bar\nnot a line\n", f);
	fclose(f);
	struct hwprof_symbols *s = open_cfg(NULL, NULL);
	struct hwprof_symres r;
	assert_int_equal(hwprof_symbols_resolve(s, "/tmp/perf-4242.map", 0x7f0000000000ULL, 0, 0x7f0000001010ULL, &r), 1);
	assert_string_equal(r.sym->name, "jit_one");
	assert_int_equal(r.addr, 0x7f0000001010ULL);
	assert_int_equal(hwprof_symbols_resolve(s, "/tmp/perf-4242.map", 0x7f0000000000ULL, 0, 0x7f000000105fULL, &r), 1);
	assert_string_equal(r.sym->name, "LJava/Foo;::bar");
	assert_int_equal(hwprof_symbols_resolve(s, "/tmp/perf-4242.map", 0x7f0000000000ULL, 0, 0x7f0000001060ULL, &r), 0);
	hwprof_symbols_close(s);
}

static void test_demangle(void **state)
{
	(void)state;
	char *d = hwprof_demangle("_ZN2ns1WIlE4spinEl");
	assert_non_null(d);
	assert_string_equal(d, "ns::W<long>::spin");
	free(d);
	d = hwprof_demangle("_ZN4core3fmt5write17h0123456789abcdefE");
	assert_non_null(d);
	assert_string_equal(d, "core::fmt::write");
	free(d);
	d = hwprof_demangle("_ZN5alloc3vec12Vec$LT$T$GT$4push17h00112233445566ffE");
	assert_non_null(d);
	assert_string_equal(d, "alloc::vec::Vec<T>::push");
	free(d);
	assert_null(hwprof_demangle("main"));
}

static void test_missing(void **state)
{
	(void)state;
	struct hwprof_symbols *s = open_cfg(NULL, NULL);
	struct hwprof_symres r;
	assert_int_equal(hwprof_symbols_resolve(s, "/no/such/file.so", 0x1000, 0, 0x1234, &r), 0);
	assert_null(r.sym);
	assert_int_equal(r.addr, 0x234);
	assert_int_equal(hwprof_symbols_resolve(s, "[heap]", 0x1000, 0, 0x1234, &r), 0);
	hwprof_symbols_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie),
		cmocka_unit_test(test_nopie),
		cmocka_unit_test(test_stripped),
		cmocka_unit_test(test_debug_by_build_id),
		cmocka_unit_test(test_build_id_cache),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kcore),
		cmocka_unit_test(test_perfmap),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_missing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
