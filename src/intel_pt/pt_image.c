/* Intel PT code image: the traced address space as sorted, non-overlapping
 * sections, each backed by a read-only file mapping or caller memory. The
 * flow decoder reads instruction bytes through it; lookups use a last-hit
 * hint and binary search, never allocate. The image also owns the decoded
 * block cache, so decoders of several trace queues over one address space
 * decode each instruction once. The images of one recording's processes
 * (hwprof_pt_image_fork) share their files: each is opened and mapped
 * once, and one that cannot be read is known as such in all of them. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "intel_pt/pt_flow_int.h"

struct ipt_file {
	char *path;
	const uint8_t *map;
	size_t size;
	int fd;                  /* a file that cannot be mapped (/proc/kcore)
				  * is read with pread; else -1 */
};

struct ipt_section {
	uint64_t start, end;     /* [start, end) */
	const uint8_t *bytes;    /* bytes of start; NULL past the file's end */
	size_t avail;            /* readable bytes from start */
	int fd;                  /* else read with pread at foff: avail bytes */
	uint64_t foff;
	uint32_t missing;        /* a file that could not be opened: 1 + its
				  * index in hwprof_pt_image.miss; else 0 */
};

#define IMG_CHANGES 64

/* The files an image and its forks read, freed with the last of them. */
struct ipt_files {
	struct ipt_file *files;
	size_t nfiles, capfiles;
	/* mapped files that could not be opened, and how many failures to
	 * get an instruction from each were reported (see
	 * ipt_image_nocode_report) */
	struct ipt_missing { char *path; unsigned reports; } *miss;
	size_t nmiss, capmiss;
	unsigned refs;
};

struct hwprof_pt_image {
	struct ipt_section *sec;
	size_t nsec, capsec;
	struct ipt_files *fs;
	/* a fork's: the image whose block cache holds the kernel's blocks
	 * (every process runs the same kernel code: decoded once), kept
	 * while the fork is; NULL: its own cache */
	struct hwprof_pt_image *kernel;
	unsigned refs;           /* 1 + the forks that use its cache */
	size_t hint;
	/* the last changes (by generation % IMG_CHANGES): the block cache
	 * decodes again only what they touched */
	struct { uint64_t gen, start, end; } changes[IMG_CHANGES];
	uint64_t generation;     /* bumped on every change: caches compare it */
	struct ipt_bcache cache;
};

HWPROF_API int hwprof_pt_image_new(struct hwprof_pt_image **img)
{
	if (!img)
		return -HWPROF_E_INVAL;
	*img = calloc(1, sizeof(**img));
	if (!*img)
		return -HWPROF_E_NOMEM;
	if (!((*img)->fs = calloc(1, sizeof(*(*img)->fs)))) {
		free(*img);
		*img = NULL;
		return -HWPROF_E_NOMEM;
	}
	(*img)->fs->refs = 1;
	(*img)->refs = 1;
	if (ipt_bcache_init(&(*img)->cache) < 0) {
		free((*img)->fs);
		free(*img);
		*img = NULL;
		return -HWPROF_E_UNSUPPORTED;
	}
	(*img)->generation = 1; /* the empty cache belongs to generation 0 */
	(*img)->cache.img_gen = &(*img)->generation;
	return 0;
}

struct ipt_bcache *ipt_image_cache(struct hwprof_pt_image *img)
{
	return &img->cache;
}

HWPROF_API void hwprof_pt_image_free(struct hwprof_pt_image *img)
{
	if (!img || --img->refs)
		return;
	hwprof_pt_image_free(img->kernel);
	struct ipt_files *fs = img->fs;
	if (!--fs->refs) {
		for (size_t i = 0; i < fs->nfiles; i++) {
			if (fs->files[i].map)
				munmap((void *)fs->files[i].map, fs->files[i].size);
			if (fs->files[i].fd >= 0)
				close(fs->files[i].fd);
			free(fs->files[i].path);
		}
		for (size_t i = 0; i < fs->nmiss; i++)
			free(fs->miss[i].path);
		free(fs->miss);
		free(fs->files);
		free(fs);
	}
	ipt_bcache_fini(&img->cache);
	free(img->sec);
	free(img);
}

HWPROF_API size_t hwprof_pt_image_count(const struct hwprof_pt_image *img)
{
	return img ? img->nsec : 0;
}

