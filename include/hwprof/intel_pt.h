/* hwprof Intel PT packets: a decoder over byte buffers and an encoder.
 *
 * Sections:
 *   1. Packet types and the packet struct (raw payload fields)
 *   2. Single-packet decode (pure function) and block context
 *   3. Packet decoder: iterate a buffer, sync to PSB, errors with offsets
 *   4. Last-IP reconstruction (IP compression per the Intel SDM)
 *   5. Text description, as perf 6.1's `perf report -D` prints it
 *   6. Encoder: any packet sequence, shortest IP compression
 *
 * Nothing here allocates; decoders and encoders are caller-owned structs.
 */
#ifndef HWPROF_INTEL_PT_H
#define HWPROF_INTEL_PT_H

#include <stddef.h>
#include <stdint.h>
#include "hwprof/hwprof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. Packets ---------------------------------------------------------- */

/* Packet types. The order is perf's, so descriptions index one table. */
enum hwprof_pt_type {
	HWPROF_PT_BAD = 0,
	HWPROF_PT_PAD,
	HWPROF_PT_TNT,       /* short (1 byte) or long (02 a3, 8 bytes) */
	HWPROF_PT_TIP_PGD,
	HWPROF_PT_TIP_PGE,
	HWPROF_PT_TSC,
	HWPROF_PT_TMA,
	HWPROF_PT_MODE_EXEC,
	HWPROF_PT_MODE_TSX,
	HWPROF_PT_MTC,
	HWPROF_PT_TIP,
	HWPROF_PT_FUP,
	HWPROF_PT_CYC,
	HWPROF_PT_VMCS,
	HWPROF_PT_PSB,
	HWPROF_PT_PSBEND,
	HWPROF_PT_CBR,
	HWPROF_PT_TRACESTOP,
	HWPROF_PT_PIP,
	HWPROF_PT_OVF,
	HWPROF_PT_MNT,
	HWPROF_PT_PTWRITE,
	HWPROF_PT_EXSTOP,
	HWPROF_PT_MWAIT,
	HWPROF_PT_PWRE,
	HWPROF_PT_PWRX,
	HWPROF_PT_BBP,
	HWPROF_PT_BIP,
	HWPROF_PT_BEP,
	HWPROF_PT_CFE,
	HWPROF_PT_EVD,
	HWPROF_PT_TRIG,      /* unknown to perf 6.1 (Bad packet! in perf dump mode) */
	HWPROF_PT_TYPE_COUNT
};

/* TRIG flag bits in hwprof_pt_packet.flags */
#define HWPROF_PT_TRIG_ICNTV 0x1
#define HWPROF_PT_TRIG_MULT  0x2

/* One decoded packet. Fields hold raw values, perf's conventions:
 *  type         payload                                count
 *  TNT          branch bits left-aligned, oldest at     number of branches
 *               bit 63; only the top `count` bits are
 *               meaningful (long TNT keeps header residue below, as perf)
 *  TIP/PGE/PGD/ IP bytes as stored (2/4/6/6/8 bytes LE), IP compression (byte0>>5:
 *  FUP          not reconstructed (see last-IP helper) 0,1,2,3,4,6)
 *  TSC          56-bit TSC                             -
 *  TMA          CTC (bytes 2-3)                        FastCounter (9 bits)
 *  MODE_EXEC    16, 32 or 64                           byte1 & 0x1f (bit 2 = IF)
 *  MODE_TSX     byte1 & 3 (bit0 InTX, bit1 TXAbort)    -
 *  MTC          CTC byte                               -
 *  CYC          cycle count                            -
 *  VMCS         40-bit VMCS pointer >> 12 (raw)        5 (payload bytes)
 *  CBR          bytes 2-3 LE (ratio = low byte)        -
 *  PIP          6 bytes LE: bit0 NR, CR3 = (p&~1)<<4   -
 *  MNT          8 bytes                                -
 *  PTWRITE      4 or 8 bytes                           size field (0: 4 B, 1: 8 B)
 *  MWAIT        8 bytes (hints in bits 0-7, ext 32-33) -
 *  PWRE         bytes 2-3 LE                           -
 *  PWRX         bytes 2-6 LE                           -
 *  BBP          type (byte2 & 0x1f)                    SZ bit (1: 4-byte BIPs)
 *  BIP          4 or 8 bytes                           ID (byte0 >> 3)
 *  CFE          vector (byte 3)                        type (byte2 & 0x1f)
 *  EVD          8 bytes                                type (byte2 & 0x3f)
 *  TRIG         ICNT (0 unless ICNTV)                  TRBV (byte 2)
 * `ip` is the IP bit of PTWRITE, EXSTOP, BEP, CFE and TRIG.
 * `size` is the bytes consumed (in perf dump mode, incl. absorbed zeros). */
