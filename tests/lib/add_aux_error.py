# Appends an AUXTRACE_ERROR record (type 1, perf's fmt 1 layout) to the data
# section of a file-mode perf.data, moving its feature sections along: a
# trace error the file itself reports, next to the decoder's.
# Usage: add_aux_error.py IN OUT
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', b, 40)
body = struct.pack('<IIIIIIQQ64s', 1, 9, 0, 0, 0, 1, 0x401000, 0, b'file error')
rec = struct.pack('<IHH', 72, 0, 8 + len(body)) + body
at = off + size
nfeat = sum(bin(x).count('1') for x in b[72:104])
for i in range(nfeat):
    p = at + 16 * i
    struct.pack_into('<Q', b, p, struct.unpack_from('<Q', b, p)[0] + len(rec))
struct.pack_into('<Q', b, 48, size + len(rec))
open(sys.argv[2], 'wb').write(b[:at] + rec + b[at:])