uint64_t ipt_image_generation(const struct hwprof_pt_image *img)
{
	return img->generation;
}

static int reserve(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -HWPROF_E_NOMEM;
	*p = q;
	*cap = n;
	return 0;
}

HWPROF_API int hwprof_pt_image_clone(struct hwprof_pt_image **out, const struct hwprof_pt_image *src)
{
	if (!out || !src)
		return -HWPROF_E_INVAL;
	int ret = hwprof_pt_image_new(out);
	if (ret < 0)
		return ret;
	struct hwprof_pt_image *img = *out;
	/* the sections only: their bytes stay the source's file mappings */
	if (src->nsec && reserve((void **)&img->sec, &img->capsec, src->nsec, sizeof(*img->sec)) < 0) {
		hwprof_pt_image_free(img);
		*out = NULL;
		return -HWPROF_E_NOMEM;
	}
	if (src->nsec)
		memcpy(img->sec, src->sec, src->nsec * sizeof(*img->sec));
	img->nsec = src->nsec;
	/* the missing files' counts (their sections refer to them), the
	 * clone's own: it runs on another thread */
	const struct ipt_files *sf = src->fs;
	if (sf->nmiss) {
		img->fs->miss = calloc(sf->nmiss, sizeof(*img->fs->miss));
		if (!img->fs->miss) {
			hwprof_pt_image_free(img);
			*out = NULL;
			return -HWPROF_E_NOMEM;
		}
		for (size_t i = 0; i < sf->nmiss; i++)
			img->fs->miss[i].reports = sf->miss[i].reports;
		img->fs->nmiss = img->fs->capmiss = sf->nmiss;
	}
	img->generation = src->generation;
	return 0;
}

HWPROF_API int hwprof_pt_image_fork(struct hwprof_pt_image **out, struct hwprof_pt_image *src)
{
	if (!out || !src)
		return -HWPROF_E_INVAL;
	struct hwprof_pt_image *img = calloc(1, sizeof(*img));
	if (!img)
		return -HWPROF_E_NOMEM;
	if (ipt_bcache_init(&img->cache) < 0) {
		free(img);
		return -HWPROF_E_UNSUPPORTED;
	}
	if (src->nsec && reserve((void **)&img->sec, &img->capsec, src->nsec, sizeof(*img->sec)) < 0) {
		ipt_bcache_fini(&img->cache);
		free(img);
		return -HWPROF_E_NOMEM;
	}
	if (src->nsec)
		memcpy(img->sec, src->sec, src->nsec * sizeof(*img->sec));
	img->nsec = src->nsec;
	img->fs = src->fs;
	img->fs->refs++;
	img->kernel = src->kernel ? src->kernel : src;
	img->kernel->refs++;
	img->refs = 1;
	img->generation = 1;
	img->cache.img_gen = &img->generation;
	*out = img;
	return 0;
}

/* Inserts [start, end) after cutting whatever overlaps it. */
static int insert(struct hwprof_pt_image *img, uint64_t start, uint64_t end, const uint8_t *bytes, size_t avail,
		  uint32_t missing, int fd, uint64_t foff)
{
	if (end <= start)
		return -HWPROF_E_INVAL;
	/* worst case one section splits in two, plus the new one */
	int ret = reserve((void **)&img->sec, &img->capsec, img->nsec + 2, sizeof(*img->sec));
	if (ret)
		return ret;
	size_t w = 0, n = img->nsec;
	struct ipt_section tail = { 0 };
	int have_tail = 0;
	for (size_t i = 0; i < n; i++) {
		struct ipt_section s = img->sec[i];
		if (s.end <= start || s.start >= end) {
			img->sec[w++] = s;
			continue;
		}
		if (s.end > end) { /* keep the part after the new section */
			tail = s;
			uint64_t cut = end - s.start;
			tail.start = end;
			tail.bytes = s.bytes && cut < s.avail ? s.bytes + cut : NULL;
			tail.avail = cut < s.avail ? s.avail - (size_t)cut : 0;
			tail.foff = s.foff + cut;
			have_tail = 1;
		}
		if (s.start < start) { /* keep the part before */
			s.end = start;
			if (s.avail > start - s.start)
				s.avail = (size_t)(start - s.start);
			img->sec[w++] = s;
		}
	}
	img->sec[w++] = (struct ipt_section){ .start = start, .end = end, .bytes = avail ? bytes : NULL, .avail = avail,
					      .fd = fd, .foff = foff, .missing = missing };
	if (have_tail)
		img->sec[w++] = tail;
	img->nsec = w;
	/* insertion sort: the array was sorted, only the new pieces moved */
	for (size_t i = 1; i < w; i++) {
		struct ipt_section s = img->sec[i];
		size_t j = i;
		while (j && img->sec[j - 1].start > s.start) {
			img->sec[j] = img->sec[j - 1];
			j--;
		}
		img->sec[j] = s;
	}
	img->hint = 0;
	img->generation++;
	img->changes[img->generation % IMG_CHANGES].gen = img->generation;
	img->changes[img->generation % IMG_CHANGES].start = start;
	img->changes[img->generation % IMG_CHANGES].end = end;
	return 0;
}

