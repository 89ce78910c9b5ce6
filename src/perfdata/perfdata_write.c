/* perf.data writer (see perfdata_write.h). File mode layout, as perf
 * record writes it: header (104 bytes) | sample ids | attrs | data |
 * feature index | feature payloads. The ids and attrs are written when the
 * first record arrives (events must be known by then); features and the
 * final header on close. Pipe mode: header (16 bytes) | HEADER_ATTR per
 * event | HEADER_FEATURE per feature | end-of-features marker | records. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwprof/perfdata_write.h"
#include "util/bytes.h"

#define MAGIC 0x32454c4946524550ULL
#define PDATA_HDR_SIZE 104

struct wevsel {
	struct hwprof_attr attr;
	char *name;
	uint64_t *ids;
	uint32_t nr_ids;
};

struct wfeat {
	uint8_t *data;
	size_t size;
	bool present;
};

struct hwprof_writer {
	int fd;
	bool own_fd;
	enum hwprof_write_mode mode;
	struct hwprof_error err;
	struct wevsel *ev;
	uint32_t nr_ev;
	struct wfeat feat[HWPROF_FEAT_BITS];
	bool started;           /* ids/attrs (or pipe headers) are out */
	uint64_t pos;           /* file position */
	uint64_t data_offset, data_size;
	uint64_t *aux_index;    /* file offsets of AUXTRACE records */
	size_t nr_aux, cap_aux;
	uint8_t buf[1 << 16];   /* output buffer */
	size_t buffered;
	/* What a failed write leaves readable: bytes known to be on disk, the
	 * end of the last whole record among them, and the record ends still
	 * waiting in the buffer (at most one per 8 buffered bytes, plus one) */
	uint64_t on_disk, safe_end;
	uint64_t pend[(1 << 13) + 2];
	size_t pend_first, pend_n;
};

#define PEND_CAP ((1 << 13) + 2)

/* A whole record ends at file position end. */
static void mark_end(struct hwprof_writer *w, uint64_t end)
{
	if (end <= w->on_disk) {
		w->safe_end = end;
	} else if (w->pend_n == PEND_CAP) {
		w->pend[(w->pend_first + w->pend_n - 1) % PEND_CAP] = end; /* coarser, still safe */
	} else {
		w->pend[(w->pend_first + w->pend_n++) % PEND_CAP] = end;
	}
}

static void advance_disk(struct hwprof_writer *w, size_t n)
{
	w->on_disk += n;
	while (w->pend_n && w->pend[w->pend_first] <= w->on_disk) {
		w->safe_end = w->pend[w->pend_first];
		w->pend_first = (w->pend_first + 1) % PEND_CAP;
		w->pend_n--;
	}
}

static int werror(struct hwprof_writer *w, int code, const char *fmt, const char *detail)
{
	if (!w->err.code) {
		w->err.code = -code;
		w->err.offset = w->pos;
		snprintf(w->err.msg, sizeof(w->err.msg), fmt, detail);
	}
	return w->err.code;
}

static int flush(struct hwprof_writer *w)
{
	size_t done = 0;
	while (done < w->buffered) {
		ssize_t r = write(w->fd, w->buf + done, w->buffered - done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return werror(w, HWPROF_E_IO, "write failed: %s", strerror(errno));
		}
		done += (size_t)r;
		advance_disk(w, (size_t)r);
	}
	w->buffered = 0;
	return 0;
}

static int out(struct hwprof_writer *w, const void *p, size_t n)
{
	if (w->err.code)
		return w->err.code;
	const uint8_t *s = p;
	while (n) {
		if (w->buffered == sizeof(w->buf) && flush(w))
			return w->err.code;
		size_t k = sizeof(w->buf) - w->buffered;
		if (k > n)
			k = n;
		memcpy(w->buf + w->buffered, s, k);
		w->buffered += k;
		s += k;
		n -= k;
		w->pos += k;
	}
	return 0;
}

