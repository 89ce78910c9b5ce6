/* print_header() for a reader handle: collects the header facts and the
 * feature payloads through the public reader API into a struct hdr_view.
 * Pipes are read to their end, since features arrive as records. */
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "cli/print_header.h"
#include "hwprof/perfdata.h"

static int view_from_handle(struct hwprof_perfdata *h, struct hdr_view *v, bool read_pipe)
{
	memset(v, 0, sizeof(*v));
	const struct hwprof_perfdata_info *info = hwprof_perfdata_info(h);
	if (!info)
		return -HWPROF_E_INVAL;
	v->pipe = info->pipe;
	v->swapped = info->swapped;
	if (!v->pipe) {
		v->data_offset = info->data_offset;
		v->data_size = info->data_size;
		memcpy(v->features, info->features, sizeof(v->features));
	} else if (read_pipe) {
		struct hwprof_record rec;
		int r;
		while ((r = hwprof_perfdata_next(h, &rec)) > 0)
			;
		if (r < 0)
			return r;
	}
	for (unsigned f = 1; f < HWPROF_FEAT_LAST; f++) {
		uint64_t off;
		if (hwprof_perfdata_feature(h, f, &v->feat_data[f], &v->feat_size[f], &off) == 1)
			v->feat_present[f] = true;
	}
	/* "captured on" is the input's mtime, as perf takes it from fstat()
	 * of the file it read the header from: a directory's "data" file */
	struct stat st;
	const char *name = hwprof_perfdata_name(h);
	const char *file = v->pipe ? name : hwprof_perfdata_file_path(h, 0);
	if (v->pipe && (!name || !strcmp(name, "pipe") || !strcmp(name, "-")) ? fstat(0, &st) == 0
									      : (file && stat(file, &st) == 0))
		v->mtime = st.st_mtime;
	return 0;
}

static int print_view(FILE *out, struct hwprof_perfdata *h, bool header_only, bool full, bool read_pipe)
{
	struct hdr_view v;
	int r = view_from_handle(h, &v, read_pipe);
	if (r < 0)
		return r;
	/* names as recorded (EVENT_UPDATE) or derived from the attrs */
	uint32_t n = hwprof_perfdata_nr_evsels(h);
	char (*buf)[128] = calloc(n ? n : 1, sizeof(*buf));
	const char **names = calloc(n ? n : 1, sizeof(*names));
	if (buf && names) {
		for (uint32_t i = 0; i < n; i++)
			names[i] = hwprof_evsel_name(hwprof_perfdata_evsel(h, i), buf[i], sizeof(buf[i]));
		v.nr_evsels = n;
		v.evsel_names = names;
	}
	r = print_header_view(out, &v, header_only, full);
	free(names);
	free(buf);
	return r;
}

int print_header_opts(FILE *out, struct hwprof_perfdata *h, bool header_only, bool full)
{
	return print_view(out, h, header_only, full, true);
}

int print_header_now(FILE *out, struct hwprof_perfdata *h, bool full)
{
	return print_view(out, h, true, full, false);
}

int print_header(FILE *out, struct hwprof_perfdata *h, bool header_only)
{
	return print_header_opts(out, h, header_only, false);
}