struct hwprof_pt_packet {
	uint64_t payload;
	uint32_t count;
	uint8_t type;   /* enum hwprof_pt_type */
	uint8_t size;
	uint8_t ip;
	uint8_t flags;  /* TRIG: HWPROF_PT_TRIG_* */
};

/* Longest packet (PSB) and the PSB pattern. */
#define HWPROF_PT_MAX_PACKET 16
#define HWPROF_PT_PSB_LEN 16

/* ---- 2. Single packet ---------------------------------------------------- */

/* Block context: after BBP, a byte with (b & 7) == 4 is a BIP, not a TNT. */
enum hwprof_pt_ctx {
	HWPROF_PT_CTX_NONE = 0,
	HWPROF_PT_CTX_BLK4 = 1,   /* BIPs carry 4-byte values */
	HWPROF_PT_CTX_BLK8 = 2,   /* BIPs carry 8-byte values */
};

/* Decoding options (hwprof_pt_decode flags). */
#define HWPROF_PT_PERF_DUMP 0x1 /* behave as perf 6.1's packet decoder: absorb
				 * following 0x00 bytes while size < 8, and
				 * treat TRIG as a bad packet */

/* Decodes the packet at buf[0..len). Returns its size (> 0), or
 * -HWPROF_E_NEED_MORE if it runs past len, -HWPROF_E_BAD_PACKET if the bytes
 * are no valid packet, -HWPROF_E_INVAL if buf or pkt is NULL.
 * pkt is filled only on success. */
HWPROF_API int hwprof_pt_packet_decode(const uint8_t *buf, size_t len,
				       enum hwprof_pt_ctx ctx, unsigned flags,
				       struct hwprof_pt_packet *pkt);

/* The block context after pkt, given the one before it. */
HWPROF_API enum hwprof_pt_ctx hwprof_pt_ctx_next(enum hwprof_pt_ctx ctx,
						 const struct hwprof_pt_packet *pkt);

/* Name of a packet type ("TIP.PGE", "MODE.Exec"), perf's spelling. */
HWPROF_API const char *hwprof_pt_type_name(unsigned type);

/* ---- 3. Packet decoder ---------------------------------------------------- */

/* Caller-owned; fields are private, use the calls below. */
struct hwprof_pt_decoder {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	size_t err_offset;
	unsigned flags;
	enum hwprof_pt_ctx ctx;
	unsigned ahead; /* 0x100 | the byte at pos, or 0 (not known): the
			 * one-packet call keeps the next packet's first byte
			 * so that its size lookup waits for no load */
};

/* Starts at offset 0, unsynchronised (perf's dump starts there too).
 * flags: HWPROF_PT_PERF_DUMP or 0. Returns 0 or -HWPROF_E_INVAL. */
HWPROF_API int hwprof_pt_decoder_init(struct hwprof_pt_decoder *dec,
				      const void *buf, size_t len, unsigned flags);

/* Decodes the next packet into pkt and advances past it. Returns 1 with a
 * packet, 0 at the end of the buffer, or -HWPROF_E_BAD_PACKET /
 * -HWPROF_E_NEED_MORE without advancing; hwprof_pt_decoder_error_offset()
 * then says where. Resume with hwprof_pt_decoder_skip() or _sync(). */
HWPROF_API int hwprof_pt_decoder_next(struct hwprof_pt_decoder *dec,
				      struct hwprof_pt_packet *pkt);
/* Up to n packets at once into pkts (for bulk consumers: no call per
 * packet). Returns how many (> 0), 0 at the end, or the error of the first
 * packet that fails when none were decoded before it (a later call then
 * returns that error). */
HWPROF_API int hwprof_pt_decoder_next_n(struct hwprof_pt_decoder *dec, struct hwprof_pt_packet *pkts,
					size_t n);

/* Moves to the next PSB at or after the current offset (resets the block
 * context). Returns 0, or -HWPROF_E_NOSYNC (position moves to the end). */
HWPROF_API int hwprof_pt_decoder_sync(struct hwprof_pt_decoder *dec);

/* Moves to an absolute offset (no sync; <= len) or skips n bytes (e.g. 1 after
 * a bad packet, as perf does). Return 0 or -HWPROF_E_INVAL. */
HWPROF_API int hwprof_pt_decoder_seek(struct hwprof_pt_decoder *dec, size_t offset);
HWPROF_API int hwprof_pt_decoder_skip(struct hwprof_pt_decoder *dec, size_t n);

/* Current offset (of the next packet) and offset of the last error. */
HWPROF_API size_t hwprof_pt_decoder_offset(const struct hwprof_pt_decoder *dec);
HWPROF_API size_t hwprof_pt_decoder_error_offset(const struct hwprof_pt_decoder *dec);