static int out_zeros(struct hwprof_writer *w, size_t n)
{
	static const uint8_t z[64];
	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);
		if (out(w, z, k))
			return w->err.code;
		n -= k;
	}
	return 0;
}

static int pwrite_all(struct hwprof_writer *w, const void *p, size_t n, uint64_t at)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = pwrite(w->fd, (const uint8_t *)p + done, n - done, (off_t)(at + done));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return werror(w, HWPROF_E_IO, "write failed: %s", strerror(errno));
		}
		done += (size_t)r;
	}
	return 0;
}

HWPROF_API int hwprof_writer_open_fd(struct hwprof_writer **outp, int fd, enum hwprof_write_mode mode,
				     struct hwprof_error *err)
{
	struct hwprof_writer *w = calloc(1, sizeof(*w));
	*outp = NULL;
	if (!w) {
		if (err) {
			memset(err, 0, sizeof(*err));
			err->code = -HWPROF_E_NOMEM;
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		}
		return -HWPROF_E_NOMEM;
	}
	w->fd = fd;
	w->mode = mode;
	if (mode == HWPROF_WRITE_FILE) {
		/* A placeholder header; the real one is written on close. */
		uint8_t hdr[104] = { 0 };
		out(w, hdr, sizeof(hdr));
	} else {
		uint8_t hdr[16];
		st64(hdr, MAGIC);
		st64(hdr + 8, 16);
		out(w, hdr, sizeof(hdr));
	}
	*outp = w;
	return 0;
}

HWPROF_API int hwprof_writer_open(struct hwprof_writer **outp, const char *path, enum hwprof_write_mode mode,
				  struct hwprof_error *err)
{
	bool is_stdout = !strcmp(path, "-");
	int fd = is_stdout ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	*outp = NULL;
	if (fd < 0) {
		if (err) {
			memset(err, 0, sizeof(*err));
			err->code = -HWPROF_E_IO;
			snprintf(err->msg, sizeof(err->msg), "cannot create %s: %s", path, strerror(errno));
		}
		return -HWPROF_E_IO;
	}
	int rc = hwprof_writer_open_fd(outp, fd, mode, err);
	if (rc) {
		if (!is_stdout)
			close(fd);
		return rc;
	}
	(*outp)->own_fd = !is_stdout;
	return 0;
}

HWPROF_API int hwprof_writer_add_evsel(struct hwprof_writer *w, const struct hwprof_attr *attr, const char *name,
				       const uint64_t *ids, uint32_t nr_ids)
{
	if (w->started)
		return werror(w, HWPROF_E_INVAL, "%s", "events must be added before the first record");
	struct wevsel *e = realloc(w->ev, (w->nr_ev + 1) * sizeof(*e));
	if (!e)
		return werror(w, HWPROF_E_NOMEM, "%s", "out of memory");
	w->ev = e;
	e = &w->ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	if (!e->attr.size)
		e->attr.size = HWPROF_ATTR_SIZE_VER7;
	if (e->attr.size > 4096)
		return werror(w, HWPROF_E_INVAL, "%s", "attr size above 4096 bytes");
	e->name = name ? strdup(name) : NULL;
	e->ids = nr_ids ? malloc(nr_ids * sizeof(*ids)) : NULL;
	if ((name && !e->name) || (nr_ids && !e->ids))
		return werror(w, HWPROF_E_NOMEM, "%s", "out of memory");
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * sizeof(*ids));
	e->nr_ids = nr_ids;
	w->nr_ev++;
	return 0;
}

HWPROF_API int hwprof_writer_add_feature(struct hwprof_writer *w, unsigned feat, const void *data, size_t size)
{
	if (feat == 0 || feat >= HWPROF_FEAT_BITS)
		return werror(w, HWPROF_E_INVAL, "%s", "bad feature id");
	if (w->mode == HWPROF_WRITE_PIPE && w->started)
		return werror(w, HWPROF_E_INVAL, "%s", "pipe mode: features must come before the first record");
	struct wfeat *f = &w->feat[feat];
	uint8_t *c = malloc(size ? size : 1);
	if (!c)
		return werror(w, HWPROF_E_NOMEM, "%s", "out of memory");
	if (size) /* an empty feature (BRANCH_STACK) may come without data */
		memcpy(c, data, size);
	free(f->data);
	f->data = c;
	f->size = size;
	f->present = true;
	return 0;
}

