"""Appends the process records (types below 64) and AUXTRACE buffers of one
perf.data to another's data section, as one recording of both: the second
file's trace queues are renumbered after the first's, and the AUXTRACE index
(feature 18, which would name the first's buffers only) is dropped. Both
must come from the same writer (same event ids).
usage: perfdata_merge.py A B OUT"""
import struct
import sys

PERF_RECORD_AUXTRACE = 71


def data_section(x):
    return struct.unpack_from('<QQ', x, 40)


def records(x, off, size):
    p, end = off, off + size
    while p + 8 <= end:
        typ, _, sz = struct.unpack_from('<IHH', x, p)
        if sz < 8:
            sys.exit('bad record at %#x' % p)
        total = sz + (struct.unpack_from('<Q', x, p + 8)[0] if typ == PERF_RECORD_AUXTRACE else 0)
        yield typ, p, total
        p += total


a = bytearray(open(sys.argv[1], 'rb').read())
b = open(sys.argv[2], 'rb').read()
ado, adsz = data_section(a)
bdo, bdsz = data_section(b)
first_idx = 1 + max([struct.unpack_from('<I', a, p + 32)[0]
                     for typ, p, _ in records(a, ado, adsz) if typ == PERF_RECORD_AUXTRACE] + [-1])
extra = bytearray()
for typ, p, total in records(b, bdo, bdsz):
    if typ < 64 or typ == PERF_RECORD_AUXTRACE:
        r = bytearray(b[p:p + total])
        if typ == PERF_RECORD_AUXTRACE:
            struct.pack_into('<I', r, 32, struct.unpack_from('<I', r, 32)[0] + first_idx)
        extra += r
end = ado + adsz
bits = int.from_bytes(a[72:104], 'little')
table = []
for f in range(256):
    if bits >> f & 1:
        off, size = struct.unpack_from('<QQ', a, end + 16 * len(table))
        table.append((f, off, size))
HEADER_AUXTRACE = 18
bits &= ~(1 << HEADER_AUXTRACE)
a[72:104] = bits.to_bytes(32, 'little')
# the feature sections move by the inserted bytes; the table loses the
# index's entry (its bytes stay, unnamed)
new_table = b''.join(struct.pack('<QQ', off + len(extra), size)
                     for f, off, size in table if f != HEADER_AUXTRACE)
new_table += b'\0' * (16 * len(table) - len(new_table))
struct.pack_into('<Q', a, 48, adsz + len(extra))
open(sys.argv[3], 'wb').write(a[:end] + extra + new_table + a[end + 16 * len(table):])
