/* perf.data reader: header, attr/id sections, feature index and record
 * iteration, for file mode (mmapped) and pipe mode (streamed from a fd or
 * read from a saved pipe file). Every length taken from the input is checked
 * against what remains before use; errors carry the byte offset. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perfdata_int.h"
#include "util/bytes.h"

int pdata_error(struct hwprof_perfdata *h, int code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	/* Keep the first error: later ones are usually consequences. */
	if (h->err.code)
		return h->err.code;
	h->err.code = -code;
	h->err.offset = offset;
	va_start(ap, fmt);
	vsnprintf(h->err.msg, sizeof(h->err.msg), fmt, ap);
	va_end(ap);
	return -code;
}

int pdata_buf_reserve(struct pdata_buf *b, size_t cap)
{
	if (cap <= b->cap)
		return 0;
	size_t n = b->cap ? b->cap : 4096;
	while (n < cap)
		n *= 2;
	uint8_t *p = realloc(b->p, n);
	if (!p)
		return -HWPROF_E_NOMEM;
	b->p = p;
	b->cap = n;
	return 0;
}

int pdata_keep(struct hwprof_perfdata *h, void *p)
{
	if (h->nr_owned == h->cap_owned) {
		size_t n = h->cap_owned ? h->cap_owned * 2 : 16;
		uint8_t **o = realloc(h->owned, n * sizeof(*o));
		if (!o)
			return -HWPROF_E_NOMEM;
		h->owned = o;
		h->cap_owned = n;
	}
	h->owned[h->nr_owned++] = p;
	return 0;
}

/* ---- id -> evsel map ---------------------------------------------------- */

static size_t id_slot(uint64_t id, size_t cap)
{
	uint64_t x = id * 0x9e3779b97f4a7c15ULL;
	return (size_t)(x >> 20) & (cap - 1);
}

static int id_insert(struct hwprof_perfdata *h, uint64_t id, uint32_t idx)
{
	if (id == 0) {
		if (h->id_zero < 0)
			h->id_zero = (int32_t)idx;
		return 0;
	}
	if ((h->id_count + 1) * 2 > h->id_cap) {
		size_t ncap = h->id_cap ? h->id_cap * 2 : 64;
		uint64_t *k = calloc(ncap, sizeof(*k));
		uint32_t *v = calloc(ncap, sizeof(*v));
		if (!k || !v) {
			free(k);
			free(v);
			return -HWPROF_E_NOMEM;
		}
		for (size_t i = 0; i < h->id_cap; i++) {
			if (!h->id_keys[i])
				continue;
			size_t s = id_slot(h->id_keys[i], ncap);
			while (k[s])
				s = (s + 1) & (ncap - 1);
			k[s] = h->id_keys[i];
			v[s] = h->id_vals[i];
		}
		free(h->id_keys);
		free(h->id_vals);
		h->id_keys = k;
		h->id_vals = v;
		h->id_cap = ncap;
	}
	size_t s = id_slot(id, h->id_cap);
	while (h->id_keys[s]) {
		if (h->id_keys[s] == id)
			return 0; /* first evsel claiming an id wins */
		s = (s + 1) & (h->id_cap - 1);
	}
	h->id_keys[s] = id;
	h->id_vals[s] = idx;
	h->id_count++;
	return 0;
}

HWPROF_API const struct hwprof_evsel *hwprof_perfdata_evsel_by_id(const struct hwprof_perfdata *h,
								  uint64_t id)
{
	if (id == 0)
		return h->id_zero >= 0 ? &h->evsels[h->id_zero] : NULL;
	if (!h->id_cap)
		return NULL;
	size_t s = id_slot(id, h->id_cap);
	while (h->id_keys[s]) {
		if (h->id_keys[s] == id)
			return &h->evsels[h->id_vals[s]];
		s = (s + 1) & (h->id_cap - 1);
	}
	return NULL;
}

/* ---- evsels ------------------------------------------------------------- */