/* Offset of the first PSB at or after `from` in *psb_off. Returns 0 or
 * -HWPROF_E_NOSYNC if there is none, -HWPROF_E_INVAL on NULL arguments. */
HWPROF_API int hwprof_pt_find_psb(const void *buf, size_t len, size_t from,
				  size_t *psb_off);

/* ---- 4. Last IP ------------------------------------------------------------ */

struct hwprof_pt_last_ip {
	uint64_t ip;       /* last IP, 0 after reset (PSB) */
	int have_ip;       /* a full (sext-48 or 64-bit) IP was seen since reset */
};

HWPROF_API void hwprof_pt_last_ip_init(struct hwprof_pt_last_ip *lip);

/* Feeds one packet. For TIP, TIP.PGE, TIP.PGD and FUP computes the IP per the
 * SDM (ipc 1: IP[15:0], 2: IP[31:0], 4: IP[47:0] replace the last IP's low
 * bits; 3: sign-extend 48 bits; 6: all 64 bits), stores it as the last IP,
 * writes it to *ip (may be NULL) and returns 1; returns 0 for a suppressed IP
 * (ipc 0) or any other packet. PSB resets the last IP to 0.
 * Returns -HWPROF_E_BAD_PACKET for ipc 5/7, -HWPROF_E_INVAL on NULL. */
HWPROF_API int hwprof_pt_last_ip_update(struct hwprof_pt_last_ip *lip,
					const struct hwprof_pt_packet *pkt,
					uint64_t *ip);

/* ---- 5. Description -------------------------------------------------------- */

/* perf 6.1's text for a packet, e.g. "TNT TTN (3)", "TIP.PGE 0x401000",
 * "TIP.PGD no ip", "MODE.Exec IF:0 64". TRIG (which perf 6.1 lacks) gets
 * "TRIG TRBV 0x.. IP:n MULT:n" plus " ICNT 0x.." when ICNTV is set.
 * Returns what snprintf would (text length), or -HWPROF_E_INVAL. */
HWPROF_API int hwprof_pt_packet_desc(const struct hwprof_pt_packet *pkt,
				     char *buf, size_t len);

/* ---- 6. Encoder -------------------------------------------------------------- */

struct hwprof_pt_encoder {
	uint8_t *buf;
	size_t len;
	size_t pos;
	uint64_t last_ip;  /* as the decoder will reconstruct it */
	enum hwprof_pt_ctx ctx;
};

HWPROF_API int hwprof_pt_encoder_init(struct hwprof_pt_encoder *enc, void *buf, size_t len);

/* Writes pkt as is (fields as in struct hwprof_pt_packet; TNT: count 1..6
 * gives a short TNT (a long one inside a block where the byte would read as
 * a BIP), 0 or 7..47 a long one, taking the top `count` payload bits;
 * IP packets use count as the compression and payload as the raw IP bytes).
 * Tracks last IP and block context like a decoder. Returns bytes written,
 * -HWPROF_E_NOMEM if the buffer is full (nothing written), -HWPROF_E_INVAL for
 * fields the packet cannot hold. */
HWPROF_API int hwprof_pt_encode(struct hwprof_pt_encoder *enc,
				const struct hwprof_pt_packet *pkt);

/* TIP, TIP.PGE, TIP.PGD or FUP to `ip` with the shortest compression that
 * reconstructs it against the encoder's last IP. Returns bytes written. */
HWPROF_API int hwprof_pt_encode_ip(struct hwprof_pt_encoder *enc,
				   enum hwprof_pt_type type, uint64_t ip);

/* Convenience: PSB (resets last IP), TNT from `n` (1..47) branch bits given
 * right-aligned with the oldest branch in bit n-1, and the timing packets. */
HWPROF_API int hwprof_pt_encode_psb(struct hwprof_pt_encoder *enc);
HWPROF_API int hwprof_pt_encode_tnt(struct hwprof_pt_encoder *enc, uint64_t bits, unsigned n);
HWPROF_API int hwprof_pt_encode_tsc(struct hwprof_pt_encoder *enc, uint64_t tsc);
HWPROF_API int hwprof_pt_encode_mtc(struct hwprof_pt_encoder *enc, uint8_t ctc);
HWPROF_API int hwprof_pt_encode_tma(struct hwprof_pt_encoder *enc, uint16_t ctc, uint16_t fc);
HWPROF_API int hwprof_pt_encode_cyc(struct hwprof_pt_encoder *enc, uint64_t cycles);

/* Bytes written so far. */
HWPROF_API size_t hwprof_pt_encoder_offset(const struct hwprof_pt_encoder *enc);

#ifdef __cplusplus
}
#endif
#endif