struct hwprof_pt_image *ipt_image_for(struct hwprof_pt_image *img, uint64_t ip)
{
	return ip >> 63 && img->kernel ? img->kernel : img;
}

int ipt_image_change(const struct hwprof_pt_image *img, uint64_t gen, uint64_t *start, uint64_t *end)
{
	const size_t i = gen % IMG_CHANGES;
	if (img->changes[i].gen != gen)
		return 0;
	*start = img->changes[i].start;
	*end = img->changes[i].end;
	return 1;
}

HWPROF_API int hwprof_pt_image_add_buf(struct hwprof_pt_image *img, const void *buf,
				       size_t len, uint64_t vaddr)
{
	if (!img || !buf || !len || vaddr + len < vaddr)
		return -HWPROF_E_INVAL;
	return insert(img, vaddr, vaddr + len, buf, len, 0, -1, 0);
}

static int file_get(struct ipt_files *fs, const char *path, struct ipt_file **out)
{
	for (size_t i = 0; i < fs->nfiles; i++)
		if (!strcmp(fs->files[i].path, path)) {
			*out = &fs->files[i];
			return 0;
		}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -HWPROF_E_IO;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -HWPROF_E_IO;
	}
	const uint8_t *map = NULL;
	if (st.st_size > 0) {
		void *m = (uint64_t)st.st_size <= SIZE_MAX ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
							     : MAP_FAILED;
		map = m == MAP_FAILED ? NULL : m;
	}
	if (map || !st.st_size) {
		close(fd);
		fd = -1;
	} /* else read on demand, as perf reads every file */
	int ret = reserve((void **)&fs->files, &fs->capfiles, fs->nfiles + 1, sizeof(*fs->files));
	char *p = strdup(path);
	if (ret || !p) {
		free(p);
		if (map)
			munmap((void *)map, (size_t)st.st_size);
		if (fd >= 0)
			close(fd);
		return -HWPROF_E_NOMEM;
	}
	struct ipt_file *f = &fs->files[fs->nfiles++];
	f->path = p;
	f->map = map;
	f->size = (uint64_t)st.st_size > SIZE_MAX ? SIZE_MAX : (size_t)st.st_size;
	f->fd = fd;
	*out = f;
	return 0;
}

HWPROF_API int hwprof_pt_image_add_file(struct hwprof_pt_image *img, const char *path,
					uint64_t file_off, uint64_t size, uint64_t vaddr)
{
	if (!img || !path || !size || vaddr + size < vaddr)
		return -HWPROF_E_INVAL;
	struct ipt_file *f;
	int ret = file_get(img->fs, path, &f);
	if (ret == -HWPROF_E_IO) { /* mapped all the same, with no bytes */
		int r = hwprof_pt_image_add_missing(img, path, size, vaddr);
		return r < 0 ? r : ret;
	}
	if (ret)
		return ret;
	const uint8_t *bytes = NULL;
	size_t avail = 0;
	if (file_off < f->size) {
		bytes = f->map ? f->map + file_off : NULL;
		avail = f->size - (size_t)file_off;
		if (avail > size)
			avail = (size_t)size;
	}
	return insert(img, vaddr, vaddr + size, bytes, avail, 0, f->map ? -1 : f->fd, file_off);
}