HWPROF_API int hwprof_writer_add_feature_string(struct hwprof_writer *w, unsigned feat, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + 63) & ~(size_t)63;
	uint8_t *b = calloc(1, 4 + padded);
	if (!b)
		return werror(w, HWPROF_E_NOMEM, "%s", "out of memory");
	st32(b, (uint32_t)padded);
	memcpy(b + 4, s, n);
	int rc = hwprof_writer_add_feature(w, feat, b, 4 + padded);
	free(b);
	return rc;
}

/* EVENT_DESC from the events, unless the caller gave one. */
static void add_event_desc(struct hwprof_writer *w)
{
	if (w->feat[HWPROF_FEAT_EVENT_DESC].present || !w->nr_ev)
		return;
	uint32_t asz = 0;
	size_t total = 8;
	for (uint32_t i = 0; i < w->nr_ev; i++)
		if (w->ev[i].attr.size > asz)
			asz = w->ev[i].attr.size;
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		size_t n = w->ev[i].name ? strlen(w->ev[i].name) + 1 : 1;
		total += asz + 8 + ((n + 63) & ~(size_t)63) + 8ull * w->ev[i].nr_ids;
	}
	uint8_t *b = calloc(1, total + HWPROF_ATTR_SIZE_VER10);
	if (!b)
		return;
	uint8_t *p = b;
	st32(p, w->nr_ev);
	st32(p + 4, asz);
	p += 8;
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		struct hwprof_attr a = w->ev[i].attr;
		a.size = asz;
		hwprof_attr_encode(&a, p);
		p += asz;
		st32(p, w->ev[i].nr_ids);
		const char *name = w->ev[i].name ? w->ev[i].name : "";
		size_t n = strlen(name) + 1, padded = (n + 63) & ~(size_t)63;
		st32(p + 4, (uint32_t)padded);
		p += 8;
		memset(p, 0, padded);
		memcpy(p, name, n);
		p += padded;
		for (uint32_t k = 0; k < w->ev[i].nr_ids; k++, p += 8)
			st64(p, w->ev[i].ids[k]);
	}
	hwprof_writer_add_feature(w, HWPROF_FEAT_EVENT_DESC, b, (size_t)(p - b));
	free(b);
}

