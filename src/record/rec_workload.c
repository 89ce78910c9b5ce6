/* Starting the workload like perf: fork now, hold the child on a pipe
 * until the events are open on its pid, then let it exec; enable_on_exec
 * starts the counting at exec. A second close-on-exec pipe tells the
 * parent whether exec worked (EOF) or failed (the child's errno). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "record/rec_int.h"

int rec_workload_fork(struct hwprof_recorder *r, struct hwprof_error *err)
{
	int go[2], ep[2];
	if (pipe2(go, O_CLOEXEC))
		return rec_set_error(err, HWPROF_E_IO, "pipe: %s", strerror(errno));
	if (pipe2(ep, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return rec_set_error(err, HWPROF_E_IO, "pipe: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(go[0]), close(go[1]), close(ep[0]), close(ep[1]);
		return rec_set_error(err, HWPROF_E_IO, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(go[1]);
		close(ep[0]);
		prctl(PR_SET_NAME, "hwprof-exec");
		/* the pipe stream owns stdout: the workload writes to stderr */
		if (r->o.pipe && r->o.output_fd < 0 && r->o.output && !strcmp(r->o.output, "-"))
			dup2(2, 1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the recorder gave up */
		execvp(r->o.argv[0], r->o.argv);
		int e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->child = pid;
	r->go_fd = go[1];
	r->err_fd = ep[0];
	return 0;
}

int rec_workload_go(struct hwprof_recorder *r, struct hwprof_error *err)
{
	if (r->go_fd < 0)
		return 0;
	ssize_t w = write(r->go_fd, "g", 1);
	close(r->go_fd);
	r->go_fd = -1;
	int e = 0;
	ssize_t n;
	do
		n = read(r->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->err_fd);
	r->err_fd = -1;
	if (w != 1 || n == (ssize_t)sizeof(e)) {
		r->st.workload_failed = true;
		r->st.workload_errno = w != 1 ? EPIPE : e;
		return rec_set_error(err, HWPROF_E_IO, "workload failed: %s", strerror(r->st.workload_errno));
	}
	return 0;
}
