/* Internals of the recorder (record.h): the session state shared by the
 * ring reader, the output sink, /proc synthesis, the feature gatherer and
 * the workload starter. Symbols here carry the rec_ prefix. */
#ifndef HWPROF_REC_INT_H
#define HWPROF_REC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hwprof/perfdata_write.h"
#include "hwprof/record.h"

/* perf ioctls (_IO('$', n) and _IOR('$', 7, u64 *)) */
#define REC_IOC_ENABLE     0x2400UL
#define REC_IOC_DISABLE    0x2401UL
#define REC_IOC_SET_OUTPUT 0x2405UL
#define REC_IOC_ID         0x80082407UL
#define REC_IOC_SET_FILTER 0x40082406UL

/* struct perf_event_mmap_page offsets */
#define REC_PG_DATA_HEAD   1024
#define REC_PG_DATA_TAIL   1032
#define REC_PG_DATA_OFFSET 1040
#define REC_PG_DATA_SIZE   1048
#define REC_PG_AUX_HEAD    1056
#define REC_PG_AUX_TAIL    1064
#define REC_PG_AUX_OFFSET  1072
#define REC_PG_AUX_SIZE    1080

/* One mmapped ring (per cpu, or per thread when cpu is -1). */
struct rec_ring {
	uint8_t *base;      /* control page + data */
	size_t len;         /* mapping length */
	uint8_t *data;      /* data area */
	uint64_t size;      /* data area size, a power of 2 */
	int fd, cpu, tid;
	uint8_t *aux;       /* AUX area or NULL */
	size_t aux_len;
	uint32_t idx;       /* AUXTRACE idx */
};

/* Emits a run of whole records (len > 0). Returns 0 or < 0 to stop. */
typedef int (*rec_emit_fn)(void *ctx, const uint8_t *p, size_t len);

/* Drain a ring: hands every complete record between tail and head to emit
 * (contiguous runs in one call; a record that wraps is copied into bounce,
 * which holds 65536 bytes), then advances the tail. A record whose size
 * runs past head is left for the next call. Returns bytes consumed, or
 * < 0 when emit failed. *dropped counts bytes skipped as corrupt. */
long rec_ring_read(struct rec_ring *rg, uint8_t *bounce, rec_emit_fn emit, void *ctx, uint64_t *dropped);

struct rec_fd {
	int fd;
	uint32_t ev;        /* event index */
	int cpu, tid;       /* perf_event_open's cpu and pid */
	uint64_t id;        /* sample id */
	int ring;           /* index of the ring it writes to */
};

struct rec_zstd;

struct hwprof_recorder {
	struct hwprof_sys_ops sys;         /* the caller's, NULL members filled */
	struct hwprof_record_opts o;
	uint64_t tod_ns, clockid_ns;       /* -k: reference times at the start */
	struct hwprof_record_event *ev;    /* o.events */
	int *cpus;                         /* -1 alone = any cpu (per-thread) */
	int nr_cpus;
	int *threads;                      /* -1 alone = any thread (per-cpu) */
	int nr_threads;
	struct rec_fd *fds;
	size_t nr_fds;
	struct rec_ring *rings;
	size_t nr_rings;
	pid_t child;
	int go_fd, err_fd;                 /* workload handshake pipes */
	int wake_rd, wake_wr;              /* self-pipe for hwprof_record_wake */
	bool child_done, stop, started, finished;
	int child_status;
	struct hwprof_writer *w;
	struct rec_zstd *z;
	struct hwprof_record_stats st;
	bool drained_data;                 /* the last pass found data */
	uint64_t first_time, last_time;    /* SAMPLE_TIME feature */
	char **hit_dsos;                   /* exec MMAP/MMAP2 files seen */
	size_t nr_hit, cap_hit;
	uint8_t bounce[65536];
	uint8_t tmp[65536];
};

/* perf's dummy software event (PERF_COUNT_SW_DUMMY): sideband only */
static inline bool rec_is_dummy(const struct hwprof_attr *a)
{
	return a->type == HWPROF_TYPE_SOFTWARE && a->config == 9;
}

/* rec_sys.c: real syscalls for members the caller left NULL */
void rec_sys_fill(struct hwprof_sys_ops *dst, const struct hwprof_sys_ops *src);
/* rec_cpus.c */
int rec_cpus_parse(const char *list, int **out, int *nr);
int rec_cpus_online(int **out, int *nr);
int rec_cpus_possible(void);
/* rec_out.c: ring data sink (writer, or zstd then writer) and record stats */
int rec_out_init(struct hwprof_recorder *r);
int rec_out_ring(void *ctx, const uint8_t *p, size_t len);
int rec_out_flush(struct hwprof_recorder *r);
void rec_out_free(struct hwprof_recorder *r);
/* rec_synth.c: perf's initial records */
int rec_synth_header_records(struct hwprof_recorder *r);
int rec_synth_tasks(struct hwprof_recorder *r);
int rec_synth_lost_samples(struct hwprof_recorder *r);
int rec_write(struct hwprof_recorder *r, const void *rec, int size);
/* rec_feat.c: header features */
int rec_feat_add_all(struct hwprof_recorder *r, bool at_end);
/* rec_workload.c */
int rec_workload_fork(struct hwprof_recorder *r, struct hwprof_error *err);
int rec_workload_go(struct hwprof_recorder *r, struct hwprof_error *err);
/* rec_session.c helpers for rec_out */
void rec_note_record(struct hwprof_recorder *r, const uint8_t *rec, size_t size);
int rec_set_error(struct hwprof_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
