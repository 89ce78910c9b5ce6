/* Fuzz target for the Intel PT flow decoder: the input is a PT trace over a
 * fixed hand-assembled code image (loops, calls, returns, indirect jumps, a
 * syscall, as in tests/unit/test_pt_flow.c). Checks that decoding ends, that
 * every block's instruction lengths add up to its end, and that events are
 * well-formed. Any crash, hang, overread or abort() is a bug. */
#include <stdint.h>
#include <stdlib.h>

#include "hwprof/intel_pt_flow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t code[] = {
	0x48, 0x31, 0xc0, 0x48, 0xff, 0xc0, 0x48, 0x83, 0xf8, 0x03, 0x75, 0xf7,
	0xe8, 0x0f, 0x00, 0x00, 0x00, 0xff, 0xd3, 0xff, 0xe0,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0x90, 0xc3,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0x0f, 0x05, 0xc3,
	0xeb, 0xfe,                      /* 1033: jmp . (no packets ever) */
	0xf3, 0x0f, 0xae, 0xe0,          /* 1035: ptwrite eax */
	0xcf,                            /* 1039: iret */
};

static void run(const uint8_t *data, size_t size, unsigned flags)
{
	struct hwprof_pt_image *img;
	struct hwprof_pt_flow *f;
	if (hwprof_pt_image_new(&img) < 0)
		abort();
	hwprof_pt_image_add_buf(img, code, sizeof(code), 0x1000);
	struct hwprof_pt_flow_config cfg = { .flags = flags, .mtc_freq = 3, .tsc_ctc_n = 2,
					     .tsc_ctc_d = 1, .max_nonturbo_ratio = 20 };
	if (hwprof_pt_flow_new(&f, size ? data : (const uint8_t *)"", size, img, &cfg) < 0)
		abort();
	struct hwprof_pt_event ev;
	int r;
	while ((r = hwprof_pt_flow_next(f, &ev)) == 1) {
		if (ev.type == HWPROF_PT_EV_NONE || ev.type >= HWPROF_PT_EV_COUNT)
			abort();
		if (ev.type == HWPROF_PT_EV_BLOCK) {
			if (!ev.ninsn || !ev.ilen)
				abort();
			uint64_t ip = ev.ip;
			for (uint32_t i = 0; i + 1 < ev.ninsn; i++)
				ip += ev.ilen[i];
			if (ip != ev.end_ip || ev.ip < 0x1000 || ev.end_ip >= 0x1000 + sizeof(code))
				abort();
		}
		if (ev.type == HWPROF_PT_EV_ERROR && (ev.err >= 0 || ev.offset > size))
			abort();
	}
	if (r != 0)
		abort();
	hwprof_pt_flow_free(f);
	hwprof_pt_image_free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, HWPROF_PT_FLOW_NORETCOMP);
	run(data, size, HWPROF_PT_FLOW_RESYNC_IP); /* perf's error recovery (script) */
	return 0;
}
