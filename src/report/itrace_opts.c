/* Parser for perf's --itrace option string (see include/hwprof/itrace.h).
 * Written from perf's documented syntax and checked against what Debian
 * perf 6.1 accepts and rejects (tests/unit/test_spe_synth.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/itrace.h"

void hwprof_itrace_opts_default(struct hwprof_itrace_opts *o, bool no_sample)
{
	o->set = false;
	o->branches = o->transactions = o->ptwrites = o->pwr_events = true;
	o->other_events = o->intr_events = o->errors = true;
	o->flc = o->llc = o->tlb = o->mem = o->remote_access = true;
	if (no_sample) {
		o->period_type = HWPROF_ITRACE_PERIOD_INSTRUCTIONS;
		o->period = 1;
		o->calls = true;
	} else {
		o->instructions = true;
		o->period_type = HWPROF_ITRACE_PERIOD_NANOSECS;
		o->period = HWPROF_ITRACE_DEFAULT_PERIOD;
	}
	o->callchain_sz = HWPROF_ITRACE_DEFAULT_CALLCHAIN_SZ;
	o->last_branch_sz = HWPROF_ITRACE_DEFAULT_LAST_BRANCH_SZ;
	o->initial_skip = 0;
}

static void skip_sep(const char **p)
{
	while (**p == ' ' || **p == ',')
		(*p)++;
}

/* "+x" / "-x" flag lists after 'e' and 'd'; spaces allowed in between. */
static int parse_flags(const char **p, unsigned *plus, unsigned *minus)
{
	for (;;) {
		char sign = **p;
		unsigned *dst;

		if (sign == ' ') {
			(*p)++;
			continue;
		}
		if (sign != '+' && sign != '-')
			return 0;
		dst = sign == '+' ? plus : minus;
		(*p)++;
		while (**p == ' ')
			(*p)++;
		if (**p < 'a' || **p > 'z')
			return -1;
		*dst |= HWPROF_ITRACE_FLAG(**p);
		(*p)++;
	}
}

/* Optional size after g/G/l/L: 1..max. */
static int parse_size(const char **p, unsigned *sz, unsigned max)
{
	char *end;
	unsigned long v;

	skip_sep(p);
	if (!isdigit((unsigned char)**p))
		return 0;
	v = strtoul(*p, &end, 10);
	*p = end;
	if (!v || v > max)
		return -1;
	*sz = (unsigned)v;
	return 0;
}

int hwprof_itrace_opts_parse(struct hwprof_itrace_opts *o, const char *str, bool no_sample)
{
	const char *p;
	char *end;
	bool type_set = false, period_set = false;

	if (!o)
		return -HWPROF_E_INVAL;
	if (!str) {
		hwprof_itrace_opts_default(o, no_sample);
		o->set = true;
		return 0;
	}
	o->set = true;
	for (p = str; *p;) {
		char c = *p++;

		switch (c) {
		case 'i':
			o->instructions = true;
			skip_sep(&p);
			if (!isdigit((unsigned char)*p))
				break;
			o->period = strtoull(p, &end, 10);
			period_set = true;
			p = end;
			skip_sep(&p);
			switch (*p) {
			case '\0':
				goto done; /* a bare number keeps the default unit */
			case 'i':
				o->period_type = HWPROF_ITRACE_PERIOD_INSTRUCTIONS;
				break;
			case 't':
				o->period_type = HWPROF_ITRACE_PERIOD_TICKS;
				break;
			case 'm':
			case 'u':
			case 'n':
				if (*p == 'm')
					o->period *= 1000000;
				else if (*p == 'u')
					o->period *= 1000;
				if (p[1] != 's')
					return -HWPROF_E_INVAL;
				p++;
				o->period_type = HWPROF_ITRACE_PERIOD_NANOSECS;
				break;
			default:
				return -HWPROF_E_INVAL;
			}
			p++;
			type_set = true;
			break;
		case 'b': o->branches = true; break;
		case 'x': o->transactions = true; break;
		case 'w': o->ptwrites = true; break;
		case 'p': o->pwr_events = true; break;
		case 'o': o->other_events = true; break;
		case 'I': o->intr_events = true; break;
		case 'e':
			o->errors = true;
			if (parse_flags(&p, &o->error_plus_flags, &o->error_minus_flags))
				return -HWPROF_E_INVAL;
			break;
		case 'd':
			o->log = true;
			if (parse_flags(&p, &o->log_plus_flags, &o->log_minus_flags))
				return -HWPROF_E_INVAL;
			break;
		case 'c': o->branches = o->calls = true; break;
		case 'r': o->branches = o->returns = true; break;
		case 'g':
		case 'G':
			if (c == 'G')
				o->add_callchain = true;
			else
				o->callchain = true;
			o->callchain_sz = HWPROF_ITRACE_DEFAULT_CALLCHAIN_SZ;
			if (parse_size(&p, &o->callchain_sz, HWPROF_ITRACE_MAX_CALLCHAIN_SZ))
				return -HWPROF_E_INVAL;
			break;
		case 'l':
		case 'L':
			if (c == 'L')
				o->add_last_branch = true;
			else
				o->last_branch = true;
			o->last_branch_sz = HWPROF_ITRACE_DEFAULT_LAST_BRANCH_SZ;
			if (parse_size(&p, &o->last_branch_sz, HWPROF_ITRACE_MAX_LAST_BRANCH_SZ))
				return -HWPROF_E_INVAL;
			break;
		case 's':
			o->initial_skip = strtoul(p, &end, 10);
			if (end == p)
				return -HWPROF_E_INVAL;
			p = end;
			break;
		case 'f': o->flc = true; break;
		case 'm': o->llc = true; break;
		case 't': o->tlb = true; break;
		case 'a': o->remote_access = true; break;
		case 'M': o->mem = true; break;
		case 'q': o->quick++; break;
		case 'A': o->approx_ipc = true; break;
		case 'Z': o->timeless = true; break;
		case ' ':
		case ',':
			break;
		default:
			return -HWPROF_E_INVAL;
		}
	}
done:
	/* instructions (asked for now or by an earlier --itrace) without a
	 * unit or number in this option fall back to perf's default period */
	if (o->instructions) {
		if (!type_set)
			o->period_type = HWPROF_ITRACE_PERIOD_NANOSECS;
		if (!period_set)
			o->period = HWPROF_ITRACE_DEFAULT_PERIOD;
	}
	return 0;
}