int pdata_add_evsel(struct hwprof_perfdata *h, const uint8_t *attr, uint32_t avail,
		    const uint8_t *ids, uint64_t nr_ids, uint64_t offset)
{
	int swap = h->info.swapped;
	if (avail < 8)
		return pdata_error(h, HWPROF_E_TRUNCATED, offset, "attr of %u bytes is too short", avail);
	if (h->nr_evsels >= PDATA_MAX_EVSELS)
		return pdata_error(h, HWPROF_E_CORRUPT, offset, "more than %u events", PDATA_MAX_EVSELS);
	if (nr_ids > PDATA_MAX_IDS)
		return pdata_error(h, HWPROF_E_CORRUPT, offset, "%llu sample ids for one event",
				   (unsigned long long)nr_ids);
	uint32_t size = ld32s(attr + 4, swap);
	if (size == 0)
		size = HWPROF_ATTR_SIZE_VER0; /* perf treats size 0 as the first ABI */
	if (size < HWPROF_ATTR_SIZE_VER0)
		return pdata_error(h, HWPROF_E_CORRUPT, offset, "attr size %u is below the minimum 64", size);
	if (size > avail)
		return pdata_error(h, HWPROF_E_TRUNCATED, offset, "attr size %u exceeds the %u bytes available",
				   size, avail);
	if (h->nr_evsels == h->cap_evsels) {
		uint32_t n = h->cap_evsels ? h->cap_evsels * 2 : 4;
		struct hwprof_evsel *e = realloc(h->evsels, n * sizeof(*e));
		if (!e)
			return pdata_error(h, HWPROF_E_NOMEM, offset, "out of memory for events");
		h->evsels = e;
		h->cap_evsels = n;
	}
	struct hwprof_evsel *ev = &h->evsels[h->nr_evsels];
	memset(ev, 0, sizeof(*ev));
	hwprof_attr_decode(&ev->attr, attr, size, swap);
	ev->attr.size = size;
	ev->idx = h->nr_evsels;
	if (size > HWPROF_ATTR_SIZE_VER10) {
		uint8_t *tail = malloc(size - HWPROF_ATTR_SIZE_VER10);
		if (!tail || pdata_keep(h, tail)) {
			free(tail);
			return pdata_error(h, HWPROF_E_NOMEM, offset, "out of memory");
		}
		memcpy(tail, attr + HWPROF_ATTR_SIZE_VER10, size - HWPROF_ATTR_SIZE_VER10);
		ev->attr_tail = tail;
		ev->attr_tail_len = size - HWPROF_ATTR_SIZE_VER10;
	}
	if (nr_ids) {
		uint64_t *v = malloc(nr_ids * sizeof(*v));
		if (!v || pdata_keep(h, v)) {
			free(v);
			return pdata_error(h, HWPROF_E_NOMEM, offset, "out of memory for %llu ids",
					   (unsigned long long)nr_ids);
		}
		for (uint64_t i = 0; i < nr_ids; i++)
			v[i] = ld64s(ids + 8 * i, swap);
		ev->ids = v;
		ev->nr_ids = (uint32_t)nr_ids;
	}
	h->nr_evsels++;
	for (uint32_t i = 0; i < ev->nr_ids; i++)
		if (id_insert(h, ev->ids[i], ev->idx))
			return pdata_error(h, HWPROF_E_NOMEM, offset, "out of memory for ids");
	pdata_update_id_layout(h);
	return 0;
}

void pdata_set_evsel_name(struct hwprof_perfdata *h, uint64_t id, const char *name, size_t len)
{
	struct hwprof_evsel *ev = (struct hwprof_evsel *)hwprof_perfdata_evsel_by_id(h, id);
	if (!ev)
		return;
	char *s = malloc(len + 1);
	if (!s || pdata_keep(h, s)) {
		free(s);
		return;
	}
	memcpy(s, name, len);
	s[len] = 0;
	ev->name = s;
}

/* Where the sample id sits in SAMPLE bodies and in trailers: IDENTIFIER is
 * always first in a sample and last in a trailer; plain ID sits after the
 * fields that precede it, which must then be the same for all events. */
void pdata_update_id_layout(struct hwprof_perfdata *h)
{
	h->sample_id_pos = -1;
	h->trailer_id_pos = -1;
	if (!h->nr_evsels)
		return;
	uint64_t st = h->evsels[0].attr.sample_type;
	if (st & HWPROF_SAMPLE_IDENTIFIER) {
		h->sample_id_pos = 0;
		h->trailer_id_pos = 1;
		return;
	}
	if (!(st & HWPROF_SAMPLE_ID))
		return;
	int pos = 0;
	if (st & HWPROF_SAMPLE_IP) pos++;
	if (st & HWPROF_SAMPLE_TID) pos++;
	if (st & HWPROF_SAMPLE_TIME) pos++;
	if (st & HWPROF_SAMPLE_ADDR) pos++;
	h->sample_id_pos = pos;
	pos = 1;
	if (st & HWPROF_SAMPLE_CPU) pos++;
	if (st & HWPROF_SAMPLE_STREAM_ID) pos++;
	h->trailer_id_pos = pos;
}

