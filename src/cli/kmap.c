#include <string.h>

#include "cli/kmap.h"

/* perf relocates kallsyms by the kernel map's reference symbol: the
 * symbols need it before they first load the kernel's, and the session
 * has it once the kernel's MMAP record is in */
static void pass_reloc(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms)
{
	const char *name;
	uint64_t addr;
	if (!k->reloc_passed && hwprof_session_kernel_reloc(s, &name, &addr) == 1) {
		hwprof_symbols_set_kernel_reloc(syms, name, addr);
		k->reloc_passed = true;
	}
}

/* The kernel map's symbols, once: where they start and end, or the maps
 * a vmlinux or kcore puts in place of the recorded one. */
static void check(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms, int32_t pid,
		  int32_t tid, unsigned cpumode)
{
	pass_reloc(k, s, syms);
	if (k->checked)
		return;
	k->checked = true;
	struct hwprof_dso *d;
	struct hwprof_map_info km;
	struct hwprof_kernel_map m;
	/* no kernel map: nothing to grow, and kallsyms stay unread */
	if (hwprof_session_kernel_map(s, &km) != 1)
		return;
	if (hwprof_symbols_kernel_map(syms, 0, true, &m) == 1) {
		k->remapped = true;
		k->only = m.only;
		k->map = km; /* what the recorded map says besides its extent */
		while (hwprof_symbols_kernel_map(syms, k->nmaps, true, &m) == 1)
			k->nmaps++;
		return;
	}
	if (hwprof_symbols_dso(syms, "[kernel.kallsyms]", &d) != 1 || !hwprof_dso_nr_syms(d))
		return;
	const struct hwprof_sym *first = hwprof_dso_sym(d, 0);
	const struct hwprof_sym *last = hwprof_dso_sym(d, hwprof_dso_nr_syms(d) - 1);
	char lv;
	if (hwprof_session_find_map(s, pid, tid, cpumode, first->start, &k->map, &lv) == 1 &&
	    !strcmp(k->map.dso, "[kernel.kallsyms]")) {
		k->first = first->start;
		k->end = last->end;
		k->have = true;
	}
}

/* The vmlinux's or kcore's map holding ip (binary search by index). */
static int remapped_find(struct kmap_ext *k, struct hwprof_symbols *syms, uint64_t ip, struct hwprof_map_info *mi,
			 char *level)
{
	size_t lo = 0, hi = k->nmaps;
	struct hwprof_kernel_map m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (hwprof_symbols_kernel_map(syms, mid, true, &m) != 1)
			return 0;
		if (ip < m.start) {
			hi = mid;
		} else if (ip >= m.end) {
			lo = mid + 1;
		} else {
			*mi = k->map;
			mi->start = m.start;
			mi->end = m.end;
			mi->pgoff = m.pgoff;
			mi->dso = m.dso;
			*level = 'k';
			return 1;
		}
	}
	return 0;
}

uint64_t kmap_size(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms,
		   const struct hwprof_map_info *mi)
{
	if (strncmp(mi->dso, "[kernel.kallsyms]", 17))
		return mi->end - mi->start;
	check(k, s, syms, -1, -1, HWPROF_MISC_KERNEL);
	return k->have ? k->end - k->first : mi->end - mi->start;
}

int kmap_find_map(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms, int32_t pid,
		  int32_t tid, unsigned cpumode, uint64_t ip, struct hwprof_map_info *mi, char *level)
{
	if (cpumode != HWPROF_MISC_KERNEL)
		return hwprof_session_find_map(s, pid, tid, cpumode, ip, mi, level);
	pass_reloc(k, s, syms);
	int found = hwprof_session_find_map(s, pid, tid, cpumode, ip, mi, level) == 1;
	if (found && strcmp(mi->dso, "[kernel.kallsyms]") && (k->checked && !k->only))
		return 1; /* a module's map (a kcore replaces those too) */
	/* perf finds the map before it loads the kernel's symbols: the
	 * address that first loads them stays in the recorded map, which
	 * the load then moves onto the vmlinux's .text (or the kcore's) */
	bool first = !hwprof_symbols_kernel_loaded(syms);
	check(k, s, syms, pid, tid, cpumode);
	if (k->remapped) {
		if (found && !k->only && strcmp(mi->dso, "[kernel.kallsyms]"))
			return 1;
		if (first && found)
			return remapped_find(k, syms, k->map.start, mi, level);
		return remapped_find(k, syms, ip, mi, level);
	}
	if (found)
		return 1;
	if (!k->have || ip < k->map.start || ip >= k->end)
		return 0;
	*mi = k->map;
	*level = 'k';
	return 1;
}
