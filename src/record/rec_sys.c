/* The real syscalls behind the recorder's hwprof_sys_ops members (mmap,
 * ioctl, read, poll). A caller's table may leave them NULL; the recorder
 * then uses these, so only perf_event_open has to be faked in tests that
 * do not go further. */
#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record/rec_int.h"

static int real_mmap(int fd, size_t len, int prot, uint64_t off, void **out)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	*out = p;
	return 0;
}

static int real_munmap(void *addr, size_t len)
{
	return munmap(addr, len) < 0 ? -errno : 0;
}

static int real_ioctl(int fd, unsigned long req, unsigned long arg)
{
	int r = ioctl(fd, req, arg);
	return r < 0 ? -errno : r;
}

static long real_read(int fd, void *buf, size_t len)
{
	ssize_t r;
	do
		r = read(fd, buf, len);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : (long)r;
}

static int real_poll(void *fds, unsigned n, int timeout_ms)
{
	int r = poll(fds, n, timeout_ms);
	return r < 0 ? -errno : r;
}

static int real_close(int fd)
{
	return close(fd) < 0 ? -errno : 0;
}

void rec_sys_fill(struct hwprof_sys_ops *dst, const struct hwprof_sys_ops *src)
{
	*dst = *src;
	if (!dst->close)
		dst->close = real_close;
	if (!dst->mmap)
		dst->mmap = real_mmap;
	if (!dst->munmap)
		dst->munmap = real_munmap;
	if (!dst->ioctl)
		dst->ioctl = real_ioctl;
	if (!dst->read)
		dst->read = real_read;
	if (!dst->poll)
		dst->poll = real_poll;
}