/* ---- open --------------------------------------------------------------- */

static int read_full(int fd, void *buf, size_t n, size_t *got)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = read(fd, (char *)buf + done, n - done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*got = done;
			return -HWPROF_E_IO;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	*got = done;
	return 0;
}

static int parse_magic(struct hwprof_perfdata *h, const uint8_t *p, size_t len)
{
	if (len < 8)
		return pdata_error(h, HWPROF_E_TRUNCATED, 0, "file is %zu bytes, too short for a perf.data header", len);
	uint64_t magic = ld64(p);
	if (magic == PDATA_MAGIC)
		h->info.swapped = false;
	else if (magic == __builtin_bswap64(PDATA_MAGIC))
		h->info.swapped = true;
	else if (!memcmp(p, "PERFFILE", 8))
		return pdata_error(h, HWPROF_E_UNSUPPORTED, 0,
				   "legacy perf.data version 1 (magic PERFFILE) is not supported");
	else
		return pdata_error(h, HWPROF_E_MAGIC, 0, "not a perf.data file (bad magic)");
	if (len < 16)
		return pdata_error(h, HWPROF_E_TRUNCATED, 8, "header ends before its size field");
	return 0;
}

static int check_section(struct hwprof_perfdata *h, const char *what, uint64_t off, uint64_t size,
			 uint64_t at)
{
	if (off > h->map_len || size > h->map_len - off)
		return pdata_error(h, HWPROF_E_CORRUPT, at,
				   "%s section [%#llx, +%#llx) lies outside the file (%zu bytes)", what,
				   (unsigned long long)off, (unsigned long long)size, h->map_len);
	return 0;
}

static int open_file_mode(struct hwprof_perfdata *h)
{
	const uint8_t *p = h->map;
	int swap = h->info.swapped;
	if (h->map_len < PDATA_FILE_HEADER_SIZE)
		return pdata_error(h, HWPROF_E_TRUNCATED, h->map_len,
				   "file header truncated: %zu of 104 bytes", h->map_len);
	struct hwprof_perfdata_info *in = &h->info;
	in->attr_size = ld64s(p + 16, swap);
	in->attrs_offset = ld64s(p + 24, swap);
	in->attrs_size = ld64s(p + 32, swap);
	in->data_offset = ld64s(p + 40, swap);
	in->data_size = ld64s(p + 48, swap);
	in->event_types_offset = ld64s(p + 56, swap);
	in->event_types_size = ld64s(p + 64, swap);
	if (in->header_size >= PDATA_FILE_HEADER_SIZE)
		for (int i = 0; i < 4; i++)
			in->features[i] = ld64s(p + 72 + 8 * i, swap);
	/* An unterminated recording leaves data.size 0; read to the end. */
	if (in->data_size == 0 && in->data_offset && in->data_offset <= h->map_len)
		in->data_size = h->map_len - in->data_offset;
	int rc;
	if ((rc = check_section(h, "attrs", in->attrs_offset, in->attrs_size, 24)))
		return rc;
	if (in->data_offset > h->map_len)
		return check_section(h, "data", in->data_offset, in->data_size, 40);
	uint64_t data_end_claimed = in->data_offset + in->data_size;
	if (in->data_size > h->map_len - in->data_offset) {
		/* A cut file: read the records that are there, then report. */
		h->truncated_at = h->map_len;
		h->claimed_end = data_end_claimed;
		in->data_size = h->map_len - in->data_offset;
	}
	if (in->attrs_size) {
		if (in->attr_size < HWPROF_ATTR_SIZE_VER0 + 16 || in->attr_size > (1u << 20))
			return pdata_error(h, HWPROF_E_CORRUPT, 16, "attr entry size %llu is invalid",
					   (unsigned long long)in->attr_size);
		if (in->attrs_size % in->attr_size)
			return pdata_error(h, HWPROF_E_CORRUPT, 32,
					   "attrs section size %llu is not a multiple of the entry size %llu",
					   (unsigned long long)in->attrs_size, (unsigned long long)in->attr_size);
		uint64_t n = in->attrs_size / in->attr_size;
		for (uint64_t i = 0; i < n; i++) {
			uint64_t at = in->attrs_offset + i * in->attr_size;
			const uint8_t *e = p + at;
			uint32_t asz = (uint32_t)(in->attr_size - 16);
			uint64_t ids_off = ld64s(e + asz, swap), ids_size = ld64s(e + asz + 8, swap);
			if ((rc = check_section(h, "ids", ids_off, ids_size, at + asz)))
				return rc;
			if ((rc = pdata_add_evsel(h, e, asz, p + ids_off, ids_size / 8, at)))
				return rc;
		}
	}
	/* Feature index: one {offset,size} per set bit, right after the data. */
	uint64_t idx = data_end_claimed;
	for (unsigned bit = 1; bit < HWPROF_FEAT_BITS; bit++) {
		if (!((in->features[bit / 64] >> (bit % 64)) & 1))
			continue;
		if (idx > h->map_len || h->map_len - idx < 16) {
			/* Missing index: keep the records readable, report on use. */
			h->feat_present[bit] = true;
			h->feat[bit].offset = UINT64_MAX;
			idx += 16;
			continue;
		}
		h->feat_present[bit] = true;
		h->feat[bit].offset = ld64s(p + idx, swap);
		h->feat[bit].size = ld64s(p + idx + 8, swap);
		idx += 16;
	}
	h->pos = in->data_offset;
	h->end = in->data_offset + in->data_size;
	pdata_load_event_desc(h);
	return 0;
}

