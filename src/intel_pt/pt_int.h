/* Intel PT internals shared by the packet decoder, describer and encoder:
 * opcode bytes of the SDM's packet formats and small helpers. Not public. */
#ifndef HWPROF_PT_INT_H
#define HWPROF_PT_INT_H

#include <stdint.h>
#include "hwprof/intel_pt.h"

/* First bytes (SDM Vol. 3C "Packet definitions"). IP packets carry their
 * compression in bits 7:5 of the first byte; these are the low 5 bits. */
enum {
	IPT_OPC_PAD = 0x00, IPT_OPC_EXT = 0x02,
	IPT_OPC_TIP_PGD = 0x01, IPT_OPC_TIP = 0x0d, IPT_OPC_TIP_PGE = 0x11,
	IPT_OPC_FUP = 0x1d, IPT_OPC_TSC = 0x19, IPT_OPC_MTC = 0x59,
	IPT_OPC_MODE = 0x99, IPT_OPC_TRIG = 0xd9, IPT_OPC_CYC = 0x03,
};

/* Second bytes after 0x02. */
enum {
	IPT_EXT_PSB = 0x82, IPT_EXT_PSBEND = 0x23, IPT_EXT_CBR = 0x03,
	IPT_EXT_TNT64 = 0xa3, IPT_EXT_PIP = 0x43, IPT_EXT_TMA = 0x73,
	IPT_EXT_VMCS = 0xc8, IPT_EXT_OVF = 0xf3, IPT_EXT_EXT2 = 0xc3,
	IPT_EXT_STOP = 0x83, IPT_EXT_PTW = 0x12, /* | size << 5 | ip << 7 */
	IPT_EXT_EXSTOP = 0x62, /* | ip << 7 */
	IPT_EXT_MWAIT = 0xc2, IPT_EXT_PWRE = 0x22, IPT_EXT_PWRX = 0xa2,
	IPT_EXT_BBP = 0x63, IPT_EXT_BEP = 0x33, /* | ip << 7 */
	IPT_EXT_CFE = 0x13, IPT_EXT_EVD = 0x53,
	IPT_EXT2_MNT = 0x88,
};

/* Payload bytes of an IP packet per compression; 0xff = reserved. */
extern const uint8_t ipt_ip_bytes[8];

/* One packet through the general decoder (pt_packet.c): any block
 * context, perf dump mode, errors; hwprof_pt_decoder_next's contract. */
int ipt_decoder_next_general(struct hwprof_pt_decoder *dec, struct hwprof_pt_packet *pkt);

#endif
