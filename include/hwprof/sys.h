/* The one seam between hwprof and the kernel's perf syscalls. Everything
 * that probes or opens events goes through a struct hwprof_sys_ops, so
 * tests can answer like any kernel (old, SIMD-capable, software-only PMU)
 * without a PMU on the machine. */
#ifndef HWPROF_SYS_H
#define HWPROF_SYS_H

#include <stddef.h>
#include <stdint.h>

#include "hwprof/hwprof.h"
#include "hwprof/perf_event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwprof_sys_ops {
	/* perf_event_open(2) with attr encoded at attr->size bytes. Returns the
	 * fd (>= 0) or -errno. On E2BIG the kernel's own attr size is written
	 * back into attr->size, as the kernel does into the user buffer. */
	int (*perf_event_open)(struct hwprof_attr *attr, int pid, int cpu, int group_fd,
			       unsigned long flags);
	/* Close an fd returned by perf_event_open. */
	int (*close)(int fd);
	/* The members below serve the recorder (record.h). A NULL member means
	 * "the real syscall", so older tables keep working. */
	/* mmap(2) of a perf fd, shared, at offset off. *out = the mapping. */
	int (*mmap)(int fd, size_t len, int prot, uint64_t off, void **out);
	int (*munmap)(void *addr, size_t len);
	/* ioctl(2) with an integer or pointer argument. Returns >= 0 or -errno. */
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	/* read(2): bytes read or -errno. */
	long (*read)(int fd, void *buf, size_t len);
	/* poll(2) over struct pollfd[n]: ready count or -errno. */
	int (*poll)(void *pollfds, unsigned n, int timeout_ms);
};

/* The real syscalls. */
HWPROF_API const struct hwprof_sys_ops *hwprof_sys_default(void);

#ifdef __cplusplus
}
#endif
#endif