static int start(struct hwprof_writer *w)
{
	if (w->started)
		return 0;
	w->started = true;
	if (w->mode == HWPROF_WRITE_PIPE) {
		uint8_t attr[4096 + 16];
		for (uint32_t i = 0; i < w->nr_ev; i++) {
			const struct wevsel *e = &w->ev[i];
			size_t size = 8 + e->attr.size + 8ull * e->nr_ids;
			if (size > 65535)
				return werror(w, HWPROF_E_INVAL, "%s", "too many ids for a HEADER_ATTR record");
			uint8_t hdr[8];
			st32(hdr, HWPROF_RECORD_HEADER_ATTR);
			st16(hdr + 4, 0);
			st16(hdr + 6, (uint16_t)size);
			hwprof_attr_encode(&e->attr, attr);
			out(w, hdr, 8);
			out(w, attr, e->attr.size);
			out(w, e->ids, 8ull * e->nr_ids);
		}
		for (unsigned f = 1; f < HWPROF_FEAT_BITS; f++) {
			if (!w->feat[f].present)
				continue;
			size_t size = 16 + w->feat[f].size;
			if (size > 65535)
				return werror(w, HWPROF_E_INVAL, "%s", "feature too large for a pipe record");
			uint8_t hdr[16];
			st32(hdr, HWPROF_RECORD_HEADER_FEATURE);
			st16(hdr + 4, 0);
			st16(hdr + 6, (uint16_t)size);
			st64(hdr + 8, f);
			out(w, hdr, 16);
			out(w, w->feat[f].data, w->feat[f].size);
		}
		/* the end-of-features marker perf writes (feature id 32) */
		uint8_t end[16];
		st32(end, HWPROF_RECORD_HEADER_FEATURE);
		st16(end + 4, 0);
		st16(end + 6, 16);
		st64(end + 8, HWPROF_FEAT_LAST);
		out(w, end, 16);
		w->data_offset = w->pos;
		return w->err.code;
	}
	for (uint32_t i = 0; i < w->nr_ev; i++)
		out(w, w->ev[i].ids, 8ull * w->ev[i].nr_ids);
	w->data_offset = w->pos; /* updated after the attrs below */
	uint64_t ids_at = PDATA_HDR_SIZE;
	uint32_t asz = 0;
	for (uint32_t i = 0; i < w->nr_ev; i++)
		if (w->ev[i].attr.size > asz)
			asz = w->ev[i].attr.size;
	uint8_t attr[4096 + 16];
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		struct hwprof_attr a = w->ev[i].attr;
		memset(attr, 0, sizeof(attr));
		hwprof_attr_encode(&a, attr);
		st64(attr + asz, ids_at);
		st64(attr + asz + 8, 8ull * w->ev[i].nr_ids);
		out(w, attr, asz + 16);
		ids_at += 8ull * w->ev[i].nr_ids;
	}
	w->data_offset = w->pos;
	w->safe_end = w->data_offset;
	return w->err.code;
}

HWPROF_API int hwprof_writer_write(struct hwprof_writer *w, const void *rec, size_t size)
{
	if (start(w))
		return w->err.code;
	if (size < 8 || size > 65535 || ld16((const uint8_t *)rec + 6) != size)
		return werror(w, HWPROF_E_INVAL, "%s", "record size does not match its header");
	if (out(w, rec, size))
		return w->err.code;
	w->data_size = w->pos - w->data_offset;
	mark_end(w, w->pos);
	return 0;
}

HWPROF_API int hwprof_writer_write_records(struct hwprof_writer *w, const void *recs, size_t len)
{
	if (start(w))
		return w->err.code;
	const uint8_t *p = recs;
	for (size_t at = 0; at < len;) {
		uint16_t sz = len - at >= 8 ? ld16(p + at + 6) : 0;
		if (sz < 8 || sz > len - at)
			return werror(w, HWPROF_E_INVAL, "%s", "record run does not end on a record boundary");
		at += sz;
	}
	uint64_t base = w->pos;
	if (out(w, recs, len))
		return w->err.code;
	w->data_size = w->pos - w->data_offset;
	for (size_t at = 0; at < len;) {
		at += ld16(p + at + 6);
		mark_end(w, base + at);
	}
	return 0;
}

HWPROF_API uint64_t hwprof_writer_pos(const struct hwprof_writer *w)
{
	return w->pos;
}

HWPROF_API int hwprof_writer_write_auxtrace(struct hwprof_writer *w, uint64_t offset, uint64_t reference,
					    uint32_t idx, int32_t tid, int32_t cpu, const void *data, size_t len)
{
	if (start(w))
		return w->err.code;
	size_t padded = (len + 7) & ~(size_t)7;
	uint8_t r[48] = { 0 };
	st32(r, HWPROF_RECORD_AUXTRACE);
	st16(r + 6, 48);
	st64(r + 8, padded);
	st64(r + 16, offset);
	st64(r + 24, reference);
	st32(r + 32, idx);
	st32(r + 36, (uint32_t)tid);
	st32(r + 40, (uint32_t)cpu);
	if (w->nr_aux == w->cap_aux) {
		size_t n = w->cap_aux ? w->cap_aux * 2 : 64;
		uint64_t *v = realloc(w->aux_index, n * sizeof(*v));
		if (!v)
			return werror(w, HWPROF_E_NOMEM, "%s", "out of memory");
		w->aux_index = v;
		w->cap_aux = n;
	}
	w->aux_index[w->nr_aux++] = w->pos;
	out(w, r, 48);
	out(w, data, len);
	out_zeros(w, padded - len);
	w->data_size = w->pos - w->data_offset;
	if (!w->err.code)
		mark_end(w, w->pos);
	return w->err.code;
}

