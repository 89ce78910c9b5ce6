/* Error code texts (hwprof_strerror). */
#include "hwprof/hwprof.h"

HWPROF_API const char *hwprof_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch ((enum hwprof_err)err) {
	case HWPROF_OK: return "success";
	case HWPROF_E_NOMEM: return "out of memory or size limit exceeded";
	case HWPROF_E_IO: return "input/output error";
	case HWPROF_E_MAGIC: return "not a perf.data file (bad magic)";
	case HWPROF_E_TRUNCATED: return "truncated input";
	case HWPROF_E_CORRUPT: return "corrupt input";
	case HWPROF_E_INVAL: return "invalid argument";
	case HWPROF_E_UNSUPPORTED: return "unsupported";
	case HWPROF_E_DECOMPRESS: return "decompression failed";
	case HWPROF_E_NOENT: return "not found";
	case HWPROF_E_BAD_PACKET: return "bad packet";
	case HWPROF_E_NEED_MORE: return "packet runs past the end of the buffer";
	case HWPROF_E_NOSYNC: return "no synchronisation point";
	case HWPROF_E_EOS: return "end of stream";
	case HWPROF_E_PERM: return "permission denied";
	case HWPROF_E_OPNOTSUPP: return "operation not supported";
	case HWPROF_E_2BIG: return "attribute too big for this kernel";
	}
	return "unknown error";
}
