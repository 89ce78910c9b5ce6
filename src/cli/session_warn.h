/* perf's warnings after reading a file (perf_session__warn_about_errors()
 * of perf 6.1): what the session counted as lost, damaged or unknown. */
#ifndef HWPROF_CLI_SESSION_WARN_H
#define HWPROF_CLI_SESSION_WARN_H

#include "hwprof/session.h"

/* Prints them on stderr in perf's order and words. report and script
 * print all of them (none of perf's tools replaces the lost, lost_samples
 * or aux callbacks the warnings depend on); perf report -q, --stats and
 * perf's tools that set no_warn print none. */
void session_warn(struct hwprof_session *s);

#endif