static struct hwprof_perfdata *handle_new(const char *name)
{
	struct hwprof_perfdata *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->name = strdup(name ? name : "");
	h->fd = -1;
	h->id_zero = -1;
	h->sample_id_pos = h->trailer_id_pos = -1;
	if (!h->name) {
		free(h);
		return NULL;
	}
	return h;
}

static int finish_open(struct hwprof_perfdata *h)
{
	int rc = parse_magic(h, h->map, h->map_len);
	if (rc)
		return rc;
	h->info.header_size = ld64s(h->map + 8, h->info.swapped);
	h->info.file_size = h->map_len;
	if (h->info.header_size == PDATA_PIPE_HEADER_SIZE) {
		h->info.pipe = true;
		h->pos = PDATA_PIPE_HEADER_SIZE;
		h->end = h->map_len;
		return 0;
	}
	if (h->info.header_size != PDATA_FILE_HEADER_SIZE && h->info.header_size != 72)
		return pdata_error(h, HWPROF_E_UNSUPPORTED, 8, "unknown header size %llu",
				   (unsigned long long)h->info.header_size);
	return open_file_mode(h);
}

/* srcs[0]: the main file's data (or the stream), as open left it. */
static int init_main_src(struct hwprof_perfdata *h, const char *path)
{
	h->srcs = calloc(1, sizeof(*h->srcs));
	if (!h->srcs || !(h->srcs[0].path = strdup(path)))
		return pdata_error(h, HWPROF_E_NOMEM, 0, "out of memory");
	h->nsrc = 1;
	struct pdata_src *src = &h->srcs[0];
	src->map = h->map;
	src->len = h->map_len;
	src->unmap = h->unmap; /* for madvise; h owns the mapping */
	src->pos = h->pos;
	src->end = h->end;
	return 0;
}

/* Directory mode (perf record --threads): the data.N files after the
 * main one, in directory order as perf lists them, empty ones skipped. */
static int add_dir_sources(struct hwprof_perfdata *h, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return pdata_error(h, HWPROF_E_IO, 0, "cannot list %s: %s", dir, strerror(errno));
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "data.", 5))
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (m == MAP_FAILED) {
			rc = pdata_error(h, HWPROF_E_IO, 0, "cannot map %s: %s", path, strerror(errno));
			break;
		}
		struct pdata_src *v = realloc(h->srcs, (h->nsrc + 1) * sizeof(*v));
		if (!v) {
			munmap(m, (size_t)st.st_size);
			rc = pdata_error(h, HWPROF_E_NOMEM, 0, "out of memory");
			break;
		}
		h->srcs = v;
		struct pdata_src *src = &h->srcs[h->nsrc++];
		memset(src, 0, sizeof(*src));
		src->map = m;
		src->len = (size_t)st.st_size;
		src->unmap = true;
		src->path = strdup(path);
		src->end = src->len;
		if (!src->path) {
			rc = pdata_error(h, HWPROF_E_NOMEM, 0, "out of memory");
			break;
		}
	}
	closedir(d);
	return rc;
}

