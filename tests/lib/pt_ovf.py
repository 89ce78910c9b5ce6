# Turns every Nth MTC packet of the intel_pt AUXTRACE buffers of a perf.data
# into an OVF packet (both are two bytes): traces with overflows for the
# decoder tests. The packets are found in `report -D` output on stdin.
# Usage: hwprof report -D -i IN | pt_ovf.py IN OUT N
import re, sys
b = bytearray(open(sys.argv[1], 'rb').read())
every = int(sys.argv[3])
payload, seen = None, 0
for line in sys.stdin:
    m = re.match(r'\d+ (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_AUXTRACE ', line)
    if m:
        payload = int(m.group(1), 16) + 48
        continue
    m = re.match(r'\.\s+([0-9a-f]+):\s+59 [0-9a-f]{2}\s+MTC', line)
    if m and payload is not None:
        seen += 1
        if seen % every == 0:
            at = payload + int(m.group(1), 16)
            assert b[at] == 0x59
            b[at:at + 2] = b'\x02\xf3'
open(sys.argv[2], 'wb').write(b)
