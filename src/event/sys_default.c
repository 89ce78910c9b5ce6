/* The real hwprof_sys_ops: perf_event_open(2) on the attr's kernel byte
 * layout. The only file that makes perf syscalls, so everything above it
 * can be tested against fake kernels. */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hwprof/sys.h"
#include "util/bytes.h"

/* Room for any attr size we may be asked to pass (the kernel rejects
 * sizes above a page anyway). */
#define SYS_ATTR_MAX 512

static int sys_perf_event_open(struct hwprof_attr *attr, int pid, int cpu, int group_fd,
			       unsigned long flags)
{
	uint8_t buf[SYS_ATTR_MAX] __attribute__((aligned(8)));
	if (!attr || attr->size > SYS_ATTR_MAX)
		return -EINVAL;
	hwprof_attr_encode(attr, buf);
	long fd = syscall(SYS_perf_event_open, buf, pid, cpu, group_fd, flags);
	if (fd < 0) {
		int e = errno;
		if (e == E2BIG)
			attr->size = ld32(buf + 4); /* the kernel's own size */
		return -e;
	}
	return (int)fd;
}

static int sys_close(int fd)
{
	return close(fd) < 0 ? -errno : 0;
}

static const struct hwprof_sys_ops default_ops = {
	.perf_event_open = sys_perf_event_open,
	.close = sys_close,
};

HWPROF_API const struct hwprof_sys_ops *hwprof_sys_default(void)
{
	return &default_ops;
}
