/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * unwind.h - the unwind table row, shared by the CFI table builder (symbolize/cfi.c),
 * the loader that puts tables in maps and the BPF walker.
 *
 * A table describes one ELF file. Rows are sorted by pc (the ELF virtual address, as
 * in the file's program headers); a row holds from its pc up to the next row's pc.
 * Addresses no FDE covers get a UNW_CFA_NONE row, so a search never applies the rule
 * of the function before a gap. The last row of a table is UNW_CFA_NONE too.
 *
 * Two rules use the offsets differently. UNW_CFA_PLT: fp_off is the threshold of the
 * expression binutils writes (11; 10 in PLTs with endbr64), the frame pointer is untouched
 * (UNW_FP_SAME), the return address at CFA-8. UNW_CFA_SIGNAL: the interrupted SP, FP and PC
 * are saved at SP + cfa_off, SP + fp_off and SP + ra_off (glibc x86-64: 160, 120, 168, the
 * ucontext's gregs), all three read from the trampoline's CFI; fp_rule is 0.
 *
 * The rules are general enough for arm64: the return address is either at CFA+ra_off
 * (x86-64: always -8) or, with ra_off == 0, still in the link register (arm64 leaf).
 */
#ifndef EMBER_UNWIND_H
#define EMBER_UNWIND_H

enum unw_cfa_rule {
	UNW_CFA_NONE = 0,   /* no rule: a gap, an expression, a frame over 32 KiB */
	UNW_CFA_SP = 1,     /* CFA = SP + cfa_off */
	UNW_CFA_FP = 2,     /* CFA = FP + cfa_off (rbp on x86-64, x29 on arm64) */
	UNW_CFA_PLT = 3,    /* x86-64 PLT: CFA = SP + cfa_off + ((pc & 15) >= fp_off ? 8 : 0) */
	UNW_CFA_SIGNAL = 4, /* signal trampoline (__restore_rt): registers in the ucontext at SP */
	UNW_CFA_END = 5,    /* outermost frame (return address undefined): the stack is whole */
};

enum unw_fp_rule {
	UNW_FP_SAME = 0,   /* the caller's frame pointer is still in the register */
	UNW_FP_AT_CFA = 1, /* saved at CFA + fp_off */
	UNW_FP_UNDEF = 2,  /* not recoverable: the walk goes on, frame-pointer steps are off */
};

struct unw_row {
	__u32 pc;      /* first ELF virtual address the row covers */
	__u8 cfa_rule; /* enum unw_cfa_rule */
	__u8 fp_rule;  /* enum unw_fp_rule */
	__s16 cfa_off;
	__s16 fp_off; /* with UNW_FP_AT_CFA */
	__s16 ra_off; /* return address at CFA + ra_off; 0: in the link register */
};

#endif