static int fail(struct hwprof_perfdata *h, int rc, struct hwprof_error *err)
{
	if (err) {
		*err = h ? h->err : (struct hwprof_error){ .code = rc };
		if (!h)
			snprintf(err->msg, sizeof(err->msg), "%s", hwprof_strerror(rc));
	}
	hwprof_perfdata_close(h);
	return rc;
}

HWPROF_API int hwprof_perfdata_open_mem(struct hwprof_perfdata **out, const void *buf, size_t len,
					const char *name, struct hwprof_error *err)
{
	*out = NULL;
	struct hwprof_perfdata *h = handle_new(name ? name : "<memory>");
	if (!h)
		return fail(NULL, -HWPROF_E_NOMEM, err);
	h->map = buf;
	h->map_len = len;
	int rc = finish_open(h);
	if (!rc)
		rc = init_main_src(h, h->name);
	if (rc)
		return fail(h, rc, err);
	*out = h;
	return 0;
}

/* A pipe that is not seekable: read the 16-byte header, then stream. */
static int open_stream(struct hwprof_perfdata *h)
{
	uint8_t hdr[16];
	size_t got;
	if (read_full(h->fd, hdr, sizeof(hdr), &got))
		return pdata_error(h, HWPROF_E_IO, got, "read error: %s", strerror(errno));
	int rc = parse_magic(h, hdr, got);
	if (rc)
		return rc;
	h->info.header_size = ld64s(hdr + 8, h->info.swapped);
	if (h->info.header_size != PDATA_PIPE_HEADER_SIZE)
		return pdata_error(h, HWPROF_E_UNSUPPORTED, 8,
				   "a file-mode perf.data cannot be read from a pipe (header size %llu)",
				   (unsigned long long)h->info.header_size);
	h->info.pipe = true;
	h->pos = PDATA_PIPE_HEADER_SIZE;
	h->end = UINT64_MAX;
	return 0;
}

HWPROF_API int hwprof_perfdata_open(struct hwprof_perfdata **out, const char *path,
				    struct hwprof_error *err)
{
	*out = NULL;
	bool is_stdin = !strcmp(path, "-");
	struct hwprof_perfdata *h = handle_new(is_stdin ? "pipe" : path);
	if (!h)
		return fail(NULL, -HWPROF_E_NOMEM, err);
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pdata_error(h, errno == ENOENT ? HWPROF_E_NOENT : HWPROF_E_IO, 0, "cannot open: %s",
			    strerror(errno));
		return fail(h, h->err.code, err);
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		pdata_error(h, HWPROF_E_IO, 0, "cannot stat: %s", strerror(errno));
		if (!is_stdin)
			close(fd);
		return fail(h, h->err.code, err);
	}
	/* A directory (perf record --threads): the header file is <dir>/data. */
	char main_path[4096];
	snprintf(main_path, sizeof(main_path), "%s", path);
	bool dir = S_ISDIR(st.st_mode);
	if (dir) {
		close(fd);
		snprintf(main_path, sizeof(main_path), "%s/data", path);
		fd = open(main_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			pdata_error(h, HWPROF_E_NOENT, 0, "directory without a perf.data header file 'data': %s",
				    strerror(errno));
			if (fd >= 0)
				close(fd);
			return fail(h, h->err.code, err);
		}
	}
	h->fd = fd;
	h->own_fd = !is_stdin;
	int rc;
	if (S_ISREG(st.st_mode)) {
		if (st.st_size == 0) {
			pdata_error(h, HWPROF_E_TRUNCATED, 0, "file is empty");
			return fail(h, h->err.code, err);
		}
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			pdata_error(h, HWPROF_E_IO, 0, "cannot map: %s", strerror(errno));
			return fail(h, h->err.code, err);
		}
		madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
		h->map = m;
		h->map_len = (size_t)st.st_size;
		h->unmap = true;
		rc = finish_open(h);
	} else {
		rc = open_stream(h);
	}
	if (!rc)
		rc = init_main_src(h, is_stdin && !h->map ? "pipe" : h->info.pipe ? "pipe" : main_path);
	if (!rc && dir)
		rc = add_dir_sources(h, path);
	if (rc)
		return fail(h, rc, err);
	*out = h;
	return 0;
}

HWPROF_API const char *hwprof_perfdata_file_path(const struct hwprof_perfdata *h, uint32_t idx)
{
	return idx < h->nsrc ? h->srcs[idx].path : h->name;
}

