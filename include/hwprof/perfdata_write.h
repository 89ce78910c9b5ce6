/* Writing perf.data that Linux perf reads: file mode (seekable: ids and
 * attrs, data, feature sections, header finalised on close) and pipe mode
 * (a 16-byte header, then HEADER_ATTR / HEADER_FEATURE records and the data
 * as a stream), plus builders for the records perf and the kernel write.
 *
 *   hwprof_writer_open()        create (path, "-" = stdout) or wrap a fd
 *   hwprof_writer_add_evsel()   events: before the first record
 *   hwprof_writer_add_feature() feature payloads (file mode: any time
 *                               before close; pipe mode: before the first
 *                               record)
 *   hwprof_writer_write()       any record; _write_auxtrace() with its data
 *   hwprof_writer_close()       finalise; the error of any failed write
 *
 * A failing write (disk full) makes every later call fail with the same
 * error; on close, a file-mode header is still written describing the
 * records that were completely written, so readers accept the file.
 */
#ifndef HWPROF_PERFDATA_WRITE_H
#define HWPROF_PERFDATA_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_writer;

enum hwprof_write_mode { HWPROF_WRITE_FILE = 0, HWPROF_WRITE_PIPE = 1 };

HWPROF_API int hwprof_writer_open(struct hwprof_writer **out, const char *path, enum hwprof_write_mode mode,
				  struct hwprof_error *err);
/* fd is not closed by the writer. File mode needs a seekable fd. */
HWPROF_API int hwprof_writer_open_fd(struct hwprof_writer **out, int fd, enum hwprof_write_mode mode,
				     struct hwprof_error *err);
HWPROF_API int hwprof_writer_add_evsel(struct hwprof_writer *w, const struct hwprof_attr *attr, const char *name,
				       const uint64_t *ids, uint32_t nr_ids);
HWPROF_API int hwprof_writer_add_feature(struct hwprof_writer *w, unsigned feat, const void *data, size_t size);
/* String features (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID):
 * u32 length + the string padded with NULs to a multiple of 64. */
HWPROF_API int hwprof_writer_add_feature_string(struct hwprof_writer *w, unsigned feat, const char *s);
HWPROF_API int hwprof_writer_write(struct hwprof_writer *w, const void *rec, size_t size);
/* A run of whole records back to back (len bytes), e.g. a drained ring. */
HWPROF_API int hwprof_writer_write_records(struct hwprof_writer *w, const void *recs, size_t len);
/* Bytes written so far, headers and features included. */
HWPROF_API uint64_t hwprof_writer_pos(const struct hwprof_writer *w);
/* An AUXTRACE record (48 bytes, built here) followed by len bytes of data
 * padded with zeros to a multiple of 8. Indexed in the AUXTRACE feature. */
HWPROF_API int hwprof_writer_write_auxtrace(struct hwprof_writer *w, uint64_t offset, uint64_t reference,
					    uint32_t idx, int32_t tid, int32_t cpu, const void *data, size_t len);
/* Bytes of data written so far (file mode: the data section's size). */
HWPROF_API uint64_t hwprof_writer_data_size(const struct hwprof_writer *w);
HWPROF_API int hwprof_writer_close(struct hwprof_writer *w, struct hwprof_error *err);

/* ---- record builders -----------------------------------------------------
 * Each writes a complete record (header included) into buf and returns its
 * size, or -HWPROF_E_NOMEM when it does not fit in len or in 65535 bytes.
 * Kernel records get the sample_id_all trailer of `attr` filled from `id`
 * (pid, tid, time, id, stream_id, cpu) when attr has sample_id_all; pass
 * attr NULL for none. */
HWPROF_API int hwprof_build_sample(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				   const struct hwprof_sample *s);
HWPROF_API int hwprof_build_comm(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				 const struct hwprof_sample *id, uint32_t pid, uint32_t tid, const char *comm,
				 int exec);
HWPROF_API int hwprof_build_mmap2(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				  const struct hwprof_sample *id, uint16_t misc, uint32_t pid, uint32_t tid,
				  uint64_t addr, uint64_t size, uint64_t pgoff, uint32_t maj, uint32_t min,
				  uint64_t ino, uint64_t ino_generation, uint32_t prot, uint32_t flags,
				  const char *filename);
HWPROF_API int hwprof_build_mmap(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				 const struct hwprof_sample *id, uint16_t misc, uint32_t pid, uint32_t tid,
				 uint64_t addr, uint64_t size, uint64_t pgoff, const char *filename);
/* FORK (type 7) or EXIT (type 4). */
HWPROF_API int hwprof_build_task(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
				 const struct hwprof_sample *id, uint32_t type, uint32_t pid, uint32_t ppid,
				 uint32_t tid, uint32_t ptid, uint64_t time);
/* A kernel record of `type` whose body is `body` (body_len bytes, padded
 * to 8), then the trailer: LOST, THROTTLE, AUX, ITRACE_START, LOST_SAMPLES,
 * SWITCH, SWITCH_CPU_WIDE, NAMESPACES, KSYMBOL, BPF_EVENT, CGROUP, TEXT_POKE,
 * AUX_OUTPUT_HW_ID, READ... */
HWPROF_API int hwprof_build_kernel_record(uint8_t *buf, size_t len, const struct hwprof_attr *attr,
					  const struct hwprof_sample *id, uint32_t type, uint16_t misc,
					  const void *body, size_t body_len);
/* A perf (user type) record: header + body, no trailer. */
HWPROF_API int hwprof_build_user_record(uint8_t *buf, size_t len, uint32_t type, const void *body,
					size_t body_len);

#ifdef __cplusplus
}
#endif
#endif
