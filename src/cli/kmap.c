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

/* The kernel map's symbols, once: where they start and end. */
static void check(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms, int32_t pid,
		  int32_t tid, unsigned cpumode)
{
	pass_reloc(k, s, syms);
	if (!k->checked) {
		k->checked = true;
		struct hwprof_dso *d;
		struct hwprof_map_info km;
		/* no kernel map: nothing to grow, and kallsyms stay unread */
		uint64_t ts, te, toff;
		if (hwprof_session_kernel_map(s, &km) != 1 || hwprof_symbols_dso(syms, "[kernel.kallsyms]", &d) != 1 ||
		    !hwprof_dso_nr_syms(d)) {
			/* nothing to fix */
		} else if (hwprof_dso_kernel_text(d, &ts, &te, &toff) == 1) {
			/* a vmlinux: perf remaps the kernel map onto its .text */
			k->map = km;
			k->map.start = k->first = ts;
			k->map.end = k->end = te;
			k->map.pgoff = toff;
			k->have = k->vmlinux = true;
		} else {
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
	}
}

uint64_t kmap_size(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms,
		   const struct hwprof_map_info *mi)
{
	if (strcmp(mi->dso, "[kernel.kallsyms]"))
		return mi->end - mi->start;
	check(k, s, syms, -1, -1, HWPROF_MISC_KERNEL);
	return k->have ? k->end - k->first : mi->end - mi->start;
}

int kmap_find_map(struct kmap_ext *k, struct hwprof_session *s, struct hwprof_symbols *syms, int32_t pid,
		  int32_t tid, unsigned cpumode, uint64_t ip, struct hwprof_map_info *mi, char *level)
{
	if (cpumode == HWPROF_MISC_KERNEL)
		pass_reloc(k, s, syms);
	if (hwprof_session_find_map(s, pid, tid, cpumode, ip, mi, level) == 1) {
		if (cpumode != HWPROF_MISC_KERNEL || strcmp(mi->dso, "[kernel.kallsyms]"))
			return 1;
		check(k, s, syms, pid, tid, cpumode);
		if (!k->vmlinux)
			return 1;
	} else if (cpumode != HWPROF_MISC_KERNEL) {
		return 0;
	} else {
		check(k, s, syms, pid, tid, cpumode);
	}
	if (k->vmlinux && (ip < k->map.start || ip >= k->end)) {
		/* perf's maps of the vmlinux's other sections */
		struct hwprof_dso *d;
		uint64_t off;
		if (hwprof_symbols_kernel_section(syms, ip, &d) != 1)
			return 0;
		*mi = k->map;
		hwprof_dso_kernel_text(d, &mi->start, &mi->end, &off);
		mi->pgoff = off;
		mi->dso = hwprof_dso_name(d);
		*level = 'k';
		return 1;
	}
	if (!k->have || ip < k->map.start || ip >= k->end)
		return 0;
	*mi = k->map;
	*level = 'k';
	return 1;
}
