# Flips 5 seeded random bits in every intel_pt AUXTRACE buffer of a
# perf.data (past its first 32 bytes): corrupt traces for the decoder
# tests. Usage: pt_flip.py IN OUT SEED
import random, struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
r = random.Random(int(sys.argv[3]))
off = struct.unpack_from('<Q', b, 40)[0]
end = off + struct.unpack_from('<Q', b, 48)[0]
while off < end:
    t, _, sz = struct.unpack_from('<IHH', b, off)
    if t == 71:
        n = struct.unpack_from('<Q', b, off + 8)[0]
        for _ in range(5):
            p = off + 48 + 32 + r.randrange(max(1, n - 32))
            b[p] ^= 1 << r.randrange(8)
        off += 48 + n
    else:
        off += sz
open(sys.argv[2], 'wb').write(b)
