/* TEMPORARY fallback (see reader_weak.h): just enough perf.data reading for
 * `report --header-only` while this branch lacks the library's reader —
 * the 104-byte file header and its feature index, or a pipe stream's
 * HEADER_FEATURE records. Delete once the reader is merged. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/reader_weak.h"
#include "util/bytes.h"

#define MAGIC 0x32454c4946524550ULL

struct keep { struct keep *next; uint8_t data[]; };

static int seterr(struct hwprof_error *err, int code, uint64_t off, const char *msg)
{
	if (err) {
		err->code = -code;
		err->offset = off;
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
	return -code;
}

static uint8_t *keep_alloc(void **keep, uint64_t n)
{
	if (n > (1ULL << 31))
		return NULL;
	struct keep *k = malloc(sizeof(*k) + (size_t)n + 1);
	if (!k)
		return NULL;
	k->next = *keep;
	*keep = k;
	return k->data;
}

static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got ? 0 : -1; /* 0: short, -1: clean end */
		got += (size_t)r;
	}
	return 1;
}

static int skip(int fd, uint64_t n)
{
	char buf[4096];
	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		if (read_full(fd, buf, k) != 1)
			return -1;
		n -= k;
	}
	return 0;
}

static int load_pipe(int fd, struct hdr_view *v, void **keep, int swap, struct hwprof_error *err)
{
	uint64_t off = 16;
	for (;;) {
		uint8_t h[8];
		int r = read_full(fd, h, 8);
		if (r < 0)
			return 0;
		if (r == 0)
			return seterr(err, HWPROF_E_TRUNCATED, off, "record header cut short");
		uint32_t type = ld32s(h, swap);
		uint16_t size = ld16s(h + 6, swap);
		if (size < 8)
			return seterr(err, HWPROF_E_CORRUPT, off, "record size below 8");
		uint8_t *rec = keep_alloc(keep, size);
		if (!rec)
			return seterr(err, HWPROF_E_NOMEM, off, "out of memory");
		memcpy(rec, h, 8);
		if (read_full(fd, rec + 8, size - 8u) == 0 && size > 8)
			return seterr(err, HWPROF_E_TRUNCATED, off, "record cut short");
		uint64_t extra = 0;
		if (type == HWPROF_RECORD_HEADER_FEATURE && size >= 16) {
			uint64_t feat = ld64s(rec + 8, swap);
			if (feat > 0 && feat < HWPROF_FEAT_LAST) {
				v->feat_present[feat] = true;
				v->feat_data[feat] = rec + 16;
				v->feat_size[feat] = size - 16u;
			}
		} else if (type == HWPROF_RECORD_HEADER_TRACING_DATA && size >= 12) {
			extra = ld32s(rec + 8, swap);
		} else if (type == HWPROF_RECORD_AUXTRACE && size >= 16) {
			extra = ld64s(rec + 8, swap);
		}
		if (extra && skip(fd, extra))
			return seterr(err, HWPROF_E_TRUNCATED, off, "record payload cut short");
		off += size + extra;
	}
}

int hdr_minread(const char *path, struct hdr_view *v, void **keep, struct hwprof_error *err)
{
	memset(v, 0, sizeof(*v));
	*keep = NULL;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	if (fd < 0)
		return seterr(err, HWPROF_E_IO, 0, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) == 0)
		v->mtime = st.st_mtime;
	uint8_t h[104];
	int r = read_full(fd, h, 16), ret = 0;
	if (r != 1) {
		ret = seterr(err, HWPROF_E_TRUNCATED, 0, "file header cut short");
		goto out;
	}
	uint64_t magic = ld64(h);
	int swap = magic == __builtin_bswap64(MAGIC);
	if (magic != MAGIC && !swap) {
		ret = seterr(err, HWPROF_E_MAGIC, 0, "not a perf.data file");
		goto out;
	}
	v->swapped = swap;
	if (ld64s(h + 8, swap) == 16) {
		v->pipe = true;
		ret = load_pipe(fd, v, keep, swap, err);
		goto out;
	}
	if (read_full(fd, h + 16, 88) != 1) {
		ret = seterr(err, HWPROF_E_TRUNCATED, 16, "file header cut short");
		goto out;
	}
	v->data_offset = ld64s(h + 40, swap);
	v->data_size = ld64s(h + 48, swap);
	for (int i = 0; i < 4; i++)
		v->features[i] = ld64s(h + 72 + 8 * i, swap);
	uint64_t idx = v->data_offset + v->data_size, fsize = (uint64_t)st.st_size;
	for (unsigned f = 1; f < HWPROF_FEAT_BITS; f++) {
		if (!((v->features[f / 64] >> (f % 64)) & 1))
			continue;
		uint8_t sec[16];
		if (idx > fsize || pread(fd, sec, 16, (off_t)idx) != 16) {
			ret = seterr(err, HWPROF_E_TRUNCATED, idx, "feature index cut short");
			goto out;
		}
		idx += 16;
		uint64_t o = ld64s(sec, swap), n = ld64s(sec + 8, swap);
		if (f >= HWPROF_FEAT_LAST)
			continue;
		if (o > fsize || n > fsize - o) {
			ret = seterr(err, HWPROF_E_CORRUPT, idx - 16, "feature section outside the file");
			goto out;
		}
		uint8_t *p = keep_alloc(keep, n);
		if (!p || pread(fd, p, (size_t)n, (off_t)o) != (ssize_t)n) {
			ret = seterr(err, HWPROF_E_IO, o, "cannot read feature section");
			goto out;
		}
		v->feat_present[f] = true;
		v->feat_data[f] = p;
		v->feat_size[f] = n;
	}
out:
	if (fd > 0)
		close(fd);
	return ret;
}

void hdr_minread_free(void *keep)
{
	struct keep *k = keep;
	while (k) {
		struct keep *n = k->next;
		free(k);
		k = n;
	}
}
