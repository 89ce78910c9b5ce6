/* perf script's -F option: which fields each event type prints. Defaults,
 * the "[type:]f1,f2", "+f" and "-f" forms and the messages are perf 6.1's,
 * since scripts written for perf feed us the same strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/print_script.h"
#include "hwprof/perf_event.h"

static const char *const field_names[SF_NR] = {
	"comm", "tid", "pid", "time", "cpu", "event", "trace", "ip", "sym", "dso",
	"addr", "symoff", "srcline", "period", "iregs", "uregs", "brstack",
	"brstacksym", "flags", "data_src", "weight", "bpf-output", "brstackinsn",
	"brstackinsnlen", "brstackoff", "callindent", "insn", "insnlen", "synth",
	"phys_addr", "metric", "misc", "srccode", "ipc", "tod", "data_page_size",
	"code_page_size", "ins_lat",
};

/* perf's event_type(): its names for the attr types, "unknown" for the rest */
static const char *const type_names[OT_NR] = {
	"hardware", "software", "tracepoint", "hardware-cache", "unknown", "unknown", "unknown", "unknown",
};

const char *script_field_name(unsigned f)
{
	return f < SF_NR ? field_names[f] : "?";
}

int script_output_type(uint32_t attr_type)
{
	switch (attr_type) {
	case 0: return OT_HW;
	case 1: return OT_SW;
	case 2: return OT_TRACE;
	case 3: return OT_HWCACHE;
	case 4: return OT_RAW;
	case 5: return OT_BP;
	case 0x80000000u: return OT_SYNTH; /* PERF_TYPE_SYNTH */
	default: return OT_OTHER;
	}
}

#define COMMON (SFB(SF_COMM) | SFB(SF_TID) | SFB(SF_CPU) | SFB(SF_TIME) | SFB(SF_EVNAME))
#define IPSYM (SFB(SF_IP) | SFB(SF_SYM) | SFB(SF_SYMOFFSET) | SFB(SF_DSO))

void script_opts_init(struct script_opts *o)
{
	memset(o, 0, sizeof(*o));
	uint64_t hw = COMMON | IPSYM | SFB(SF_PERIOD);
	uint64_t inval = SFB(SF_TRACE) | SFB(SF_BPF_OUTPUT);
	o->out[OT_HW] = (struct script_output){ .fields = hw, .invalid = inval };
	o->out[OT_SW] = (struct script_output){ .fields = hw | SFB(SF_BPF_OUTPUT), .invalid = SFB(SF_TRACE) };
	o->out[OT_TRACE] = (struct script_output){ .fields = COMMON | SFB(SF_TRACE) }; /* no invalid fields */
	o->out[OT_HWCACHE] = o->out[OT_HW];
	o->out[OT_RAW] = (struct script_output){
		.fields = hw | SFB(SF_ADDR) | SFB(SF_DATA_SRC) | SFB(SF_WEIGHT) | SFB(SF_PHYS_ADDR) |
			  SFB(SF_DATA_PAGE_SIZE) | SFB(SF_CODE_PAGE_SIZE) | SFB(SF_INS_LAT),
		.invalid = inval };
	o->out[OT_BP] = o->out[OT_HW];
	o->out[OT_SYNTH] = (struct script_output){
		.fields = COMMON | IPSYM | SFB(SF_SYNTH), .invalid = inval };
	o->out[OT_OTHER] = o->out[OT_HW];
}

static bool any_user_set(const struct script_opts *o)
{
	for (int j = 0; j < OT_NR; j++)
		if (o->out[j].user_set)
			return true;
	return false;
}

int script_parse_fields(struct script_opts *o, const char *arg)
{
	char *str = strdup(arg), *save = NULL;
	int type = -1, rc = 0;
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	if (!str)
		return -1;
	char *tok = strchr(str, ':');
	if (tok) {
		static const struct { const char *n; int t; } types[] = {
			{ "hw", OT_HW }, { "sw", OT_SW }, { "trace", OT_TRACE }, { "raw", OT_RAW },
			{ "break", OT_BP }, { "synth", OT_SYNTH },
		};
		*tok++ = 0;
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (!strcmp(str, types[i].n))
				type = types[i].t;
		if (type < 0) {
			fprintf(stderr, "Invalid event type in field string.\n");
			rc = -1;
			goto out;
		}
		if (o->out[type].user_set)
			fprintf(stderr, "Overriding previous field request for %s events.\n",
				type_names[type]);
		if (!strchr(tok, '+') && !strchr(tok, '-')) {
			o->out[type].fields = 0;
			o->out[type].user_set = true;
			o->out[type].wildcard_set = false;
		}
	} else {
		tok = str;
		if (!*str) {
			fprintf(stderr, "Cannot set fields to 'none' for all event types.\n");
			rc = -1;
			goto out;
		}
		if (!strchr(str, '+') && !strchr(str, '-')) {
			if (any_user_set(o))
				fprintf(stderr, "Overriding previous field request for all events.\n");
			for (int j = 0; j < OT_NR; j++) {
				o->out[j].fields = 0;
				o->out[j].user_set = true;
				o->out[j].wildcard_set = true;
			}
		}
	}
	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok == '+' ? ADD : REMOVE;
			tok++;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		/* perf 6.1: "flags" is one switch for every event type */
		if (!strcmp(tok, "flags")) {
			o->print_flags = change != REMOVE;
			continue;
		}
		unsigned i;
		for (i = 0; i < SF_NR; i++)
			if (!strcmp(tok, field_names[i]))
				break;
		if (i == SF_NR) {
			fprintf(stderr, "Invalid field requested.\n");
			rc = -2; /* usage follows */
			goto out;
		}
		uint64_t bit = SFB(i);
		if (type == -1) {
			for (int j = 0; j < OT_NR; j++) {
				struct script_output *so = &o->out[j];
				if (so->invalid & bit) {
					fprintf(stderr, "'%s' not valid for %s events. Ignoring.\n",
						field_names[i], type_names[j]);
					continue;
				}
				if (change == REMOVE) {
					so->fields &= ~bit;
					so->user_set_fields &= ~bit;
					so->user_unset_fields |= bit;
				} else {
					so->fields |= bit;
					so->user_set_fields |= bit;
					so->user_unset_fields &= ~bit;
				}
				so->user_set = true;
				so->wildcard_set = true;
			}
		} else {
			struct script_output *so = &o->out[type];
			if (so->invalid & bit) {
				fprintf(stderr, "'%s' not valid for %s events.\n", field_names[i], type_names[type]);
				rc = -1;
				goto out;
			}
			if (change == REMOVE)
				so->fields &= ~bit;
			else
				so->fields |= bit;
			so->user_set = true;
			so->wildcard_set = true;
		}
	}
	goto out;
badmix:
	fprintf(stderr, "Cannot mix +-field with overridden fields\n");
	rc = -1;
out:
	free(str);
	return rc;
}
