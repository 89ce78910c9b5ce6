/* libtraceevent's warnings, kept on the handle instead of printed.
 *
 * libtraceevent reports through tep_vprint(), a weak symbol it calls
 * through its PLT, so defining it here takes its messages. It passes no
 * handle, so the handle being worked on is named in a thread-local for
 * the length of each call into libtraceevent (trace_warn_begin/end); a
 * message outside such a call goes to libtraceevent's own printer. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-utils.h>

#include "trace/trace_int.h"

static _Thread_local struct hwprof_trace *current;

void trace_warn_begin(struct hwprof_trace *t)
{
	current = t;
	/* perf's copy prints every warning; 1.7 hides them below WARNING */
	tep_set_loglevel(TEP_LOG_WARNING);
}

void trace_warn_end(void)
{
	current = NULL;
}

__attribute__((visibility("default"))) int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
						      const char *fmt, va_list ap);
__attribute__((visibility("default"))) int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
						      const char *fmt, va_list ap)
{
	int err = errno;
	struct hwprof_trace *t = current;
	if (!t)
		return __tep_vprint(name, level, print_err, fmt, ap);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		return err;
	char **n = realloc(t->warnings, (t->nr_warnings + 1) * sizeof(*n));
	if (!n) {
		free(msg);
		return err;
	}
	t->warnings = n;
	t->warnings[t->nr_warnings++] = msg;
	return err;
}

HWPROF_API int hwprof_trace_nr_warnings(const struct hwprof_trace *t)
{
	return t ? (int)t->nr_warnings : 0;
}

HWPROF_API const char *hwprof_trace_warning(const struct hwprof_trace *t, int i)
{
	return t && i >= 0 && (size_t)i < t->nr_warnings ? t->warnings[i] : NULL;
}

void trace_warn_free(struct hwprof_trace *t)
{
	for (size_t i = 0; i < t->nr_warnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	t->warnings = NULL;
	t->nr_warnings = 0;
}