HWPROF_API void hwprof_perfdata_close(struct hwprof_perfdata *h)
{
	if (!h)
		return;
	if (h->unmap)
		munmap((void *)h->map, h->map_len);
	if (h->own_fd && h->fd >= 0)
		close(h->fd);
	for (size_t i = 0; i < h->nr_owned; i++)
		free(h->owned[i]);
	for (unsigned i = 0; i < HWPROF_FEAT_BITS; i++)
		free(h->feat[i].copy);
	free(h->owned);
	free(h->evsels);
	free(h->id_keys);
	free(h->id_vals);
	free(h->rbuf.p);
	free(h->swapbuf.p);
	for (uint32_t i = 0; i < h->nsrc; i++) {
		if (i && h->srcs[i].unmap)
			munmap((void *)h->srcs[i].map, h->srcs[i].len);
		free(h->srcs[i].path);
		pdata_decomp_free(&h->srcs[i].decomp);
	}
	free(h->srcs);
	free(h->name);
	free(h);
}

HWPROF_API const struct hwprof_perfdata_info *hwprof_perfdata_info(const struct hwprof_perfdata *h)
{
	return &h->info;
}

HWPROF_API const char *hwprof_perfdata_name(const struct hwprof_perfdata *h)
{
	return h->name;
}

HWPROF_API const struct hwprof_error *hwprof_perfdata_error(const struct hwprof_perfdata *h)
{
	return &h->err;
}

HWPROF_API uint32_t hwprof_perfdata_nr_evsels(const struct hwprof_perfdata *h)
{
	return h->nr_evsels;
}

HWPROF_API const struct hwprof_evsel *hwprof_perfdata_evsel(const struct hwprof_perfdata *h, uint32_t idx)
{
	return idx < h->nr_evsels ? &h->evsels[idx] : NULL;
}

HWPROF_API int hwprof_perfdata_feature(const struct hwprof_perfdata *h, unsigned feat, const uint8_t **data,
				       uint64_t *size, uint64_t *offset)
{
	if (feat >= HWPROF_FEAT_BITS || !h->feat_present[feat])
		return 0;
	const struct pdata_feat *f = &h->feat[feat];
	if (f->copy) {
		*data = f->copy;
	} else {
		if (f->offset > h->map_len || f->size > h->map_len - f->offset)
			return -HWPROF_E_CORRUPT;
		*data = h->map + f->offset;
	}
	*size = f->size;
	if (offset)
		*offset = f->offset;
	return 1;
}

/* ---- records ------------------------------------------------------------ */

/* Absorbs records that describe the stream itself (pipe-mode attrs,
 * features, event names) into the handle, as they go by. */
static int absorb(struct hwprof_perfdata *h, const struct hwprof_record *rec)
{
	const uint8_t *d = rec->data;
	switch (rec->type) {
	case HWPROF_RECORD_HEADER_ATTR: {
		uint32_t body = rec->size - 8u;
		if (body < 8)
			return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, rec->offset), "HEADER_ATTR record too short");
		uint32_t asz = ld32(d + 12);
		if (asz == 0)
			asz = HWPROF_ATTR_SIZE_VER0;
		if (asz > body)
			return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, rec->offset),
					   "HEADER_ATTR attr size %u exceeds the record", asz);
		/* d is host order already: decode without swapping */
		int sw = h->info.swapped;
		h->info.swapped = false;
		int rc = pdata_add_evsel(h, d + 8, asz, d + 8 + asz, (body - asz) / 8, rec->offset);
		h->info.swapped = sw;
		return rc;
	}
	case HWPROF_RECORD_HEADER_FEATURE: {
		if (rec->size < 16)
			return pdata_error(h, HWPROF_E_CORRUPT, pdata_rec_off(h, rec->offset), "HEADER_FEATURE record too short");
		uint64_t id = ld64(d + 8);
		if (id >= HWPROF_FEAT_BITS || id == HWPROF_FEAT_RESERVED)
			return 0; /* the end marker (HEADER_LAST_FEATURE) or unknown */
		struct pdata_feat *f = &h->feat[id];
		free(f->copy);
		f->copy = malloc(rec->size - 16u + 1);
		if (!f->copy)
			return pdata_error(h, HWPROF_E_NOMEM, pdata_rec_off(h, rec->offset), "out of memory");
		/* Feature payloads are kept in file order: copy the original bytes. */
		memcpy(f->copy, d + 16, rec->size - 16u);
		f->size = rec->size - 16u;
		f->offset = rec->offset + 16;
		h->feat_present[id] = true;
		h->info.features[id / 64] |= 1ULL << (id % 64);
		return 0;
	}
	case HWPROF_RECORD_EVENT_UPDATE:
		if (rec->size >= 24 && ld64(d + 8) == 2 /* NAME */) {
			size_t n = strnlen((const char *)d + 24, rec->size - 24u);
			pdata_set_evsel_name(h, ld64(d + 16), (const char *)d + 24, n);
		}
		return 0;
	default:
		return 0;
	}
}