HWPROF_API int hwprof_pt_image_add_missing(struct hwprof_pt_image *img, const char *name, uint64_t size,
					   uint64_t vaddr)
{
	if (!img || !name || !size || vaddr + size < vaddr)
		return -HWPROF_E_INVAL;
	struct ipt_files *fs = img->fs;
	size_t k = 0;
	while (k < fs->nmiss && strcmp(fs->miss[k].path, name))
		k++;
	if (k == fs->nmiss) {
		char *p = strdup(name);
		if (!p || reserve((void **)&fs->miss, &fs->capmiss, fs->nmiss + 1, sizeof(*fs->miss)) < 0) {
			free(p);
			return -HWPROF_E_NOMEM;
		}
		fs->miss[fs->nmiss++] = (struct ipt_missing){ p, 0 };
	}
	return insert(img, vaddr, vaddr + size, NULL, 0, (uint32_t)k + 1, -1, 0);
}

HWPROF_API int hwprof_pt_image_add_elf(struct hwprof_pt_image *img, const char *path,
				       uint64_t bias)
{
	if (!img || !path)
		return -HWPROF_E_INVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -HWPROF_E_UNSUPPORTED;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -HWPROF_E_IO;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t n = 0;
	int ret = 0, added = 0;
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &n) != 0) {
		ret = -HWPROF_E_CORRUPT;
		goto out;
	}
	for (size_t i = 0; i < n && ret >= 0; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
		    !ph.p_memsz)
			continue;
		ret = hwprof_pt_image_add_file(img, path, ph.p_offset, ph.p_filesz ? ph.p_filesz : 1,
					       ph.p_vaddr + bias);
		if (ret >= 0)
			added++;
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret < 0 ? ret : added;
}

/* Section holding addr, or NULL. */
static const struct ipt_section *find(const struct hwprof_pt_image *img, uint64_t addr)
{
	size_t h = img->hint;
	if (h < img->nsec && addr >= img->sec[h].start && addr < img->sec[h].end)
		return &img->sec[h];
	size_t lo = 0, hi = img->nsec;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (img->sec[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < img->nsec && addr >= img->sec[lo].start) {
		((struct hwprof_pt_image *)img)->hint = lo; /* a cache, not state */
		return &img->sec[lo];
	}
	return NULL;
}

/* perf 6.1 reads a DSO it cannot open twice before it knows (its data
 * status error, seen by itrace): the failures to get an instruction there
 * are reported twice, then no more (once, when something else tried to
 * read it first: hwprof_pt_image_mark_unreadable); elsewhere (no map,
 * bytes past a file's end) every time. Counted in the order the caller
 * reports. */
bool ipt_image_nocode_report(struct hwprof_pt_image *img, uint64_t addr)
{
	const struct ipt_section *sec = find(img, addr);
	if (!sec || !sec->missing)
		return true;
	struct ipt_missing *m = &img->fs->miss[sec->missing - 1];
	if (m->reports >= 2)
		return false;
	m->reports++;
	return true;
}

HWPROF_API int hwprof_pt_image_mark_unreadable(struct hwprof_pt_image *img, uint64_t addr)
{
	/* per printed sample: no lookup while every file can be read */
	if (!img || !img->fs->nmiss)
		return 0;
	const struct ipt_section *sec = find(img, addr);
	if (!sec || !sec->missing)
		return 0;
	struct ipt_missing *m = &img->fs->miss[sec->missing - 1];
	if (!m->reports) /* status error, not yet seen by itrace */
		m->reports = 1;
	return 1;
}

HWPROF_API int hwprof_pt_image_read(const struct hwprof_pt_image *img, uint64_t addr,
				    void *buf, size_t len)
{
	if (!img || (!buf && len))
		return -HWPROF_E_INVAL;
	size_t done = 0;
	while (done < len) {
		const struct ipt_section *s = find(img, addr + done);
		if (!s)
			break;
		uint64_t off = addr + done - s->start;
		if (off >= s->avail)
			break;
		size_t n = s->avail - (size_t)off;
		if (n > len - done)
			n = len - done;
		if (s->fd >= 0) {
			ssize_t r = s->foff + off <= (uint64_t)INT64_MAX ? pread(s->fd, (uint8_t *)buf + done, n,
										(off_t)(s->foff + off))
									 : -1;
			if (r <= 0)
				break;
			done += (size_t)r;
			if ((size_t)r < n)
				break;
		} else {
			memcpy((uint8_t *)buf + done, s->bytes + off, n);
			done += n;
		}
		if (s->end != s->start + s->avail)
			break; /* the rest of this section is absent */
	}
	if (!done)
		return -HWPROF_E_NOENT;
	return done > (size_t)INT32_MAX ? INT32_MAX : (int)done;
}
