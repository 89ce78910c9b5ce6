/* Prints Intel PT flow events: instruction addresses, branches (from => to,
 * trace begin/end as 0), or a one-line-per-event debug listing. */
#include <inttypes.h>

#include "cli/print_pt_flow.h"

static size_t insns(FILE *f, const struct hwprof_pt_event *ev)
{
	uint64_t ip = ev->ip;
	for (uint32_t i = 0; i < ev->ninsn; i++) {
		fprintf(f, "%" PRIx64 "\n", ip);
		ip += ev->ilen[i];
	}
	return ev->ninsn;
}

static size_t branch(FILE *f, const struct hwprof_pt_event *ev)
{
	switch (ev->type) {
	case HWPROF_PT_EV_BLOCK:
		if (!(ev->flags & HWPROF_PT_EVF_TAKEN) || ev->iclass == HWPROF_PT_IC_OTHER)
			return 0;
		fprintf(f, "%" PRIx64 " => %" PRIx64 "\n", ev->end_ip, ev->to);
		return 1;
	case HWPROF_PT_EV_ENABLE:
		fprintf(f, "0 => %" PRIx64 "\n", ev->ip);
		return 1;
	case HWPROF_PT_EV_ASYNC:
		fprintf(f, "%" PRIx64 " => %" PRIx64 "\n", ev->ip, ev->to);
		return 1;
	case HWPROF_PT_EV_DISABLE: /* a branch's PGD shows in its block */
		if (!(ev->flags & HWPROF_PT_EVF_ASYNC))
			return 0;
		fprintf(f, "%" PRIx64 " => %" PRIx64 "\n", ev->ip, ev->to);
		return 1;
	default:
		return 0;
	}
}

static size_t event(FILE *f, const struct hwprof_pt_event *ev)
{
	fprintf(f, "%-9s off %#" PRIx64 " ip %#" PRIx64, hwprof_pt_ev_name(ev->type), ev->offset,
		ev->ip);
	switch (ev->type) {
	case HWPROF_PT_EV_BLOCK:
		fprintf(f, " end %#" PRIx64 " n %u %s", ev->end_ip, ev->ninsn,
			hwprof_pt_iclass_name(ev->iclass));
		if (ev->flags & HWPROF_PT_EVF_TAKEN)
			fprintf(f, " -> %#" PRIx64 "%s", ev->to,
				ev->flags & HWPROF_PT_EVF_COMPRESSED ? " (compressed)" : "");
		break;
	case HWPROF_PT_EV_ASYNC: case HWPROF_PT_EV_DISABLE:
		fprintf(f, " to %#" PRIx64 "%s", ev->to,
			ev->flags & HWPROF_PT_EVF_ASYNC ? " async" : "");
		break;
	case HWPROF_PT_EV_ERROR:
		fprintf(f, " kind %u: %s", ev->count, hwprof_strerror(ev->err));
		break;
	case HWPROF_PT_EV_ENABLE:
		fprintf(f, "%s", ev->flags & HWPROF_PT_EVF_STATUS ? " (status)" : "");
		break;
	default:
		fprintf(f, " payload %#" PRIx64, ev->payload);
		break;
	}
	if (ev->tsc)
		fprintf(f, " tsc %#" PRIx64, ev->tsc);
	fputc('\n', f);
	return 1;
}

size_t print_pt_flow_event(FILE *f, enum print_pt_flow_what what,
			   const struct hwprof_pt_event *ev)
{
	switch (what) {
	case PRINT_PT_INSN:
		return ev->type == HWPROF_PT_EV_BLOCK ? insns(f, ev) : 0;
	case PRINT_PT_BRANCH:
		return branch(f, ev);
	default:
		return event(f, ev);
	}
}