/* Payload that follows a record without being counted in header.size. */
static uint64_t payload_size_of(const uint8_t *d, uint32_t type, uint16_t size)
{
	if (type == HWPROF_RECORD_AUXTRACE && size >= 16)
		return ld64(d + 8);
	if (type == HWPROF_RECORD_HEADER_TRACING_DATA && size >= 12) {
		uint64_t n = ld32(d + 8);
		return (n + 7) & ~7ULL;
	}
	return 0;
}

/* Keep memory bounded on huge files: drop mapped pages well behind the
 * read position. Records still referenced there (queued for ordering) are
 * simply faulted back in from the page cache when used. */
#define RELEASE_STEP (16u << 20)
static void release_behind(struct pdata_src *src)
{
	if (!src->unmap || src->pos < src->released + 2 * (uint64_t)RELEASE_STEP)
		return;
	uint64_t upto = (src->pos - RELEASE_STEP) & ~(uint64_t)0xfffff;
	if (upto <= src->released)
		return;
	madvise((void *)(src->map + src->released), upto - src->released, MADV_DONTNEED);
	src->released = upto;
}

static int next_from_map(struct hwprof_perfdata *h, struct pdata_src *src, struct hwprof_record *rec)
{
	if (src->pos >= src->end) {
		if (h->truncated_at && src == &h->srcs[0])
			return pdata_error(h, HWPROF_E_TRUNCATED, h->truncated_at,
					   "file ends inside the data section (which claims to end at %#llx)",
					   (unsigned long long)h->claimed_end);
		return 0;
	}
	uint64_t avail = src->end - src->pos;
	if (avail < 8)
		return pdata_error(h, HWPROF_E_TRUNCATED, src->pos, "record header truncated (%llu bytes left)",
				   (unsigned long long)avail);
	const uint8_t *d = src->map + src->pos;
	int swap = h->info.swapped;
	uint32_t type = ld32s(d, swap);
	uint16_t size = ld16s(d + 6, swap);
	if (size < 8)
		return pdata_error(h, HWPROF_E_CORRUPT, src->pos, "record size %u is smaller than its header", size);
	if (size > avail)
		return pdata_error(h, HWPROF_E_TRUNCATED, src->pos,
				   "record of type %u and size %u runs past the end of the data (%llu bytes left)",
				   type, size, (unsigned long long)avail);
	const uint8_t *host = d;
	if (swap) {
		int rc = pdata_swap_record(h, d, size, src->pos);
		if (rc)
			return rc;
		host = h->swapbuf.p;
	}
	uint64_t pay = payload_size_of(host, type, size);
	if (pay > avail - size)
		return pdata_error(h, HWPROF_E_TRUNCATED, src->pos,
				   "record of type %u claims %llu bytes of payload, only %llu left", type,
				   (unsigned long long)pay, (unsigned long long)(avail - size));
	memset(rec, 0, sizeof(*rec));
	rec->type = type;
	rec->misc = ld16(host + 4);
	rec->size = size;
	rec->data = host;
	rec->offset = h->info.pipe ? src->pos - PDATA_PIPE_HEADER_SIZE : src->pos;
	rec->file_idx = (uint32_t)(src - h->srcs);
	if (pay) {
		rec->payload = d + size;
		rec->payload_size = pay;
	}
	src->pos += size + pay;
	src->turn += size + pay;
	if (src->pos < src->end)
		__builtin_prefetch(src->map + src->pos); /* the next header, a
		                                           * page on in big samples */
	release_behind(src);
	return 1;
}

bool pdata_record_in_map(const struct hwprof_perfdata *h, const struct hwprof_record *r)
{
	if (h->info.swapped || r->compressed || r->file_idx >= h->nsrc)
		return false;
	const struct pdata_src *src = &h->srcs[r->file_idx];
	return src->map && r->data >= src->map && r->data < src->map + src->len;
}