HWPROF_API uint64_t hwprof_writer_data_size(const struct hwprof_writer *w)
{
	return w->data_size;
}

static void writer_free(struct hwprof_writer *w)
{
	for (uint32_t i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	free(w->ev);
	for (unsigned f = 0; f < HWPROF_FEAT_BITS; f++)
		free(w->feat[f].data);
	free(w->aux_index);
	free(w);
}

HWPROF_API int hwprof_writer_close(struct hwprof_writer *w, struct hwprof_error *err)
{
	if (!w)
		return 0;
	start(w);
	if (w->mode == HWPROF_WRITE_FILE) {
		/* Only whole records count: a failed write leaves data_size at the
		 * last complete one, and the header says so. */
		bool failed = w->err.code != 0;
		if (!failed) {
			add_event_desc(w);
			if (w->nr_aux && !w->feat[HWPROF_FEAT_AUXTRACE].present) {
				size_t n = 8 + 16 * w->nr_aux;
				uint8_t *b = malloc(n);
				if (b) {
					st64(b, w->nr_aux);
					for (size_t i = 0; i < w->nr_aux; i++) {
						st64(b + 8 + 16 * i, w->aux_index[i]);
						st64(b + 16 + 16 * i, 48);
					}
					hwprof_writer_add_feature(w, HWPROF_FEAT_AUXTRACE, b, n);
					free(b);
				}
			}
			uint64_t at = w->pos;
			unsigned nf = 0;
			for (unsigned f = 1; f < HWPROF_FEAT_BITS; f++)
				nf += w->feat[f].present;
			uint64_t payload = at + 16ull * nf;
			for (unsigned f = 1; f < HWPROF_FEAT_BITS; f++) {
				if (!w->feat[f].present)
					continue;
				uint8_t idx[16];
				st64(idx, payload);
				st64(idx + 8, w->feat[f].size);
				out(w, idx, 16);
				payload += w->feat[f].size;
			}
			for (unsigned f = 1; f < HWPROF_FEAT_BITS; f++)
				if (w->feat[f].present)
					out(w, w->feat[f].data, w->feat[f].size);
		}
		int saved = w->err.code;
		w->err.code = 0;
		if (!failed)
			flush(w);
		else
			w->data_size = w->safe_end > w->data_offset ? w->safe_end - w->data_offset : 0;
		uint8_t hdr[104] = { 0 };
		uint32_t asz = 0;
		for (uint32_t i = 0; i < w->nr_ev; i++)
			if (w->ev[i].attr.size > asz)
				asz = w->ev[i].attr.size;
		uint64_t ids_total = 0;
		for (uint32_t i = 0; i < w->nr_ev; i++)
			ids_total += 8ull * w->ev[i].nr_ids;
		st64(hdr, MAGIC);
		st64(hdr + 8, 104);
		st64(hdr + 16, asz + 16);
		st64(hdr + 24, PDATA_HDR_SIZE + ids_total);
		st64(hdr + 32, (uint64_t)w->nr_ev * (asz + 16));
		st64(hdr + 40, w->data_offset);
		st64(hdr + 48, w->data_size);
		if (!failed)
			for (unsigned f = 1; f < HWPROF_FEAT_BITS; f++)
				if (w->feat[f].present)
					hdr[72 + f / 8] |= (uint8_t)(1u << (f % 8));
		pwrite_all(w, hdr, sizeof(hdr), 0);
		if (saved)
			w->err.code = saved;
	} else {
		flush(w);
	}
	if (w->own_fd && close(w->fd) && !w->err.code)
		werror(w, HWPROF_E_IO, "close failed: %s", strerror(errno));
	int rc = w->err.code;
	if (err)
		*err = w->err;
	writer_free(w);
	return rc;
}
