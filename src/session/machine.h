/* Process state of a session: threads (comm, parent) and address spaces
 * (maps of DSOs), host kernel maps. Semantics follow what perf's report
 * derives from COMM/FORK/EXIT/MMAP/MMAP2 records, so lookups give the same
 * thread names and DSOs as perf prints. */
#ifndef HWPROF_SESSION_MACHINE_H
#define HWPROF_SESSION_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* perf's dso_id: the file's device and inode from MMAP2 (all zero
 * without them) */
struct sess_dso_id {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};

struct sess_map {
	uint64_t start, end, pgoff;
	const char *dso;         /* interned long name */
	uint32_t prot, flags;    /* the mapping's (MMAP2; MMAP: PROT_EXEC
	                          * unless a data map) */
	bool identity;           /* perf's anonymous and DSO-less maps ([heap],
	                          * [stack], //anon...) translate addresses as
	                          * the identity */
	struct sess_dso_id id;   /* its DSO's id: the record's, or the first
	                          * one seen for the name (perf finds the DSO
	                          * by name when the record has none) */
};

struct sess_maps {
	unsigned refs;
	struct sess_map *v;
	size_t n, cap;
};

struct sess_thread {
	int32_t pid, tid, ppid;
	char *comm;              /* NULL until set: then ":<tid>" is reported */
	char defcomm[16];
	bool comm_set;
	uint32_t serial;         /* which of perf's thread objects: a tid
				  * perf replaces (a FORK of a tid it knows)
				  * gets a new one */
	struct sess_maps *maps;
	struct sess_thread *next; /* hash chain */
};

struct sess_machine {
	struct sess_thread **buckets;
	size_t nbuckets, nthreads;
	struct sess_maps kmaps;  /* host kernel and modules */
	char **strings;          /* interned DSO names */
	struct sess_dso_id *ids; /* the first DSO id seen for each name */
	size_t nstrings, capstrings;
	uint64_t version;        /* moves with every change to threads, comms or maps */
	uint32_t serials;        /* threads made so far */
	/* the kernel map's reference symbol ("[kernel.kallsyms]_text" and
	 * the address _text had when recorded): perf relocates kallsyms
	 * by it; none for a pgoff of 0 (kptr_restrict) */
	bool kref_set;
	char kref_name[64];
	uint64_t kref_addr;
};

int sess_machine_init(struct sess_machine *m);
void sess_machine_fini(struct sess_machine *m);

struct sess_thread *sess_findnew_thread(struct sess_machine *m, int32_t pid, int32_t tid);
struct sess_thread *sess_find_thread(struct sess_machine *m, int32_t tid);
const char *sess_thread_comm(const struct sess_thread *t);

int sess_process_comm(struct sess_machine *m, int32_t pid, int32_t tid, const char *comm);
int sess_process_fork(struct sess_machine *m, int32_t pid, int32_t tid, int32_t ppid, int32_t ptid,
		      bool clone_maps);
int sess_process_mmap(struct sess_machine *m, unsigned cpumode, int32_t pid, int32_t tid, uint64_t start,
		      uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags, const struct sess_dso_id *id,
		      const char *filename);

/* KSYMBOL: a kernel text range of its own (BPF programs, trampolines)
 * registered or unregistered, as perf keeps it in the kernel maps. */
int sess_process_ksymbol(struct sess_machine *m, uint64_t addr, uint32_t len, uint16_t flags, const char *name);

/* The host kernel's own map ([kernel.kallsyms]), or NULL. */
const struct sess_map *sess_kernel_map(const struct sess_machine *m);

/* Map for addr; level gets perf's letter. Returns the map or NULL. */
const struct sess_map *sess_find_map(struct sess_machine *m, struct sess_thread *t, unsigned cpumode,
				     uint64_t addr, char *level);

#endif