static int next_from_fd(struct hwprof_perfdata *h, struct hwprof_record *rec)
{
	uint8_t hdr[8];
	size_t got;
	uint64_t at = h->srcs[0].pos;
	if (read_full(h->fd, hdr, 8, &got))
		return pdata_error(h, HWPROF_E_IO, at + got, "read error: %s", strerror(errno));
	if (got == 0)
		return 0;
	if (got < 8)
		return pdata_error(h, HWPROF_E_TRUNCATED, at, "record header truncated (%zu bytes)", got);
	int swap = h->info.swapped;
	uint32_t type = ld32s(hdr, swap);
	uint16_t size = ld16s(hdr + 6, swap);
	if (size < 8)
		return pdata_error(h, HWPROF_E_CORRUPT, at, "record size %u is smaller than its header", size);
	if (pdata_buf_reserve(&h->rbuf, size))
		return pdata_error(h, HWPROF_E_NOMEM, at, "out of memory");
	memcpy(h->rbuf.p, hdr, 8);
	if (read_full(h->fd, h->rbuf.p + 8, size - 8u, &got) || got < size - 8u)
		return pdata_error(h, HWPROF_E_TRUNCATED, at,
				   "record of type %u and size %u truncated by the end of the stream", type, size);
	const uint8_t *host = h->rbuf.p;
	if (swap) {
		int rc = pdata_swap_record(h, h->rbuf.p, size, at);
		if (rc)
			return rc;
		host = h->swapbuf.p;
	}
	uint64_t pay = payload_size_of(host, type, size);
	if (pay > PDATA_MAX_PAYLOAD)
		return pdata_error(h, HWPROF_E_CORRUPT, at, "record of type %u claims %llu bytes of payload",
				   type, (unsigned long long)pay);
	if (pay) {
		if (pdata_buf_reserve(&h->rbuf, size + pay))
			return pdata_error(h, HWPROF_E_NOMEM, at, "out of memory for %llu bytes of payload",
					   (unsigned long long)pay);
		if (swap)
			host = h->swapbuf.p;
		if (read_full(h->fd, h->rbuf.p + size, pay, &got) || got < pay)
			return pdata_error(h, HWPROF_E_TRUNCATED, at + size,
					   "payload of %llu bytes truncated by the end of the stream",
					   (unsigned long long)pay);
		if (!swap)
			host = h->rbuf.p;
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = type;
	rec->misc = ld16(host + 4);
	rec->size = size;
	rec->data = host;
	rec->offset = at - PDATA_PIPE_HEADER_SIZE;
	if (pay) {
		rec->payload = h->rbuf.p + size;
		rec->payload_size = pay;
	}
	h->srcs[0].pos += size + pay;
	return 1;
}

/* Directory mode reads its files in turns of this many bytes, the main
 * file first, as perf does (which decides the order records are queued). */
#define TURN_BYTES (2u << 20)

static int next_raw(struct hwprof_perfdata *h, struct hwprof_record *rec)
{
	if (!h->map)
		return next_from_fd(h, rec);
	for (uint32_t tries = 0; tries <= 2 * h->nsrc; tries++) {
		struct pdata_src *src = &h->srcs[h->cur];
		if (src->done) {
			h->cur = (h->cur + 1) % h->nsrc;
			continue;
		}
		int rc = next_from_map(h, src, rec);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			src->done = true;
			continue;
		}
		if (src->turn >= TURN_BYTES) {
			src->turn = 0;
			h->cur = (h->cur + 1) % h->nsrc;
		}
		return 1;
	}
	return 0;
}

HWPROF_API int hwprof_perfdata_next(struct hwprof_perfdata *h, struct hwprof_record *rec)
{
	if (h->done)
		return h->err.code ? h->err.code : 0;
	int rc;
	if (h->srcs[h->batch_src].decomp.active) {
		rc = pdata_decomp_next(h, rec);
		if (rc)
			goto out;
	}
	for (;;) {
		rc = next_raw(h, rec);
		if (rc <= 0)
			break;
		if (rec->type == HWPROF_RECORD_COMPRESSED || rec->type == HWPROF_RECORD_COMPRESSED2) {
			/* a batch (and a record straddling two) belongs to its file */
			h->batch_src = rec->file_idx;
			h->info.nr_compressed++;
			rc = pdata_decomp_start(h, rec->data, rec->size, rec->offset, rec->type);
			if (rc)
				break;
			rc = pdata_decomp_next(h, rec);
			if (rc)
				break;
			continue; /* an empty batch */
		}
		break;
	}
out:
	if (rc > 0) {
		int a = absorb(h, rec);
		if (a)
			rc = a;
	}
	if (rc <= 0)
		h->done = true;
	return rc;
}
