/* SPDX-License-Identifier: BSD-2-Clause */
/* fgscript.c - render/flamegraph.js built into the binary, NUL-terminated */
#include "render/fgsvg.h"

__asm__(".section .rodata\n"
	".global fg_script\n"
	".type fg_script, @object\n"
	"fg_script:\n"
	".incbin \"render/flamegraph.js\"\n"
	".byte 0\n"
	".size fg_script, . - fg_script\n"
	".previous\n");
